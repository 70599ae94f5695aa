import { z } from "zod";
import type { JiraFieldMeta } from "../../upstream/jira.client";
import { nameOf } from "./format";
import { browseUrl, CreateIssueArgs, createFields, ISSUE_KEY, PROJECT_KEY, TransitionSchema, transitionsOf } from "./jira-common";
import { defineTool, DESTRUCTIVE, READ_ONLY, ToolError, WRITES } from "./tool";

/**
 * The jira-admin toolset: field ids, what a project's screens ask for (the fields to create or
 * edit an issue, required or not, with their allowed values and custom field ids), creating a
 * release version, creating many issues in one call with a result per item, an issue's workflow
 * transitions, who the tools act as, and deleting an issue.
 */

const projectKey = z
  .string()
  .trim()
  .regex(PROJECT_KEY, "projectKey must be a project key such as BK")
  .describe("The project key, e.g. BK.");
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const date = (name: string) =>
  z
    .string()
    .trim()
    .regex(DATE, `${name} must be a date such as 2026-12-24`)
    .refine((v) => !Number.isNaN(Date.parse(v)), `${name} is not a real date`);
/** Allowed values shown per field: enough to choose from, bounded for a long option list. */
const MAX_VALUES = 30;
const MAX_FIELDS = 500;

const FieldSchema = z.object({
  id: z.string(),
  name: z.string(),
  required: z.boolean(),
  type: z.string().nullable(),
  custom: z.boolean(),
  allowedValues: z.array(z.string()).optional(),
  moreValues: z.number().int().optional(),
  operations: z.array(z.string()).optional(),
});
type Field = z.infer<typeof FieldSchema>;

function presentField(id: string, f: Omit<JiraFieldMeta, "fieldId">, withOperations: boolean): Field {
  const values = (f.allowedValues ?? []).map(nameOf).filter((v): v is string => v !== null);
  return {
    id,
    name: f.name,
    required: f.required === true,
    type: f.schema?.type ? `${f.schema.type}${f.schema.items ? ` of ${f.schema.items}` : ""}` : null,
    custom: id.startsWith("customfield_"),
    ...(values.length ? { allowedValues: values.slice(0, MAX_VALUES) } : {}),
    ...(values.length > MAX_VALUES ? { moreValues: values.length - MAX_VALUES } : {}),
    ...(withOperations && f.operations ? { operations: f.operations } : {}),
  };
}

const fieldLine = (f: Field) =>
  `- ${f.id} — ${f.name}: ${f.type ?? "?"}${f.required ? ", required" : ""}${f.operations ? ` (${f.operations.join("/")})` : ""}${f.allowedValues ? `; values: ${f.allowedValues.join(", ")}${f.moreValues ? ` (+${f.moreValues} more)` : ""}` : ""}`;

/** Required fields first, then Jira's order. */
const ordered = (fields: Field[]) => [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];

export const jiraGetCreateFields = defineTool({
  name: "jira_get_create_fields",
  service: "jira",
  toolset: "jira-admin",
  reaches: [{ kind: "jira-project", arg: "projectKey" }],
  scope: "read",
  description:
    "The fields to create an issue of a type in a project: id (custom ones too), required, type, allowed values. For jira_create_issue's fields.",
  input: z.object({
    projectKey,
    issueType: z
      .string()
      .trim()
      .min(1, "issueType must not be empty")
      .max(100, "issueType may be at most 100 characters")
      .describe("An issue type name (e.g. Bug) or id."),
  }),
  output: z.object({
    projectKey: z.string(),
    issueType: z.object({ id: z.string(), name: z.string() }),
    fields: z.array(FieldSchema),
    truncated: z.boolean(),
  }),
  annotations: { title: "List the fields to create a Jira issue", ...READ_ONLY },
  async run({ projectKey: given, issueType }, ctx) {
    const key = given.toUpperCase();
    const { issueTypes } = await ctx.clients.jira.createMetaIssueTypes(key);
    const type = issueTypes.find((t) => t.id === issueType) ?? issueTypes.find((t) => t.name.toLowerCase() === issueType.toLowerCase());
    if (!type)
      throw new ToolError(`${key} has no issue type "${issueType}". Its types are: ${issueTypes.map((t) => t.name).join(", ") || "none"}.`);
    const metas: JiraFieldMeta[] = [];
    let total = Number.POSITIVE_INFINITY;
    while (metas.length < Math.min(total, MAX_FIELDS)) {
      const page = await ctx.clients.jira.createMetaFields(key, type.id, metas.length, 100);
      metas.push(...page.fields);
      total = typeof page.total === "number" ? page.total : metas.length;
      if (page.fields.length === 0) break;
    }
    const fields = ordered(metas.slice(0, MAX_FIELDS).map((f) => presentField(f.fieldId ?? f.key, f, false)));
    const truncated = total > fields.length;
    const head = `Fields to create a ${type.name} in ${key} (${fields.filter((f) => f.required).length} required${truncated ? `; the first ${fields.length} of ${total}` : ""}):`;
    return {
      structured: { projectKey: key, issueType: { id: type.id, name: type.name }, fields, truncated },
      text: [head, ...fields.map(fieldLine)].join("\n"),
    };
  },
});

export const jiraGetEditFields = defineTool({
  name: "jira_get_edit_fields",
  service: "jira",
  toolset: "jira-admin",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "read",
  description:
    "The fields a Jira issue can change now: id (custom ones too), type, operations, allowed values. For jira_update_issue's fields.",
  input: z.object({
    issueKey: z
      .string()
      .trim()
      .regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)")
      .describe("The issue key, e.g. BK-12."),
  }),
  output: z.object({ key: z.string(), fields: z.array(FieldSchema), url: z.string().nullable() }),
  annotations: { title: "List the fields a Jira issue can change", ...READ_ONLY },
  async run({ issueKey }, ctx) {
    const key = issueKey.toUpperCase();
    const meta = await ctx.clients.jira.editMeta(key);
    const fields = ordered(
      Object.entries(meta.fields ?? {})
        .slice(0, MAX_FIELDS)
        .map(([id, f]) => presentField(id, f, true)),
    );
    return {
      structured: { key, fields, url: browseUrl(ctx, key) },
      text: fields.length
        ? [`${key} can change ${fields.length} field${fields.length === 1 ? "" : "s"}:`, ...fields.map(fieldLine)].join("\n")
        : `${key} has no fields the account may edit.`,
    };
  },
});

export const jiraCreateVersion = defineTool({
  name: "jira_create_version",
  service: "jira",
  toolset: "jira-admin",
  reaches: [{ kind: "jira-project", arg: "projectKey" }],
  scope: "write",
  description: "Create a release version in a Jira project (for fix versions), optionally with a description, start and release dates.",
  input: z.object({
    projectKey,
    name: z.string().trim().min(1, "name must not be empty").max(255, "name may be at most 255 characters").describe("e.g. v2.3.0"),
    description: z.string().trim().max(1_000, "description may be at most 1000 characters").optional(),
    startDate: date("startDate").optional(),
    releaseDate: date("releaseDate").optional(),
    released: z.boolean().default(false).describe("Already released."),
  }),
  output: z.object({
    id: z.string(),
    name: z.string(),
    projectKey: z.string(),
    released: z.boolean(),
    releaseDate: z.string().nullable(),
    url: z.string().nullable(),
  }),
  annotations: { title: "Create a Jira version", ...WRITES },
  async run({ projectKey: given, name, description, startDate, releaseDate, released }, ctx) {
    if (startDate && releaseDate && releaseDate < startDate)
      throw new ToolError("releaseDate is before startDate: give a release date on or after the start date.");
    const key = given.toUpperCase();
    const project = await ctx.clients.jira.project(key);
    const version = await ctx.clients.jira.createVersion({
      projectId: Number(project.id),
      name,
      released,
      ...(description ? { description } : {}),
      ...(startDate ? { startDate } : {}),
      ...(releaseDate ? { releaseDate } : {}),
    });
    const url = ctx.atlassianUrl ? `${ctx.atlassianUrl}/projects/${key}/versions/${version.id}` : null;
    const structured = {
      id: String(version.id),
      name: version.name,
      projectKey: key,
      released: version.released === true,
      releaseDate: version.releaseDate ?? null,
      url,
    };
    return {
      structured,
      text: `Created version ${structured.name} (id ${structured.id}) in ${key}${structured.releaseDate ? `, release ${structured.releaseDate}` : ""}${structured.released ? ", released" : ""}.${url ? `\n${url}` : ""}`,
    };
  },
});

export const jiraCreateIssues = defineTool({
  name: "jira_create_issues",
  service: "jira",
  toolset: "jira-admin",
  reaches: [
    { kind: "jira-project", arg: "issues[].projectKey" },
    { kind: "jira-issue", arg: "issues[].parentKey" },
    { kind: "jira-fields", arg: "issues[].fields" },
  ],
  scope: "write",
  description:
    "Create up to 50 Jira issues in one call (each as jira_create_issue takes it). Each succeeds or fails alone: the answer lists the created keys and each failure by its index.",
  input: z.object({
    issues: z
      .array(CreateIssueArgs, { error: "issues must be a list of issues to create" })
      .min(1, "issues must hold at least one issue")
      .max(50, "issues may hold at most 50 issues (Jira's limit for one call)"),
  }),
  output: z.object({
    created: z.array(z.object({ index: z.number().int(), key: z.string(), summary: z.string(), url: z.string().nullable() })),
    failed: z.array(z.object({ index: z.number().int(), summary: z.string(), errors: z.string() })),
  }),
  annotations: { title: "Create Jira issues in a batch", ...WRITES },
  async run({ issues }, ctx) {
    // Every item was held to the allow-list before this runs (its reaches): one outside refuses the batch.
    const updates = issues.map((item) => ({ fields: createFields(item) }));
    const result = await ctx.clients.jira.createIssues(updates);
    const failures = new Map(result.errors.map((e) => [e.failedElementNumber ?? -1, e]));
    const failed = [...failures.entries()]
      .filter(([index]) => index >= 0 && index < issues.length)
      .sort(([a], [b]) => a - b)
      .map(([index, e]) => ({
        index,
        summary: issues[index]!.summary,
        errors:
          [
            ...(e.elementErrors?.errorMessages ?? []),
            ...Object.entries(e.elementErrors?.errors ?? {}).map(([field, message]) => `${field}: ${message}`),
          ].join("; ") || `refused (${e.status ?? 400})`,
      }));
    // Jira lists the created issues in request order, skipping the failed ones.
    const succeeded = issues.map((item, index) => ({ item, index })).filter(({ index }) => !failures.has(index));
    const created = result.issues.map((ref, n) => {
      const index = succeeded[n]?.index ?? -1;
      return { index, key: ref.key, summary: issues[index]?.summary ?? "", url: browseUrl(ctx, ref.key) };
    });
    if (created.length === 0)
      throw new ToolError(
        `Jira created none of the ${issues.length} issues. ${failed.map((f) => `#${f.index} "${f.summary}": ${f.errors.replace(/\.$/, "")}`).join(". ")}. Fix these and call again.`,
      );
    const lines = [
      `Created ${created.length} of ${issues.length} issue${issues.length === 1 ? "" : "s"}:`,
      ...created.map((c) => `- #${c.index} ${c.key}: ${c.summary}${c.url ? ` ${c.url}` : ""}`),
      ...(failed.length
        ? [`Failed (${failed.length}; nothing was created for these):`, ...failed.map((f) => `- #${f.index} "${f.summary}": ${f.errors}`)]
        : []),
    ];
    return { structured: { created, failed }, text: lines.join("\n") };
  },
});

export const jiraSearchFields = defineTool({
  name: "jira_search_fields",
  service: "jira",
  toolset: "jira-admin",
  reaches: [],
  scope: "read",
  description:
    'Find Jira field ids by name, e.g. "story points" → customfield_10016: for JQL, jira_search\'s fields, and the fields argument of jira_create_issue and jira_update_issue.',
  input: z.object({
    query: z
      .string()
      .trim()
      .min(1, "query must not be empty")
      .max(100, "query may be at most 100 characters")
      .describe("Part of the field's name or id."),
    customOnly: z.boolean().default(false).describe("Only custom fields."),
  }),
  output: z.object({ fields: z.array(z.object({ id: z.string(), name: z.string(), custom: z.boolean(), type: z.string().nullable() })) }),
  annotations: { title: "Search Jira fields", ...READ_ONLY },
  async run({ query, customOnly }, ctx) {
    const q = query.toLowerCase();
    const fields = (await ctx.clients.jira.fields())
      .filter((f) => (!customOnly || f.custom) && (f.name.toLowerCase().includes(q) || f.id.toLowerCase().includes(q)))
      .slice(0, 50)
      .map((f) => ({
        id: f.id,
        name: f.name,
        custom: f.custom,
        type: f.schema ? `${f.schema.type ?? "?"}${f.schema.items ? ` of ${f.schema.items}` : ""}` : null,
      }));
    const text = fields.length
      ? [
          `${fields.length} field${fields.length === 1 ? "" : "s"} match "${query}":`,
          ...fields.map((f) => `- ${f.id}: ${f.name}${f.type ? ` (${f.type})` : ""}`),
        ].join("\n")
      : `No field matches "${query}".`;
    return { structured: { fields }, text };
  },
});

export const jiraCurrentUser = defineTool({
  name: "jira_current_user",
  service: "jira",
  toolset: "jira-admin",
  reaches: [],
  scope: "read",
  description: "Who Bridgekeeper acts as in Jira: display name, accountId (for assignee fields and JQL) and time zone.",
  input: z.object({}),
  output: z.object({ accountId: z.string(), displayName: z.string(), email: z.string().nullable(), timeZone: z.string().nullable() }),
  annotations: { title: "Who am I in Jira", ...READ_ONLY },
  async run(_args, ctx) {
    const me = (await ctx.clients.jira.myself()) as Awaited<ReturnType<typeof ctx.clients.jira.myself>> & { timeZone?: string };
    const structured = {
      accountId: me.accountId,
      displayName: me.displayName,
      email: me.emailAddress ?? null,
      timeZone: me.timeZone ?? null,
    };
    return {
      structured,
      text: `${me.displayName} (accountId ${me.accountId}${structured.email ? `, ${structured.email}` : ""}${structured.timeZone ? `, ${structured.timeZone}` : ""})`,
    };
  },
});

export const jiraGetTransitions = defineTool({
  name: "jira_get_transitions",
  service: "jira",
  toolset: "jira-admin",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "read",
  description: "The workflow transitions a Jira issue can take now: id, name and target status.",
  input: z.object({ issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)") }),
  output: z.object({ key: z.string(), transitions: z.array(TransitionSchema) }),
  annotations: { title: "List a Jira issue's transitions", ...READ_ONLY },
  async run({ issueKey }, ctx) {
    const key = issueKey.toUpperCase();
    const transitions = await transitionsOf(ctx, key);
    const lines = transitions.map((t) => `- ${t.name} (id ${t.id}) → ${t.to ?? "?"}`);
    return {
      structured: { key, transitions },
      text: transitions.length ? `${key} can move:\n${lines.join("\n")}` : `${key} has no transitions available now.`,
    };
  },
});

export const jiraDeleteIssue = defineTool({
  name: "jira_delete_issue",
  service: "jira",
  toolset: "jira-admin",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "write",
  description:
    "Delete a Jira issue for good (its comments, work log and links go with it). An issue with sub-tasks needs deleteSubtasks: true. Prefer a transition to Done or Won't Do unless asked to delete.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    deleteSubtasks: z.boolean().default(false).describe("Also delete its sub-tasks (required when it has any)."),
  }),
  output: z.object({ key: z.string(), deleted: z.boolean() }),
  annotations: { title: "Delete a Jira issue", ...DESTRUCTIVE, idempotentHint: true },
  async run({ issueKey, deleteSubtasks }, ctx) {
    const key = issueKey.toUpperCase();
    await ctx.clients.jira.deleteIssue(key, deleteSubtasks);
    return { structured: { key, deleted: true }, text: `Deleted ${key}${deleteSubtasks ? " and its sub-tasks" : ""}.` };
  },
});

export const JIRA_ADMIN_TOOLS = [
  jiraSearchFields,
  jiraGetCreateFields,
  jiraGetEditFields,
  jiraCreateVersion,
  jiraCreateIssues,
  jiraCurrentUser,
  jiraGetTransitions,
  jiraDeleteIssue,
];
