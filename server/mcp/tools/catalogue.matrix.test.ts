import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from "vitest";
import { z } from "zod";
import type { ClientPolicyInput } from "../../../contract/policy";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { TOOLS } from "./catalogue";
import { valuesAt } from "./governance";
import type { Reach, ToolSpec } from "./tool";
import { closeToolTest, putPolicy } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

/**
 * The whole catalogue, tool by tool, through a real MCP client against the sandbox (issue: "every
 * tool called through the MCP client against the sandbox: happy path, bad arguments, an object
 * outside a client's allow-list, read-only client, upstream 404/409/429/500"). The per-tool files
 * test what each tool says; this one proves the same promises for every tool at once, so a new
 * tool cannot arrive without them. Every phase starts from the sandbox's seeded data.
 */

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

/** Seeded: Priya Raman, who watches BK-1. */
const PRIYA = "712020:7ee0b909-3140-a316-345f-96850d01b745";
/** Seeded: the tip of api-gateway's main branch. */
const MAIN_TIP = "7cf163d9dfe8";

/**
 * One call of every tool that succeeds on the seeded sandbox (sandbox/<service>/seed.ts, default
 * seed). Writes are independent of each other; the destructive ones (run last) delete or merge
 * objects no other example needs.
 */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  // Jira: BK-1 an epic with attachments and a watcher, BK-2 an epic with children, BK-3 a bug in
  // To Do with comments, board 1 = BK, sprint 7 its active one and 8 a future one.
  jira_search: { jql: "project = BK ORDER BY key ASC", maxResults: 5 },
  jira_get_issue: { issueKey: "BK-1" },
  jira_search_users: { query: "priya" },
  jira_list_projects: {},
  jira_get_project: { projectKey: "BK" },
  jira_search_fields: { query: "story" },
  jira_current_user: {},
  jira_get_transitions: { issueKey: "BK-3" },
  jira_get_create_fields: { projectKey: "BK", issueType: "Task" },
  jira_get_edit_fields: { issueKey: "BK-3" },
  jira_list_comments: { issueKey: "BK-3" },
  jira_list_worklogs: { issueKey: "BK-1" },
  jira_list_link_types: {},
  jira_list_watchers: { issueKey: "BK-1" },
  jira_list_remote_links: { issueKey: "BK-1" },
  jira_list_boards: {},
  jira_list_sprints: { boardId: 1 },
  jira_get_sprint_issues: { sprintId: 7 },
  jira_get_board_issues: { boardId: 1 },
  jira_get_epic_children: { epicKey: "BK-2" },
  jira_list_attachments: { issueKey: "BK-1" },
  jira_read_attachment: { issueKey: "BK-1", attachmentId: "10000" },
  jira_create_issue: { projectKey: "BK", summary: "Matrix: a new issue" },
  jira_create_issues: {
    issues: [
      { projectKey: "BK", summary: "Matrix: batch one" },
      { projectKey: "OPS", summary: "Matrix: batch two" },
    ],
  },
  jira_update_issue: { issueKey: "BK-3", summary: "Matrix: renamed" },
  jira_assign_issue: { issueKey: "BK-3", accountId: PRIYA },
  jira_add_comment: { issueKey: "BK-3", body: "Matrix: a **comment**." },
  jira_edit_comment: { issueKey: "BK-3", commentId: "10030", body: "Matrix: an edited comment." },
  jira_transition_issue: { issueKey: "BK-3", transition: "In Progress" },
  jira_add_worklog: { issueKey: "BK-3", timeSpent: "1h 30m" },
  jira_link_issues: { from: "BK-3", type: "Relates", to: "BK-12" },
  jira_add_watcher: { issueKey: "BK-3", accountId: PRIYA },
  jira_remove_watcher: { issueKey: "BK-1", accountId: PRIYA },
  jira_add_remote_link: { issueKey: "BK-3", url: "https://example.com/matrix", title: "Matrix spec" },
  jira_create_version: { projectKey: "BK", name: "v9.9.9-matrix" },
  jira_create_sprint: { boardId: 1, name: "Matrix sprint" },
  jira_update_sprint: { sprintId: 8, goal: "Matrix goal" },
  jira_move_issues_to_sprint: { sprintId: 8, issueKeys: ["BK-12"] },
  jira_move_issues_to_backlog: { issueKeys: ["BK-6"] },
  jira_add_attachment: { issueKey: "BK-3", filename: "matrix.txt", content: "Matrix attachment." },
  jira_delete_comment: { issueKey: "BK-4", commentId: "10034" },
  jira_delete_issue: { issueKey: "BK-9" },

  // Confluence: ENG's homepage 1081346 with its children; 1081348 at version 5; 1081351 with footer
  // comments (1082171 one of them); 1081411 and 1081428 at version 1, each with a "Details" section.
  confluence_search: { cql: "space = ENG AND type = page", limit: 5 },
  confluence_get_page: { pageId: "1081346" },
  confluence_get_page_by_title: { spaceKey: "ENG", title: "Engineering Home" },
  confluence_list_spaces: {},
  confluence_get_space: { spaceKey: "ENG" },
  confluence_get_page_children: { pageId: "1081346" },
  confluence_get_page_ancestors: { pageId: "1081377" },
  confluence_get_page_descendants: { pageId: "1081346", depth: 2 },
  confluence_get_page_history: { pageId: "1081348" },
  confluence_diff_page_versions: { pageId: "1081348", from: 1, to: 2 },
  confluence_list_comments: { pageId: "1081351" },
  confluence_list_attachments: { pageId: "1081346" },
  confluence_list_labels: { pageId: "1081346" },
  confluence_create_page: { spaceKey: "ENG", title: "Matrix page", body: "# Matrix\n\nA new page." },
  confluence_update_page: { pageId: "1081411", version: 1, body: "Matrix: the new body." },
  confluence_update_page_section: { pageId: "1081428", version: 1, heading: "Details", body: "Matrix: new details." },
  confluence_add_comment: { pageId: "1081368", body: "Matrix: a comment." },
  confluence_reply_comment: { commentId: "1082171", body: "Matrix: a reply." },
  confluence_label_page: { pageId: "1081346", add: ["matrix"] },
  confluence_move_page: { pageId: "1081453", targetId: "1081356" },
  confluence_upload_attachment: { pageId: "1081346", filename: "matrix.txt", content: "Matrix attachment." },
  confluence_delete_page: { pageId: "1081490" },

  // Bitbucket, workspace "bridgekeeper": api-gateway's open pull requests 11 (with comments and
  // tasks) and 12 (task 31000003); feature/rate-limiting is a branch with changes and no open PR.
  bitbucket_list_repositories: { maxResults: 5 },
  bitbucket_list_workspaces: {},
  bitbucket_get_repository: { repository: "api-gateway" },
  bitbucket_search_code: { query: "retry" },
  bitbucket_get_file: { repository: "api-gateway", path: "CHANGELOG.md" },
  bitbucket_list_branches: { repository: "api-gateway" },
  bitbucket_list_commits: { repository: "api-gateway", maxResults: 5 },
  bitbucket_get_commit: { repository: "api-gateway", commit: MAIN_TIP },
  bitbucket_get_commit_diff: { repository: "api-gateway", commit: MAIN_TIP },
  bitbucket_list_pull_requests: { repository: "api-gateway" },
  bitbucket_get_pull_request: { repository: "api-gateway", pullRequestId: 12 },
  bitbucket_get_pull_request_diff: { repository: "api-gateway", pullRequestId: 12 },
  bitbucket_get_pull_request_diffstat: { repository: "api-gateway", pullRequestId: 12 },
  bitbucket_get_pull_request_activity: { repository: "api-gateway", pullRequestId: 12 },
  bitbucket_list_pull_request_commits: { repository: "api-gateway", pullRequestId: 12 },
  bitbucket_list_pull_request_comments: { repository: "api-gateway", pullRequestId: 11 },
  bitbucket_list_pull_request_tasks: { repository: "api-gateway", pullRequestId: 11 },
  bitbucket_create_branch: { repository: "api-gateway", name: "matrix/new-branch" },
  bitbucket_create_pull_request: { repository: "api-gateway", title: "Matrix PR", source: "feature/rate-limiting" },
  bitbucket_comment_pull_request: { repository: "api-gateway", pullRequestId: 12, body: "Matrix: a comment." },
  bitbucket_approve_pull_request: { repository: "api-gateway", pullRequestId: 12 },
  bitbucket_request_changes: { repository: "api-gateway", pullRequestId: 12 },
  bitbucket_update_pull_request: { repository: "api-gateway", pullRequestId: 12, title: "Matrix: a new title" },
  bitbucket_create_pull_request_task: { repository: "api-gateway", pullRequestId: 12, content: "Matrix: a task." },
  bitbucket_resolve_pull_request_task: { repository: "api-gateway", pullRequestId: 12, taskId: 31000003 },
  bitbucket_resolve_comment: { repository: "api-gateway", pullRequestId: 11, commentId: 482768049 },
  bitbucket_merge_pull_request: { repository: "api-gateway", pullRequestId: 11 },
  bitbucket_decline_pull_request: { repository: "api-gateway", pullRequestId: 12 },
};

type Flavour = "cloud" | "datacenter";

/**
 * The same examples on the sandbox's Data Center flavour (issue 28: the same tools, arguments and
 * answers on both): only what names a person differs, since Jira DC names people by username.
 */
const DC_PRIYA = "priya.raman";
const EXAMPLES_ON: Record<Flavour, Record<string, Record<string, unknown>>> = {
  cloud: EXAMPLES,
  datacenter: Object.fromEntries(
    Object.entries(EXAMPLES).map(([name, args]) => [name, args.accountId === PRIYA ? { ...args, accountId: DC_PRIYA } : args]),
  ),
};

type AllowListKind = "object" | "listing" | "unscoped";

/** The reaches (tool.ts) an example's call holds to the allow-lists: those whose argument it gives, and its listings. */
const reachedBy = (tool: ToolSpec, args: Record<string, unknown>): Reach[] =>
  tool.reaches.filter((r) => r.kind === "listing" || valuesAt(args, r.arg).length > 0);

/**
 * What a client whose allow-lists name only things that do not exist gets from each tool's
 * example, read from the tool's declared reaches. `object`: the example names an issue, project,
 * board, sprint, page, space, repository or comment, and is refused as outside the lists.
 * `listing`: it searches or lists, succeeds, and answers nothing. `unscoped`: it is about none of
 * those (users, fields, link types, who I am).
 */
function allowListKind(tool: ToolSpec): AllowListKind {
  const reached = reachedBy(tool, EXAMPLES[tool.name]!);
  return reached.some((r) => r.kind !== "listing") ? "object" : reached.length > 0 ? "listing" : "unscoped";
}

/** Whether the example's first object is a board or sprint (read to be placed): refused as an id outside, naming no project. */
const placedByRead = (tool: ToolSpec): boolean =>
  ["jira-board", "jira-sprint"].includes(reachedBy(tool, EXAMPLES[tool.name]!).find((r) => r.kind !== "listing")?.kind ?? "");

/**
 * Arguments that name what an allow-list governs, by name: a tool taking one must declare it as
 * a reach, so that a tool cannot escape the lists by declaring nothing (the expectations below are
 * read from the declarations).
 */
const GOVERNED_ARGUMENTS: Record<ToolSpec["service"], string[]> = {
  jira: ["issueKey", "issueKeys", "epicKey", "parentKey", "projectKey", "from", "to", "boardId", "sprintId", "commentId", "issues"],
  confluence: ["pageId", "parentId", "targetId", "spaceKey", "commentId"],
  bitbucket: ["repository"],
};

/**
 * Written down apart from the declarations, so that a reach deleted from a tool fails here rather
 * than turning the tool "unscoped" in the expectations read from those declarations: the tools
 * that reach nothing an allow-list governs, and those that only search or list (held to the lists
 * by their query).
 */
const REACHES_NOTHING = ["jira_current_user", "jira_list_link_types", "jira_search_fields"];
const ONLY_LISTS = [
  "bitbucket_list_repositories",
  "bitbucket_list_workspaces",
  "confluence_list_spaces",
  "confluence_search",
  "jira_list_projects",
  "jira_search",
];

/**
 * Upstream answers a tool may take as success, by design: Bitbucket's 409 on resolving a thread
 * means it is resolved already, which is what was asked (bitbucket-reviews.tools.ts).
 */
const SUCCESS_ON_STATUS: Record<string, number[]> = { bitbucket_resolve_comment: [409] };

/**
 * The upstream failures every tool is called under, and what its answer must say: the status, or
 * (a 404) the tool's own words for what is missing.
 */
const FAULTS = [
  // Bitbucket Data Center answers 404 where it has no code search: the tool says that instead.
  { status: 404, says: /\(404\)|^There is no |^Code search is not available/ },
  { status: 409, says: /\(409\)/ },
  { status: 429, retryAfter: 1, says: /\(429\); wait 1 s/ },
  { status: 500, says: /\(500\)/ },
] as const;

/** Searches taken as a POST: reads, though not GETs (Jira Cloud's and DC's, Bitbucket DC's code search). */
const READ_POSTS = ["/rest/api/3/search/jql", "/dc/jira/rest/api/2/search", "/dc/bitbucket/rest/search/latest/search"];

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const NAMES = TOOLS.map((t) => t.name);
const isRead = (t: ToolSpec) => t.annotations.readOnlyHint;
const isDestructive = (t: ToolSpec) => t.annotations.destructiveHint;
const names = (filter: (t: ToolSpec) => boolean) => TOOLS.filter(filter).map((t) => t.name);
/** The words a refusal names its object with (policy.ts). */
const OBJECT_WORDS = { jira: "the Jira project", confluence: "the Confluence space", bitbucket: "the Bitbucket repository" } as const;

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
}
const typesOf = (s: JsonSchema): string[] =>
  s.anyOf ? s.anyOf.flatMap(typesOf) : [s.type ?? []].flat().map((t) => (t === "integer" ? "number" : t));
/** A value of a JSON type the schema does not take. */
const wrongValue = (s: JsonSchema): unknown =>
  (
    [
      ["number", 12345],
      ["string", "not-a-valid-value"],
      ["boolean", true],
      ["object", { x: 1 }],
    ] as const
  ).find(([type]) => !typesOf(s).includes(type))![1];

/** What a model can act on: words, not a dump (no undefined, no object, no stack, nothing said twice). */
function expectActionable(expect: ExpectStatic, text: string, what: string): void {
  expect(text.trim().length, what).toBeGreaterThan(10);
  expect(text.length, what).toBeLessThan(800);
  expect(text, what).not.toMatch(/undefined|\[object Object\]|NaN|^\s+at |\.\.(?!\.)/m);
  // A status is named once: "Jira found nothing there (404): Jira found nothing there (404)" is not.
  for (const status of text.match(/\(\d{3}\)/g) ?? []) expect(text.split(status).length, `${what}: ${status} twice`).toBe(2);
}

type Client = Awaited<ReturnType<typeof mcpClient>>;

describe.each(["cloud", "datacenter"] as const)("the MCP tool catalogue, every tool against the sandbox (%s)", (flavour) => {
  const EXAMPLES = EXAMPLES_ON[flavour];
  let rig: McpRig;
  /** Every toolset on, no limits. */
  let open: Client;
  /** Every toolset on, read-only. */
  let reader: Client;
  /** Every toolset on, allow-lists naming only things that do not exist. */
  let fenced: Client;
  /** tools/list of the open client, by name. */
  const listed = new Map<string, { inputSchema: JsonSchema; outputSchema?: object; annotations?: { readOnlyHint?: boolean } }>();
  const validators = new Map<string, ValidateFunction>();
  const ajv = new Ajv2020({ strict: false });

  const clientWith = async (name: string, policy: ClientPolicyInput): Promise<Client> => {
    const oauth = await createClient(rig, { name });
    const set = await putPolicy(rig, oauth.clientId, policy);
    if (set.status !== 200) throw new Error(`policy of ${name}: ${set.status} ${set.text}`);
    return mcpClient(rig, await rig.token("read write", oauth), name);
  };
  const sandbox = (path: string, init: RequestInit = {}) =>
    fetch(`${rig.sandbox.url}${path}`, { ...init, headers: { "content-type": "application/json", ...init.headers } });
  const basic = (user: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}` });
  const atlassian = basic("demo@bridgekeeper.test", "sandbox-api-token");
  const sandboxJson = async <T>(path: string, auth = atlassian): Promise<T> => (await (await sandbox(path, { headers: auth })).json()) as T;

  beforeAll(async () => {
    // One attempt per call (a 429 is not waited for), and a breaker that never opens: each fault is seen as itself.
    rig = await startMcpRig(
      { upstream: { maxAttempts: 1, breaker: { consecutiveFailures: 1_000_000, halfOpenAfterMs: 1_000 } } },
      { flavour },
    );
    [open, reader, fenced] = await Promise.all([
      clientWith("matrix-open", {}),
      clientWith("matrix-read-only", { readOnly: true }),
      clientWith("matrix-fenced", { jiraProjects: ["ZZZ"], confluenceSpaces: ["ZZZ"], bitbucketRepositories: ["nowhere/none"] }),
    ]);
    for (const tool of (await open.client.listTools()).tools) listed.set(tool.name, tool as never);
  });
  afterAll(() => closeToolTest(rig, open, reader, fenced));

  describe("the tables", () => {
    it("give an example of every tool, and of no tool that does not exist (but the pending ones)", () => {
      expect(
        NAMES.filter((n) => !(n in EXAMPLES)),
        "tools without an example",
      ).toEqual([]);
      expect(
        Object.keys(EXAMPLES).filter((n) => !NAMES.includes(n)),
        "examples of no tool",
      ).toEqual([]);
    });

    it("reach nothing, or only list, exactly as written down apart from their declarations", () => {
      expect(
        TOOLS.filter((t) => t.reaches.length === 0)
          .map((t) => t.name)
          .sort(),
      ).toEqual([...REACHES_NOTHING].sort());
      expect(
        TOOLS.filter((t) => t.reaches.length > 0 && t.reaches.every((r) => r.kind === "listing"))
          .map((t) => t.name)
          .sort(),
      ).toEqual([...ONLY_LISTS].sort());
    });

    it("declare as a reach every argument that names what an allow-list governs", () => {
      // An input that is not an object would hide its arguments from this check.
      expect(TOOLS.filter((t) => !(t.input instanceof z.ZodObject)).map((t) => t.name)).toEqual([]);
      const undeclared = TOOLS.flatMap((tool) => {
        const args = tool.input instanceof z.ZodObject ? Object.keys(tool.input.shape) : [];
        const declared = new Set(tool.reaches.flatMap((r) => (r.kind === "listing" ? [] : [r.arg.split(/[[.]/)[0]])));
        return args
          .filter((arg) => GOVERNED_ARGUMENTS[tool.service].includes(arg) && !declared.has(arg))
          .map((arg) => `${tool.name}.${arg}`);
      });
      expect(undeclared).toEqual([]);
      // And every declared argument is one the tool takes.
      const unknown = TOOLS.flatMap((tool) =>
        tool.reaches.flatMap((r) =>
          r.kind !== "listing" && tool.input instanceof z.ZodObject && !(r.arg.split(/[[.]/)[0]! in tool.input.shape)
            ? [`${tool.name}.${r.arg}`]
            : [],
        ),
      );
      expect(unknown).toEqual([]);
    });

    it("the open client is offered every tool", () => {
      expect([...listed.keys()].sort()).toEqual([...NAMES].sort());
    });
  });

  describe("happy path: every example succeeds and its answer fits the tool's output schema", () => {
    beforeAll(() => rig.sandbox.reset());
    const succeeds = async (name: string, { expect }: { expect: ExpectStatic }) => {
      const res = await open.call(name, EXAMPLES[name]!);
      expect(res.isError, `${name}: ${res.text}`).toBe(false);
      // The text is the tool's own rendering (contents, diffs and excerpts included): only never empty nor a stray value.
      expect(res.text.trim(), name).not.toBe("");
      expect(res.text, name).not.toMatch(/\bundefined\b|\[object Object\]/);
      let validate = validators.get(name);
      if (!validate) validators.set(name, (validate = ajv.compile(listed.get(name)!.outputSchema!)));
      expect(validate(res.data), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    // Reads first (side by side), then writes one by one, the destructive ones last.
    it.concurrent.for(names(isRead))("reads: %s", succeeds);
    it.for(names((t) => !isRead(t) && !isDestructive(t)))("writes: %s", succeeds);
    it.for(names(isDestructive))("destructive: %s", succeeds);
  });

  describe("bad arguments: a tool error naming the field, never a protocol error", () => {
    it.concurrent.for(NAMES)("%s", async (name, { expect }) => {
      const extra = await open.call(name, { ...EXAMPLES[name], matrixExtra: 1 });
      expect(extra.isError, extra.text).toBe(true);
      expect(extra.text).toMatch(/^Invalid arguments\. .*'matrixExtra'/);

      const schema = listed.get(name)!.inputSchema;
      const required = schema.required ?? [];
      const first = required[0] ?? Object.keys(schema.properties ?? {})[0];
      if (first) {
        const wrong = await open.call(name, { ...EXAMPLES[name], [first]: wrongValue(schema.properties![first]!) });
        expect(wrong.isError, wrong.text).toBe(true);
        expect(wrong.text).toMatch(new RegExp(`^Invalid arguments\\. (.*; )?${first}: `));
      }
      if (required.length > 0) {
        const none = await open.call(name, {});
        expect(none.isError, none.text).toBe(true);
        expect(none.text).toMatch(new RegExp(`^Invalid arguments\\. (.*; )?${required[0]}: `));
      }
    });
  });

  describe.each(FAULTS)("upstream answers $status to everything: a tool error with a sentence to act on", (fault) => {
    beforeAll(async () => {
      const { says: _says, ...spec } = fault;
      const set = await sandbox("/__sandbox/faults", { method: "POST", body: JSON.stringify({ path: "^/", ...spec }) });
      expect(set.status).toBeLessThan(300);
    });
    afterAll(() => sandbox("/__sandbox/faults", { method: "DELETE" }));

    it.concurrent.for(NAMES)("%s", async (name, { expect }) => {
      const res = await open.call(name, EXAMPLES[name]!);
      if (SUCCESS_ON_STATUS[name]?.includes(fault.status)) {
        expect(res.isError, res.text).toBe(false);
        return;
      }
      expect(res.isError, res.text).toBe(true);
      expectActionable(expect, res.text, name);
      expect(res.text).toMatch(fault.says);
    });
  });

  describe("a read-only client", () => {
    it("is offered exactly the tools whose annotations say readOnlyHint", async () => {
      const offered = (await reader.client.listTools()).tools.map((t) => t.name).sort();
      expect(offered).toEqual(
        [...listed]
          .filter(([, t]) => t.annotations?.readOnlyHint === true)
          .map(([n]) => n)
          .sort(),
      );
      expect(offered).toEqual(names(isRead).sort());
    });

    it("cannot call any tool that writes, and nothing reaches upstream", async () => {
      rig.sandbox.clearRequests();
      const writes = names((t) => !isRead(t));
      const refused = await Promise.all(
        writes.map((name) =>
          reader.client.callTool({ name, arguments: EXAMPLES[name] }).then(
            (r) => `${name} answered ${JSON.stringify(r)}`,
            (err: Error) => err.message,
          ),
        ),
      );
      for (const [i, message] of refused.entries()) expect(message, writes[i]).toMatch(new RegExp(`Unknown tool: ${writes[i]}`));
      expect(rig.sandbox.requests()).toEqual([]);
    });

    it("leaves each service as it was (one write of each, checked upstream)", async () => {
      const dc = { authorization: "Bearer sandbox-dc-pat" };
      const title = encodeURIComponent("Read-only page");
      const comments = () =>
        flavour === "cloud"
          ? sandboxJson<{ total: number }>("/rest/api/3/issue/BK-3/comment")
          : sandboxJson<{ total: number }>("/dc/jira/rest/api/2/issue/BK-3/comment", dc);
      const pages = () =>
        flavour === "cloud"
          ? sandboxJson<{ results: unknown[] }>(`/wiki/api/v2/pages?title=${title}`)
          : sandboxJson<{ results: unknown[] }>(`/dc/confluence/rest/api/content?spaceKey=ENG&title=${title}`, dc);
      const prComments = () =>
        flavour === "cloud"
          ? sandboxJson<{ size: number }>(
              "/2.0/repositories/bridgekeeper/api-gateway/pullrequests/12/comments",
              basic("demo", "sandbox-app-password"),
            )
          : sandboxJson<{ size: number }>("/dc/bitbucket/rest/api/1.0/projects/PLAT/repos/api-gateway/pull-requests/12/activities", dc);
      const before = await Promise.all([comments(), pages(), prComments()]);
      for (const [name, args] of [
        ["jira_add_comment", { issueKey: "BK-3", body: "read-only" }],
        ["confluence_create_page", { spaceKey: "ENG", title: "Read-only page", body: "x" }],
        ["bitbucket_comment_pull_request", { repository: "api-gateway", pullRequestId: 12, body: "read-only" }],
      ] as const) {
        await expect(reader.client.callTool({ name, arguments: args })).rejects.toThrow(/Unknown tool/);
      }
      expect(await Promise.all([comments(), pages(), prComments()])).toEqual(before);
      expect(before[1].results).toEqual([]);
    });
  });

  describe("allow-lists naming only what does not exist", () => {
    beforeAll(() => {
      rig.sandbox.reset();
      rig.sandbox.clearRequests();
    });

    it.concurrent.for(NAMES)("%s", async (name, { expect }) => {
      const tool = TOOLS.find((t) => t.name === name)!;
      const res = await fenced.call(name, EXAMPLES[name]!);
      switch (allowListKind(tool)) {
        case "object":
          expect(res.isError, res.text).toBe(true);
          // A board or sprint is placed by a read and refused without naming its project.
          expect(res.text).toMatch(
            placedByRead(tool)
              ? /^Jira (?:board|sprint) \d+ is outside this client's projects \(ZZZ\) or does not exist\. Work within those projects, or ask an administrator\.$/
              : new RegExp(
                  `^This client may not use ${OBJECT_WORDS[tool.service]} \\S+: an administrator limited it to ${tool.service === "bitbucket" ? "nowhere/none" : "ZZZ"}\\. Work within those, or ask an administrator\\.$`,
                ),
          );
          break;
        case "listing": {
          expect(res.isError, res.text).toBe(false);
          // Every list in the answer is empty: nothing from outside the lists.
          const lists = Object.values(res.data as object).filter(Array.isArray);
          expect(lists.length).toBeGreaterThan(0);
          for (const list of lists) expect(list).toEqual([]);
          break;
        }
        case "unscoped":
          expect(res.isError, res.text).toBe(false);
          break;
      }
    });

    it("nothing was written upstream (a refusal may read, such as a page's space or a sprint's board)", () => {
      expect(rig.sandbox.requests().filter((r) => r.method !== "GET" && !READ_POSTS.includes(r.path))).toEqual([]);
    });
  });
});
