import { z } from "zod";
import { nameOf } from "./format";
import { assertProjectAllowed } from "./policy";
import { defineTool, READ_ONLY } from "./tool";

/** What a model needs to write to Jira correctly: a project's issue types, components and versions; field ids; who it acts as. */

const PROJECT_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;

export const jiraGetProject = defineTool({
  name: "jira_get_project",
  service: "jira",
  toolset: "jira-projects",
  scope: "read",
  description: "Read a Jira project: lead, issue types, components and versions.",
  input: z.object({ projectKey: z.string().trim().regex(PROJECT_KEY, "projectKey must be a project key such as BK").describe("The project key, e.g. BK.") }),
  output: z.object({
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    lead: z.string().nullable(),
    issueTypes: z.array(z.object({ name: z.string(), subtask: z.boolean() })),
    components: z.array(z.string()),
    versions: z.array(z.object({ name: z.string(), released: z.boolean(), releaseDate: z.string().nullable() })),
    url: z.string().nullable(),
  }),
  annotations: { title: "Read a Jira project", ...READ_ONLY },
  async run({ projectKey }, ctx) {
    assertProjectAllowed(ctx, projectKey);
    const key = projectKey.toUpperCase();
    const [project, components, versions] = await Promise.all([ctx.clients.jira.project(key), ctx.clients.jira.projectComponents(key), ctx.clients.jira.projectVersions(key)]);
    const structured = {
      key: project.key,
      name: project.name,
      description: project.description?.trim() || null,
      lead: nameOf(project.lead),
      issueTypes: (project.issueTypes ?? []).map((t) => ({ name: t.name, subtask: t.subtask === true })),
      components: components.map((c) => c.name),
      versions: versions.filter((v) => !v.archived).map((v) => ({ name: v.name, released: v.released === true, releaseDate: v.releaseDate ?? null })),
      url: ctx.atlassianUrl ? `${ctx.atlassianUrl}/browse/${project.key}` : null,
    };
    const text = [
      `# ${structured.key}: ${structured.name}`,
      [structured.lead ? `Lead: ${structured.lead}` : null, structured.url].filter(Boolean).join("\n"),
      structured.description,
      `Issue types: ${structured.issueTypes.map((t) => `${t.name}${t.subtask ? " (sub-task)" : ""}`).join(", ") || "none"}`,
      `Components: ${structured.components.join(", ") || "none"}`,
      `Versions: ${structured.versions.map((v) => `${v.name} (${v.released ? `released${v.releaseDate ? ` ${v.releaseDate}` : ""}` : "unreleased"})`).join(", ") || "none"}`,
    ]
      .filter(Boolean)
      .join("\n");
    return { structured, text };
  },
});

export const jiraSearchFields = defineTool({
  name: "jira_search_fields",
  service: "jira",
  toolset: "jira-admin",
  scope: "read",
  description: 'Find Jira field ids by name, e.g. "story points" → customfield_10016: for JQL, jira_search\'s fields, and the fields argument of jira_create_issue and jira_update_issue.',
  input: z.object({
    query: z.string().trim().min(1, "query must not be empty").max(100, "query may be at most 100 characters").describe("Part of the field's name or id."),
    customOnly: z.boolean().default(false).describe("Only custom fields."),
  }),
  output: z.object({ fields: z.array(z.object({ id: z.string(), name: z.string(), custom: z.boolean(), type: z.string().nullable() })) }),
  annotations: { title: "Search Jira fields", ...READ_ONLY },
  async run({ query, customOnly }, ctx) {
    const q = query.toLowerCase();
    const fields = (await ctx.clients.jira.fields())
      .filter((f) => (!customOnly || f.custom) && (f.name.toLowerCase().includes(q) || f.id.toLowerCase().includes(q)))
      .slice(0, 50)
      .map((f) => ({ id: f.id, name: f.name, custom: f.custom, type: f.schema ? `${f.schema.type ?? "?"}${f.schema.items ? ` of ${f.schema.items}` : ""}` : null }));
    const text = fields.length ? [`${fields.length} field${fields.length === 1 ? "" : "s"} match "${query}":`, ...fields.map((f) => `- ${f.id}: ${f.name}${f.type ? ` (${f.type})` : ""}`)].join("\n") : `No field matches "${query}".`;
    return { structured: { fields }, text };
  },
});

export const jiraCurrentUser = defineTool({
  name: "jira_current_user",
  service: "jira",
  toolset: "jira-admin",
  scope: "read",
  description: "Who Bridgekeeper acts as in Jira: display name, accountId (for assignee fields and JQL) and time zone.",
  input: z.object({}),
  output: z.object({ accountId: z.string(), displayName: z.string(), email: z.string().nullable(), timeZone: z.string().nullable() }),
  annotations: { title: "Who am I in Jira", ...READ_ONLY },
  async run(_args, ctx) {
    const me = (await ctx.clients.jira.myself()) as Awaited<ReturnType<typeof ctx.clients.jira.myself>> & { timeZone?: string };
    const structured = { accountId: me.accountId, displayName: me.displayName, email: me.emailAddress ?? null, timeZone: me.timeZone ?? null };
    return { structured, text: `${me.displayName} (accountId ${me.accountId}${structured.email ? `, ${structured.email}` : ""}${structured.timeZone ? `, ${structured.timeZone}` : ""})` };
  },
});

export const JIRA_PROJECT_TOOLS = [jiraGetProject, jiraSearchFields, jiraCurrentUser];
