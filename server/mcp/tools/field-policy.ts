import {
  assertIssueAllowed,
  assertIssueIdAllowed,
  assertProjectAllowed,
  assertSprintAllowed,
  isProjectKey,
  notFoundAs,
  outsideById,
  projectOfKey,
} from "./policy";
import { ToolError, type ToolContext } from "./tool";

/**
 * Jira's own field JSON (the `fields` of jira_create_issue, jira_update_issue,
 * jira_transition_issue and each item of jira_create_issues) held to the client's project
 * allow-list: every value that names another issue (a parent by key or id, an Epic Link, an issue
 * picker, links), a project or a sprint passes the same check as the tools' named arguments, or
 * the call is refused before anything is written. A field's kind comes from its schema in Jira's
 * field list (the list jira_search_fields reads), read only when a field the tools do not know is
 * given.
 */

export type FieldKind = "issue" | "links" | "project" | "sprint" | "plain" | "unknown";

/** System fields by what they hold. `parent` has no schema in Jira's field list (its create screen calls it "issuelink"). */
const SYSTEM_KINDS: Record<string, FieldKind> = {
  parent: "issue",
  subtasks: "issue",
  issuelinks: "links",
  project: "project",
  ...Object.fromEntries(
    [
      "summary",
      "description",
      "environment",
      "issuetype",
      "priority",
      "labels",
      "assignee",
      "reporter",
      "components",
      "fixVersions",
      "versions",
      "duedate",
      "timetracking",
      "security",
      "resolution",
    ].map((id) => [id, "plain" as const]),
  ),
};

/** Custom field types (schema.custom) that name issues, projects or sprints. */
const CUSTOM_KINDS: Record<string, FieldKind> = {
  "com.pyxis.greenhopper.jira:gh-epic-link": "issue",
  "com.atlassian.jpo:jpo-custom-field-parent": "issue",
  "com.pyxis.greenhopper.jira:gh-sprint": "sprint",
  "com.atlassian.jira.plugin.system.customfieldtypes:project": "project",
};

/** What a field of Jira's field list (or undefined: not listed) holds, by its id and schema. */
export function fieldKind(id: string, listed: { schema?: { type?: string; items?: string; custom?: string } } | undefined): FieldKind {
  const known = SYSTEM_KINDS[id];
  if (known) return known;
  if (!listed) return "unknown";
  const { type, items, custom } = listed.schema ?? {};
  if (custom && CUSTOM_KINDS[custom]) return CUSTOM_KINDS[custom];
  // Issue pickers (ScriptRunner's and others'), and any field whose values are issues or links.
  if (custom && /issue-?picker/i.test(custom)) return "issue";
  if ([type, items].some((t) => t === "issue" || t === "issuelink" || t === "issuelinks")) return "issue";
  if (type === "project" || items === "project") return "project";
  return "plain";
}

const ID = /^\d{1,18}$/;
/** The operations of a link edit (Jira's `update` verbs), every one of them read. */
const LINK_OPERATIONS = ["add", "set", "edit", "remove"] as const;

/**
 * The references a field's value makes, in Jira's JSON shapes: a key or id as text or number,
 * `{key}`, `{id}` or both (Jira may place it by either, so each is a reference), a list of them;
 * links as `{type, inwardIssue|outwardIssue}`, or inside `add`/`set`/`edit`/`remove` operations
 * (every one given). `unreadable` when some value names something another way (a name, a URL):
 * such a reference cannot be placed, so it is refused under a list.
 */
export function referencesIn(kind: Exclude<FieldKind, "plain" | "unknown">, value: unknown): { refs: string[]; unreadable: boolean } {
  const refs: string[] = [];
  let unreadable = false;
  /** A key or id as text or number, or null when it is neither. */
  const named = (v: unknown): string | null => {
    if (typeof v === "number") return Number.isSafeInteger(v) && v >= 0 ? String(v) : null;
    if (typeof v !== "string") return null;
    const text = v.trim();
    const fits =
      ID.test(text) ||
      (kind === "project" ? isProjectKey(text) : kind === "issue" || kind === "links" ? projectOfKey(text) !== null : false);
    return fits ? text.toUpperCase() : null;
  };
  /** One reference (or a list of them): a key or id, as text or number, or `{key}` / `{id}` / `{key, id}`. */
  const ref = (v: unknown): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) return v.forEach(ref);
    const given =
      typeof v === "object"
        ? [kind === "sprint" ? null : named((v as Record<string, unknown>).key), named((v as Record<string, unknown>).id)]
        : [named(v)];
    const found = given.filter((r): r is string => r !== null);
    if (found.length === 0) unreadable = true;
    refs.push(...found);
  };
  /** One link: `{type, inwardIssue | outwardIssue}`, or operations (`{add: link, remove: link}`) holding them. */
  const link = (v: unknown): void => {
    if (v === null || v === undefined) return;
    const o = typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    const ops = LINK_OPERATIONS.filter((op) => o[op] !== undefined);
    if (ops.length > 0) {
      for (const op of ops) (Array.isArray(o[op]) ? (o[op] as unknown[]) : [o[op]]).forEach(link);
      return;
    }
    if (o.inwardIssue === undefined && o.outwardIssue === undefined) return void (unreadable = true);
    ref(o.inwardIssue);
    ref(o.outwardIssue);
  };
  if (kind === "links") (Array.isArray(value) ? value : [value]).forEach(link);
  else ref(value);
  return { refs, unreadable };
}

async function assertProjectIdAllowed(ctx: ToolContext, id: string): Promise<void> {
  const project = await ctx.clients.jira.project(id).catch(notFoundAs(() => outsideById(ctx, "project", id)));
  if (!(ctx.policy.jiraProjects ?? []).includes(project.key.toUpperCase())) throw outsideById(ctx, "project", id);
}

/**
 * Refuses field sets (Jira's `fields` JSON, as sent) that name an issue, project or sprint outside
 * the client's Jira projects. Without a project list nothing is checked (and nothing read); with
 * one, Jira's field list is read once when a field the tools do not know is given; references by
 * key are checked first, then each issue or project named by id (and each sprint) is read, all at
 * once, to place it.
 */
export async function assertFieldsAllowed(ctx: ToolContext, ...fieldSets: (Record<string, unknown> | undefined)[]): Promise<void> {
  if (ctx.policy.jiraProjects === null) return;
  const sets = fieldSets.filter((f): f is Record<string, unknown> => f !== undefined);
  const ids = [...new Set(sets.flatMap((f) => Object.keys(f)))];
  const listed = ids.some((id) => !SYSTEM_KINDS[id])
    ? new Map((await ctx.clients.jira.fields()).map((f) => [f.id, f]))
    : new Map<string, never>();
  const kinds = new Map(ids.map((id) => [id, fieldKind(id, listed.get(id))]));
  const unknown = ids.filter((id) => kinds.get(id) === "unknown");
  if (unknown.length)
    throw new ToolError(
      `Jira has no field ${unknown.join(", ")}: find field ids with jira_search_fields (or jira_get_create_fields, jira_get_edit_fields).`,
    );
  /** The reads that place references by id (and sprints), one per reference, run together once every key has passed. */
  const reads = new Map<string, () => Promise<void>>();
  for (const fields of sets) {
    for (const [id, value] of Object.entries(fields)) {
      const kind = kinds.get(id)!;
      if (kind === "plain" || kind === "unknown") continue;
      const { refs, unreadable } = referencesIn(kind, value);
      const example = `${ctx.policy.jiraProjects[0] ?? "BK"}-12`;
      if (unreadable) {
        const how =
          kind === "project"
            ? "projects by key (such as BK) or id"
            : kind === "sprint"
              ? "sprints by id"
              : `issues by key (such as ${example}) or id, as Jira's JSON does ({"key": "${example}"})`;
        throw new ToolError(`This client is limited to some Jira projects: ${id} must name ${how}, so that the allow-list can place them.`);
      }
      for (const ref of refs) {
        if (kind === "sprint") reads.set(`sprint ${ref}`, () => assertSprintAllowed(ctx, Number(ref)));
        else if (kind === "project") {
          if (ID.test(ref)) reads.set(`project ${ref}`, () => assertProjectIdAllowed(ctx, ref));
          else assertProjectAllowed(ctx, ref);
        } else if (ID.test(ref)) reads.set(`issue ${ref}`, () => assertIssueIdAllowed(ctx, ref));
        else assertIssueAllowed(ctx, ref);
      }
    }
  }
  await Promise.all([...reads.values()].map((read) => read()));
}
