import { z } from "zod";

/**
 * What an administrator lets one OAuth client's AI touch (issue 11 item 4). Every field narrows;
 * null or empty means "no limit of this kind". The user behind a token narrows it further (a
 * write tool needs the `write` scope, which a user without `mcp.write` cannot hold).
 */

/**
 * Groups of MCP tools, switched on or off together: the one table of them, with the label the
 * console's policy editor shows and whether a client nobody restricted gets it (what most work
 * needs, in a tools/list that fits a model's context); an administrator switches the others on
 * per client (its policy's toolsets). Which tools a toolset holds is the server's catalogue
 * (server/mcp/tools/<toolset>.tools.ts, one file per name here, keyed by these names in
 * catalogue.ts); a toolset's service is its name's first word, which the catalogue's test checks
 * against every tool's service.
 */
export const TOOLSETS = {
  "jira-issues": { label: "Jira issues: search, read, create, update, assign, comment, transitions", default: true },
  "jira-comments": { label: "Jira comments: list all, edit, delete", default: false },
  "jira-worklogs": { label: "Jira work logs: list, log time", default: false },
  "jira-links": { label: "Jira issue links, watchers and remote links (web pages)", default: false },
  "jira-projects": { label: "Jira projects: list, read (issue types, components, versions)", default: true },
  "jira-admin": {
    label:
      "Jira schema and administration: field ids, create and edit screens, versions, batch create, workflow transitions, the current user, deleting issues",
    default: false,
  },
  "jira-agile": { label: "Jira Software boards, sprints (create, change, move issues) and epics", default: false },
  "jira-attachments": { label: "Jira attachments: list, add, read text", default: false },
  "confluence-pages": { label: "Confluence pages: search, read, create, update", default: true },
  "confluence-comments": { label: "Confluence comments: list threads (footer and inline), add, reply", default: false },
  "confluence-tree": { label: "Confluence spaces, page trees (by title, subtrees, moves) and labels", default: false },
  "confluence-history": { label: "Confluence page history and edits: versions, diff, one section, delete", default: false },
  "confluence-attachments": { label: "Confluence page attachments: list, upload", default: false },
  "bitbucket-code": { label: "Bitbucket repositories and code", default: true },
  "bitbucket-prs": { label: "Bitbucket pull requests", default: true },
  "bitbucket-history": { label: "Bitbucket workspaces, repository facts, branches, commits and their diffs", default: false },
  "bitbucket-reviews": { label: "Bitbucket review work: activity, comments, tasks, PR edits", default: false },
} as const satisfies Record<string, { label: string; default: boolean }>;
export type Toolset = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as [Toolset, ...Toolset[]];
/** What a client whose policy names no toolsets (null) gets. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = TOOLSET_NAMES.filter((t) => TOOLSETS[t].default);
/** The toolsets a policy puts on offer. */
export const toolsetsOf = (p: Pick<ClientPolicy, "toolsets">): readonly Toolset[] => p.toolsets ?? DEFAULT_TOOLSETS;

const JIRA_PROJECT = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;
const CONFLUENCE_SPACE = /^~?[\w-]{1,255}$/;
/**
 * `repo`, `workspace/repo`, or `workspace/*` for every repository of one workspace (Bitbucket
 * slugs). On Data Center the workspace is a project key, `~user` for a personal project (issue 28).
 */
const BITBUCKET_REPOSITORY = /^(?:~?[\w.-]{1,100}\/(?:[\w.-]{1,100}|\*)|[\w.-]{1,100})$/;

const keyList = (pattern: RegExp, what: string, example: string, normalise: (key: string) => string = (k) => k) =>
  z
    .array(z.string().trim().regex(pattern, `each ${what} must look like ${example}`), { error: `${what}s must be a list` })
    .max(200, `at most 200 ${what}s`)
    .nullable()
    .default(null)
    .transform((list) => (list === null ? null : [...new Set(list.map(normalise))]));

export const ClientPolicySchema = z
  .object({
    /** Only tools that read: writing tools are neither listed nor callable. */
    readOnly: z.boolean({ error: "readOnly must be true or false" }).default(false),
    /** The toolsets on offer; null: the default ones (DEFAULT_TOOLSETS). */
    toolsets: z
      .array(z.enum(TOOLSET_NAMES, { error: `toolsets are ${TOOLSET_NAMES.join(", ")}` }))
      .nullable()
      .default(null),
    /** Tools switched off one by one (names as in tools/list). */
    disabledTools: z
      .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "each disabled tool must be a tool name such as jira_create_issue"))
      .max(200)
      .default([]),
    /** Jira project keys the client may read and change; null: any. */
    jiraProjects: keyList(JIRA_PROJECT, "Jira project key", "BK", (k) => k.toUpperCase()),
    /** Confluence space keys; null: any. */
    confluenceSpaces: keyList(CONFLUENCE_SPACE, "Confluence space key", "ENG"),
    /** Bitbucket repositories, `repo`, `workspace/repo` or `workspace/*` (on Data Center `PROJECT/repo`, `PROJECT/*`); null: any. */
    bitbucketRepositories: keyList(
      BITBUCKET_REPOSITORY,
      "Bitbucket repository",
      "api-gateway, bridgekeeper/api-gateway or bridgekeeper/* (Data Center: PLAT/api-gateway or PLAT/*)",
    ),
  })
  .strict();

export type ClientPolicy = z.output<typeof ClientPolicySchema>;
export type ClientPolicyInput = z.input<typeof ClientPolicySchema>;

/** The policy of a client nobody restricted. */
export const OPEN_POLICY: ClientPolicy = {
  readOnly: false,
  toolsets: null,
  disabledTools: [],
  jiraProjects: null,
  confluenceSpaces: null,
  bitbucketRepositories: null,
};

/** A service's toolsets: those named after it (`jira-…`). */
export const toolsetsOfService = (service: "jira" | "confluence" | "bitbucket"): Toolset[] =>
  TOOLSET_NAMES.filter((t) => t.startsWith(`${service}-`));

const SERVICE_NAMES = { jira: "Jira", confluence: "Confluence", bitbucket: "Bitbucket" } as const;

/**
 * Why a client may not read a service through the raw proxy paths (docs/decisions.md#read-only-proxy), or null when it may.
 * The proxies pass any GET, so they honour no limit: a client restricted in any way for that
 * service is refused (issue 24 item 8): any allow-list, any of the service's tools switched off,
 * or any of its default toolsets off. Each reason names the rule, for the 403's message.
 */
export function proxyRefusal(p: ClientPolicy | null | undefined, service: "jira" | "confluence" | "bitbucket"): string | null {
  if (!p) return null;
  const lists = [
    p.jiraProjects !== null && "Jira projects",
    p.confluenceSpaces !== null && "Confluence spaces",
    p.bitbucketRepositories !== null && "Bitbucket repositories",
  ].filter((x): x is string => typeof x === "string");
  if (lists.length > 0) return `its policy limits it to some ${lists.join(", ")} (allow-lists)`;
  const tools = p.disabledTools.filter((name) => name.startsWith(`${service}_`));
  if (tools.length > 0)
    return `its policy switches off ${SERVICE_NAMES[service]} tools (${tools.slice(0, 5).join(", ")}${tools.length > 5 ? ", …" : ""})`;
  // Every service has a default toolset, so a client left none of a service's is caught here too.
  const off = toolsetsOfService(service).filter((t) => TOOLSETS[t].default && !toolsetsOf(p).includes(t));
  return off.length > 0 ? `its policy switches off ${SERVICE_NAMES[service]} toolsets (${off.join(", ")})` : null;
}

/** The console's policy form (OAuth Clients, "Policy"): each list as the entries picked, in order. */
export interface PolicyFormValues {
  readOnly: boolean;
  toolsets: Toolset[];
  disabledTools: string[];
  jiraProjects: string[];
  confluenceSpaces: string[];
  bitbucketRepositories: string[];
}

export const POLICY_FORM_FIELDS = [
  "readOnly",
  "toolsets",
  "disabledTools",
  "jiraProjects",
  "confluenceSpaces",
  "bitbucketRepositories",
] as const satisfies readonly (keyof PolicyFormValues)[];

const listOrNull = (list: readonly string[]): string[] | null => (list.length > 0 ? [...list] : null);

export const policyToForm = (p: ClientPolicy): PolicyFormValues => ({
  readOnly: p.readOnly,
  toolsets: [...toolsetsOf(p)],
  disabledTools: [...p.disabledTools],
  jiraProjects: [...(p.jiraProjects ?? [])],
  confluenceSpaces: [...(p.confluenceSpaces ?? [])],
  bitbucketRepositories: [...(p.bitbucketRepositories ?? [])],
});

const sameToolsets = (a: readonly Toolset[], b: readonly Toolset[]) => a.length === b.length && a.every((t) => b.includes(t));

/** What PUT .../policy takes: the default toolsets ticked is "default" (null), an empty list is "any" (null). */
export const policyFromForm = (v: PolicyFormValues): ClientPolicyInput => ({
  readOnly: v.readOnly,
  toolsets: sameToolsets(v.toolsets, DEFAULT_TOOLSETS) ? null : TOOLSET_NAMES.filter((t) => v.toolsets.includes(t)),
  disabledTools: [...v.disabledTools],
  jiraProjects: listOrNull(v.jiraProjects),
  confluenceSpaces: listOrNull(v.confluenceSpaces),
  bitbucketRepositories: listOrNull(v.bitbucketRepositories),
});

/** Whether a policy restricts nothing. */
export const isOpenPolicy = (p: ClientPolicy): boolean =>
  !p.readOnly &&
  p.toolsets === null &&
  p.disabledTools.length === 0 &&
  p.jiraProjects === null &&
  p.confluenceSpaces === null &&
  p.bitbucketRepositories === null;
