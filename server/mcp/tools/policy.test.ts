import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientPolicySchema, OPEN_POLICY, TOOLSET_NAMES, type ClientPolicyInput } from "../../../contract/policy";
import type { OAuthClientDto } from "../../../contract/oauth";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { signedInAs } from "../../test/factories";
import { listenForToolChanges, mcpClient, modernRpc, startMcpRig, type McpRig } from "../mcp.test-rig";
import { TOOLS } from "./catalogue";
import { allowedSlugs, constrainCql, constrainJql, issueInProjects, repositoryAllowed, withoutOutsideIssues } from "./policy";
import { closeToolTest } from "./tool-test-kit";

const policy = (p: ClientPolicyInput = {}) => ClientPolicySchema.parse(p);

describe("client policy: the pieces", () => {
  it("withoutOutsideIssues: issues an extra field embeds are cut to their key outside the projects (issue 24 item 5)", () => {
    const links = [
      {
        id: "1",
        type: { name: "Blocks" },
        outwardIssue: { id: "9", key: "OPS-49", fields: { summary: "Secret outage", status: { name: "Open" } } },
      },
      { id: "2", type: { name: "Relates" }, inwardIssue: { id: "8", key: "BK-2", fields: { summary: "Visible" } } },
    ];
    const held = JSON.stringify(withoutOutsideIssues(links, policy({ jiraProjects: ["BK"] })));
    expect(held).toContain('"outwardIssue":{"key":"OPS-49","outside":true}');
    expect(held).not.toContain("Secret outage");
    expect(held).toContain("Visible");
    expect(withoutOutsideIssues(links, policy({}))).toBe(links);
  });

  // The top-level ORDER BY stays after the wrapper; spacing is written back as single spaces.
  it.each([
    ["project = BK ORDER BY key", "project = BK", "ORDER BY key"],
    ["status = Done order   by updated DESC", "status = Done", "order by updated DESC"],
    ['summary ~ "order by" AND x = 1', 'summary ~ "order by" AND x = 1', ""],
    ["(a = 1 ORDER BY b) OR c = 2", "(a = 1 ORDER BY b) OR c = 2", ""],
    ["ORDER BY created", "", "ORDER BY created"],
    ["reorder = 1", "reorder = 1", ""],
  ])("keeps the ORDER BY of %j outside the wrapper", (query, where, orderBy) => {
    const held = constrainJql(query, policy({ jiraProjects: ["BK"] }));
    expect(held).toBe([where ? `project in ("BK") AND (${where})` : 'project in ("BK")', orderBy].filter(Boolean).join(" "));
  });

  it("wraps JQL and CQL in the allowed keys, keeping the order; no list, no change", () => {
    expect(constrainJql("status = Done OR assignee = currentUser() ORDER BY key", policy({ jiraProjects: ["bk", "OPS", "BK"] }))).toBe(
      'project in ("BK", "OPS") AND (status = Done OR assignee = currentUser()) ORDER BY key',
    );
    expect(constrainJql("ORDER BY key", policy({ jiraProjects: ["BK"] }))).toBe('project in ("BK") ORDER BY key');
    // A model cannot break out of the clause: a query that closes a parenthesis it never opened, or leaves one open, is refused.
    for (const escape of ["x = 1) OR (project = SECRET", "x = 1) OR project = SECRET OR (y = 2", "(x = 1", 'summary ~ "open']) {
      expect(() => constrainJql(escape, policy({ jiraProjects: ["BK"] }))).toThrow(/do not balance/);
    }
    expect(constrainJql('summary ~ "a) OR (b"', policy({ jiraProjects: ["BK"] }))).toBe('project in ("BK") AND (summary ~ "a) OR (b")');
    expect(constrainCql('type = page AND text ~ "x"', policy({ confluenceSpaces: ["ENG"] }))).toBe(
      'space in ("ENG") AND (type = page AND text ~ "x")',
    );
    expect(constrainJql("project = X", OPEN_POLICY)).toBe("project = X");
  });

  it("repository entries name a slug anywhere, or a workspace's slug", () => {
    const p = policy({ bitbucketRepositories: ["api-gateway", "acme/billing"] });
    expect(repositoryAllowed(p, "bridgekeeper", "api-gateway")).toBe(true);
    expect(repositoryAllowed(p, "acme", "billing")).toBe(true);
    expect(repositoryAllowed(p, "bridgekeeper", "billing")).toBe(false);
    expect(repositoryAllowed(OPEN_POLICY, "x", "y")).toBe(true);
    expect(allowedSlugs(p, "Acme")).toEqual(["api-gateway", "billing"]);
    expect(allowedSlugs(p, "bridgekeeper")).toEqual(["api-gateway"]);
    expect(allowedSlugs(OPEN_POLICY, "acme")).toBeNull();
  });

  it("repositoryAllowed: `workspace/*` allows every repository of that workspace or Data Center project, and none elsewhere (issue 28)", () => {
    const p = policy({ bitbucketRepositories: ["PLAT/*", "~priya.raman/notes", "web-frontend"] });
    expect(repositoryAllowed(p, "plat", "api-gateway")).toBe(true);
    expect(repositoryAllowed(p, "PLAT", "anything-new")).toBe(true);
    expect(allowedSlugs(p, "PLAT")).toBeNull();
    expect(repositoryAllowed(p, "DATA", "etl-pipelines")).toBe(false);
    expect(repositoryAllowed(p, "DATA", "web-frontend")).toBe(true);
    expect(repositoryAllowed(p, "~priya.raman", "notes")).toBe(true);
    expect(repositoryAllowed(p, "~marcus.chen", "notes")).toBe(false);
    expect(ClientPolicySchema.safeParse({ bitbucketRepositories: ["*"] }).success).toBe(false);
    expect(ClientPolicySchema.safeParse({ bitbucketRepositories: ["a/b/c"] }).success).toBe(false);
  });

  it("issueInProjects: an issue key's project is in the list; no list holds every issue, a key naming no project none", () => {
    const p = policy({ jiraProjects: ["BK"] });
    expect(issueInProjects(p, "bk-12")).toBe(true);
    expect(issueInProjects(p, "OPS-1")).toBe(false);
    expect(issueInProjects(p, "10042")).toBe(false);
    expect(issueInProjects(OPEN_POLICY, "OPS-1")).toBe(true);
  });

  it("refuses bad policies with field messages", () => {
    const bad = ClientPolicySchema.safeParse({ readOnly: "yes", toolsets: ["jira-everything"], jiraProjects: ["not a key"], extra: 1 });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join(".") || i.code);
    expect(paths).toEqual(expect.arrayContaining(["readOnly", "toolsets.0", "jiraProjects.0"]));
  });
});

/**
 * The policy API and its enforcement, through a real MCP client against the sandbox: one open
 * client to look around, one restricted client whose policy each test sets.
 */
describe("client policy: set by an administrator, enforced on every tool", () => {
  let rig: McpRig;
  let restricted: OAuthClientDto;
  let mcp: Awaited<ReturnType<typeof mcpClient>>;
  let token: string;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    restricted = await createClient(rig, { name: "Restricted client" });
    token = await rig.token("read write", restricted);
    mcp = await mcpClient(rig, token, "policy-test");
  });
  afterAll(() => closeToolTest(rig, mcp));

  const setPolicy = async (p: ClientPolicyInput) => {
    const res = await rig.admin.put(`/api/admin/oauth-clients/${restricted.clientId}/policy`, p);
    expect(res.status).toBe(200);
  };
  // Raw, not the SDK client: it keeps a tools/list answer for its ttlMs (a listener would hear list_changed).
  const names = async () =>
    ((await modernRpc(rig.baseUrl, token, "tools/list")).json.result.tools as { name: string }[]).map((t) => t.name);
  const call = (name: string, args: Record<string, unknown>) => mcp.call(name, args);

  it("the API: read and set by those allowed, bad input refused with field messages, audited", async () => {
    const path = `/api/admin/oauth-clients/${restricted.clientId}/policy`;
    expect((await rig.admin.get(path)).body).toEqual(OPEN_POLICY);
    const set = await rig.admin.put(path, { readOnly: true, jiraProjects: ["bk"] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ ...OPEN_POLICY, readOnly: true, jiraProjects: ["BK"] });
    expect((await rig.admin.get(path)).body).toEqual(set.body);
    // The console's client list carries it too (the card's Policy section).
    const listed = (await rig.admin.get<{ clientId: string; policy: unknown }[]>("/api/admin/oauth-clients")).body.find(
      (c) => c.clientId === restricted.clientId,
    );
    expect(listed?.policy).toEqual(set.body);

    const bad = await rig.admin.put(path, { toolsets: ["nope"], bitbucketRepositories: "api-gateway" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/toolsets/);
    expect((await rig.admin.get(path)).body).toEqual(set.body);

    expect((await rig.admin.put("/api/admin/oauth-clients/bk_nope/policy", {})).status).toBe(404);
    const viewer = (await signedInAs(rig.t, ["viewer"])).client;
    expect((await viewer.get(path)).status).toBe(200);
    expect((await viewer.put(path, {})).status).toBe(403);
    expect(
      (await fetch(`${rig.baseUrl}${path}`, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" })).status,
    ).toBe(401);

    const audit = await rig.admin.get<{ items: { action: string; targetId: string }[] }>(
      "/api/admin/audit?action=oauth_client.policy_changed",
    );
    expect(JSON.stringify(audit.body)).toContain(restricted.clientId);
    await setPolicy({});
  });

  it("read-only, toolsets and switched-off tools shape the tool list, and what is not listed cannot be called", async () => {
    const all = await names();
    expect(all).toContain("jira_create_issue");
    await setPolicy({ readOnly: true });
    expect(await names()).toEqual(all.filter((n) => TOOLS.find((t) => t.name === n)!.scope === "read"));
    await expect(mcp.client.callTool({ name: "jira_add_comment", arguments: { issueKey: "BK-1", body: "x" } })).rejects.toThrow(
      /Unknown tool/,
    );

    await setPolicy({ toolsets: ["confluence-pages"], disabledTools: ["confluence_get_page"] });
    expect(await names()).toEqual(
      TOOLS.filter((t) => t.toolset === "confluence-pages" && t.name !== "confluence_get_page").map((t) => t.name),
    );
    expect(await names()).toContain("confluence_search");
    await setPolicy({});
    expect(await names()).toEqual(all);
  });

  it("a Jira project list constrains searches and refuses issues and projects outside it", async () => {
    const projects = (await call("jira_list_projects", {})).data.projects as unknown as { key: string }[];
    const other = projects.map((p) => p.key).find((k) => k !== "BK")!;
    expect(other).toBeDefined();
    await setPolicy({ toolsets: TOOLSET_NAMES }); // the boards (jira-agile) are not in the default set
    const otherBoard = ((await call("jira_list_boards", { projectKey: other })).data.boards as unknown as { id: number }[])[0]!;
    const otherSprint = ((await call("jira_list_sprints", { boardId: otherBoard.id })).data.sprints as unknown as { id: number }[])[0]!;
    const bkBoard = ((await call("jira_list_boards", { projectKey: "BK" })).data.boards as unknown as { id: number }[])[0]!;
    const bkSprint = ((await call("jira_list_sprints", { boardId: bkBoard.id })).data.sprints as unknown as { id: number }[])[0]!;
    await setPolicy({ toolsets: TOOLSET_NAMES, jiraProjects: ["BK"] });
    const boards = (await call("jira_list_boards", {})).data.boards as unknown as { project: string }[];
    expect(boards.length).toBeGreaterThan(0);
    expect(boards.every((b) => b.project === "BK")).toBe(true);
    const sprints = await call("jira_list_sprints", { boardId: otherBoard.id });
    expect(sprints.isError).toBe(true);
    expect(sprints.text).toBe(
      `Jira board ${otherBoard.id} is outside this client's projects (BK) or does not exist. Work within those projects, or ask an administrator.`,
    );
    // A sprint is placed by its board: another project's sprint is refused, not answered as empty.
    const otherIssues = await call("jira_get_sprint_issues", { sprintId: otherSprint.id });
    expect(otherIssues.isError).toBe(true);
    expect(otherIssues.text).toBe(
      `Jira sprint ${otherSprint.id} is outside this client's projects (BK) or does not exist. Work within those projects, or ask an administrator.`,
    );
    const bkIssues = await call("jira_get_sprint_issues", { sprintId: bkSprint.id });
    expect(bkIssues.isError, bkIssues.text).toBe(false);
    expect((bkIssues.data.issues as unknown as { key: string }[]).every((i) => i.key.startsWith("BK-"))).toBe(true);

    const search = await call("jira_search", { jql: `project in (BK, ${other}) ORDER BY created DESC`, maxResults: 50 });
    const keys = (search.data.issues as unknown as { key: string }[]).map((i) => i.key);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith("BK-"))).toBe(true);
    expect((await call("jira_search", { jql: `project = ${other}` })).data.issues).toHaveLength(0);

    for (const [tool, args] of [
      ["jira_get_issue", { issueKey: `${other}-1` }],
      ["jira_add_comment", { issueKey: `${other}-1`, body: "hi" }],
      ["jira_create_issue", { projectKey: other, summary: "outside" }],
      ["jira_transition_issue", { issueKey: `${other}-1`, transition: "Done" }],
    ] as const) {
      const res = await call(tool, args);
      expect(res.isError, tool).toBe(true);
      expect(res.text).toMatch(new RegExp(`may not use the Jira project ${other}: an administrator limited it to BK`));
    }
    expect((await call("jira_get_issue", { issueKey: "BK-1" })).isError).toBe(false);
    expect((await call("jira_list_projects", {})).data.projects).toEqual([expect.objectContaining({ key: "BK" })]);
    await setPolicy({});
  });

  it("JQL and CQL escape forms cannot leave the lists: refused, never answered from another project or space", async () => {
    const projects = (await call("jira_list_projects", {})).data.projects as unknown as { key: string }[];
    const other = projects.map((p) => p.key).find((k) => k !== "BK")!;
    await setPolicy({ toolsets: TOOLSET_NAMES });
    const bkBoard = ((await call("jira_list_boards", { projectKey: "BK" })).data.boards as unknown as { id: number }[])[0]!;
    const sandboxAuth = { authorization: `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}` };
    const spaces = (
      (await (await fetch(`${rig.sandbox.url}/wiki/api/v2/spaces?limit=10`, { headers: sandboxAuth })).json()) as {
        results: { key: string }[];
      }
    ).results;
    const [space, outside] = spaces.map((s) => s.key);
    await setPolicy({ toolsets: TOOLSET_NAMES, jiraProjects: ["BK"], confluenceSpaces: [space!] });

    // Jira's lexer reads `a\"` outside quotes as the word a" (an escaped quote), so the `)` after it
    // would close the clause the query is wrapped in; the sandbox reads it the same way.
    const jql = String.raw`labels = a\") OR project = ${other} OR (labels = "b\"c"`;
    for (const [tool, args] of [
      ["jira_search", { jql, maxResults: 50 }],
      ["jira_get_board_issues", { boardId: bkBoard.id, jql }],
    ] as const) {
      const res = await call(tool, args);
      expect(res.isError, tool).toBe(true);
      expect(res.text).toMatch(/parentheses do not balance.*Fix the query and try again/);
    }
    // An escape that stays inside still searches, sent as a string Bridgekeeper wrote itself.
    const inside = await call("jira_search", {
      jql: String.raw`labels = a\"b OR summary ~ "\"memory leak\"" ORDER BY key`,
      maxResults: 50,
    });
    expect(inside.isError, inside.text).toBe(false);
    expect((inside.data.issues as { key: string }[]).every((i) => i.key.startsWith("BK-"))).toBe(true);

    const cql = String.raw`type = page AND (label = a\") OR space = ${outside} OR (label = "b\"c")`;
    const found = await call("confluence_search", { cql, limit: 50 });
    expect(found.isError).toBe(true);
    expect(found.text).toMatch(/backslash outside a quoted string/);
    await setPolicy({});
  });

  it("a Jira project list naming a project Jira does not have: searches keep to the listed projects Jira has", async () => {
    // Jira refuses a whole JQL query that names a project it does not have.
    await setPolicy({ toolsets: TOOLSET_NAMES, jiraProjects: ["BK", "GONE"] });
    const search = await call("jira_search", { jql: "ORDER BY key ASC", maxResults: 50 });
    expect(search.isError, search.text).toBe(false);
    const keys = (search.data.issues as unknown as { key: string }[]).map((i) => i.key);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith("BK-"))).toBe(true);
    const children = await call("jira_get_epic_children", { epicKey: "BK-2" });
    expect(children.isError, children.text).toBe(false);
    expect((children.data.issues as unknown as { key: string }[]).length).toBeGreaterThan(0);
    // A project the model's own query names is still Jira's to refuse.
    expect((await call("jira_search", { jql: "project = NOPE" })).text).toMatch(
      /refused the request as invalid \(400\): The value 'NOPE' does not exist for the field 'project'\. Fix/,
    );

    await setPolicy({ toolsets: TOOLSET_NAMES, jiraProjects: ["GONE"] });
    const none = await call("jira_search", { jql: "ORDER BY key ASC" });
    expect(none).toMatchObject({ isError: false, text: "No issues match: ORDER BY key ASC" });
    expect(none.data.issues).toEqual([]);
    await setPolicy({});
  });

  it("Confluence spaces and Bitbucket repositories: listings filtered, reads outside refused", async () => {
    const sandboxAuth = { authorization: `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}` };
    const spaces = (
      (await (await fetch(`${rig.sandbox.url}/wiki/api/v2/spaces?limit=10`, { headers: sandboxAuth })).json()) as {
        results: { id: string; key: string; homepageId?: string }[];
      }
    ).results;
    const [allowed, outside] = spaces;
    await setPolicy({ confluenceSpaces: [allowed!.key], bitbucketRepositories: ["api-gateway"] });

    const found = await call("confluence_search", { cql: "type = page", limit: 25 });
    expect(found.isError).toBe(false);
    const pageIds = (found.data.results as unknown as { id: string }[]).map((r) => r.id);
    expect(pageIds.length).toBeGreaterThan(0);
    const inside = await call("confluence_get_page", { pageId: pageIds[0] });
    expect(inside.isError).toBe(false);
    const refused = await call("confluence_get_page", { pageId: String(outside!.homepageId) });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/may not use the Confluence space/);

    const repos = await call("bitbucket_list_repositories", { maxResults: 50 });
    expect((repos.data.repositories as unknown as { slug: string }[]).map((r) => r.slug)).toEqual(["api-gateway"]);
    const pr = await call("bitbucket_get_pull_request", { repository: "auth-service", pullRequestId: 1 });
    expect(pr.isError).toBe(true);
    expect(pr.text).toMatch(/may not use the Bitbucket repository bridgekeeper\/auth-service/);
    await setPolicy({});
  });

  it("a policy change is announced: subscriptions/listen hears tools/list_changed", async () => {
    const listen = await listenForToolChanges(rig.baseUrl, token);
    expect(listen.status).toBe(200);
    await listen.waitFor("notifications/subscriptions/acknowledged");
    await setPolicy({ readOnly: true });
    await listen.waitFor("notifications/tools/list_changed");
    await listen.close();
    await setPolicy({});
  });

  it("the raw proxy paths are refused (403) to a client under allow-lists, and open again without", async () => {
    const get = () => fetch(`${rig.baseUrl}/api/atlassian/jira/rest/api/3/myself`, { headers: { authorization: `Bearer ${token}` } });
    expect((await get()).status).toBe(200);
    await setPolicy({ jiraProjects: ["BK"] });
    const refused = await get();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/use the MCP tools/);
    await setPolicy({ toolsets: ["bitbucket-prs"] });
    expect((await get()).status).toBe(403);
    await setPolicy({});
    expect((await get()).status).toBe(200);
  });
});
