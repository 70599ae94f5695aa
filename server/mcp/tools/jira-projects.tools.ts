import { z } from "zod";
import { firstOf } from "../../upstream/paginate";
import { nameOf } from "./format";
import { defineTool, READ_ONLY } from "./tool";

/** The jira-projects toolset: the projects a client may use, and a project's issue types, components and versions. */

const PROJECT_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;

export const jiraGetProject = defineTool({
  name: "jira_get_project",
  service: "jira",
  toolset: "jira-projects",
  reaches: [{ kind: "jira-project", arg: "projectKey" }],
  scope: "read",
  description: "Read a Jira project by key: lead, issue types, components and versions.",
  input: z.object({ projectKey: z.string().trim().regex(PROJECT_KEY, "projectKey must be a project key such as BK") }),
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
    const key = projectKey.toUpperCase();
    const [project, components, versions] = await Promise.all([
      ctx.clients.jira.project(key),
      ctx.clients.jira.projectComponents(key),
      ctx.clients.jira.projectVersions(key),
    ]);
    const structured = {
      key: project.key,
      name: project.name,
      description: project.description?.trim() || null,
      lead: nameOf(project.lead),
      issueTypes: (project.issueTypes ?? []).map((t) => ({ name: t.name, subtask: t.subtask === true })),
      components: components.map((c) => c.name),
      versions: versions
        .filter((v) => !v.archived)
        .map((v) => ({ name: v.name, released: v.released === true, releaseDate: v.releaseDate ?? null })),
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

export const jiraListProjects = defineTool({
  name: "jira_list_projects",
  service: "jira",
  toolset: "jira-projects",
  reaches: [{ kind: "listing", service: "jira" }],
  scope: "read",
  description: "List the Jira projects this client can use: key, name and type.",
  input: z.object({
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(500, "maxResults may be at most 500").default(100),
  }),
  output: z.object({
    projects: z.array(z.object({ key: z.string(), name: z.string(), type: z.string().nullable(), url: z.string().nullable() })),
    truncated: z.boolean(),
  }),
  annotations: { title: "List Jira projects", ...READ_ONLY },
  async run({ maxResults }, ctx) {
    const allowed = ctx.policy.jiraProjects;
    const { items, truncated } = await firstOf(
      ctx.clients.jira.projects(),
      maxResults,
      (p) => allowed === null || allowed.includes(p.key.toUpperCase()),
    );
    const projects = (items as { key: string; name: string; projectTypeKey?: string }[]).map((p) => ({
      key: p.key,
      name: p.name,
      type: p.projectTypeKey ?? null,
      url: ctx.atlassianUrl ? `${ctx.atlassianUrl}/browse/${p.key}` : null,
    }));
    const lines = projects.map((p) => `- ${p.key}: ${p.name}${p.type ? ` (${p.type})` : ""}`);
    return {
      structured: { projects, truncated },
      text: [
        `${projects.length} project${projects.length === 1 ? "" : "s"}${truncated ? ` (more exist: raise maxResults)` : ""}:`,
        ...lines,
      ].join("\n"),
    };
  },
});

export const JIRA_PROJECTS_TOOLS = [jiraListProjects, jiraGetProject];
