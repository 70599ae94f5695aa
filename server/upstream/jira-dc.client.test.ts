import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { systemClock } from "../lib/clock";
import { jiraText } from "../mcp/tools/markdown/jira-text";
import { UpstreamError } from "./errors";
import { createUpstreamHttp, type UpstreamHttp, type UpstreamTarget } from "./http";
import { createJiraClient, type JiraClient } from "./jira.client";
import { createUpstreamMeter } from "./meter";
import { collect } from "./paginate";

/**
 * The Jira client on a Data Center target, against the sandbox's Data Center flavour over
 * loopback: REST v2 answers in the Cloud shapes the tools read (users carrying their username as
 * accountId, offset search behind the page token), Markdown sent as wiki markup.
 */
describe("Jira client on Data Center", () => {
  let sandbox: Sandbox;
  let http: UpstreamHttp;
  const target = (authorization = "Bearer sandbox-dc-pat"): UpstreamTarget => ({
    baseUrl: sandbox.dataCenter.jira,
    authorization,
    deployment: "datacenter",
  });
  const client = (authorization?: string): JiraClient => createJiraClient(http, async () => target(authorization));
  const dcState = () => sandbox.state("jira", "datacenter");
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error("expected a failure");
      },
      (err: unknown) => err as UpstreamError,
    );

  beforeAll(async () => {
    sandbox = await startSandbox();
    const meter = createUpstreamMeter({ clock: systemClock, hourlyBudget: { atlassian: 100_000, bitbucket: 1000 } });
    http = createUpstreamHttp({ meter, timeoutMs: 10_000, maxAttempts: 1 });
  });
  afterAll(async () => {
    await http.close();
    await sandbox.close();
  });
  beforeEach(() => sandbox.reset());

  const requests = (suffix: string) => sandbox.requests().filter((r) => r.path === `/dc/jira${suffix}`);

  it("speaks REST v2 under the context path: who am I, by username in the accountId", async () => {
    const me = await client().myself();
    expect(me).toMatchObject({ accountId: "demo", displayName: "Demo Admin", emailAddress: "demo@bridgekeeper.test" });
    expect(requests("/rest/api/2/myself")).toHaveLength(1);
    const priya = await client("Bearer sandbox-dc-pat-priya").myself();
    expect(priya.accountId).toBe("priya.raman");
    expect(await client().serverInfo()).toMatchObject({ deploymentType: "DataCenter", version: "10.3.5" });
    expect(await client().projectCount()).toBe(3);
  });

  it("reads an issue in the Cloud shape: wiki description, every user with its username as accountId", async () => {
    const issue = await client().getIssue("BK-1");
    expect(typeof issue.fields.description).toBe("string");
    const reporter = issue.fields.reporter as { accountId: string; name: string };
    expect(reporter.accountId).toBe(reporter.name);
    const comments = (issue.fields.comment as { comments: { author: { accountId: string; name: string } }[] }).comments;
    for (const c of comments) expect(c.author.accountId).toBe(c.author.name);
  });

  it("pages a search by offset through the token, stepping by what the instance gave when it caps the page", async () => {
    const jira = client();
    const first = await jira.searchJql({ jql: "project = BK ORDER BY key ASC", maxResults: 30 });
    expect(first.issues).toHaveLength(30);
    expect(first.isLast).toBe(false);
    expect(first.nextPageToken).toEqual(expect.any(String));
    const second = await jira.searchJql({ jql: "project = BK ORDER BY key ASC", maxResults: 30, nextPageToken: first.nextPageToken! });
    expect(second.issues[0]!.key).not.toBe(first.issues[0]!.key);
    expect(new Set([...first.issues, ...second.issues].map((i) => i.key)).size).toBe(60);

    // An instance whose jira.search.views.default.max is 50 answers 50 of the 80 asked for.
    await jira.serverInfo();
    dcState().dataCenter = { searchMaxResults: 50 };
    const capped = await jira.searchJql({ jql: "project in (BK, OPS, WEB) ORDER BY key ASC", maxResults: 80, fields: ["summary"] });
    expect(capped.issues).toHaveLength(50);
    const next = await jira.searchJql({
      jql: "project in (BK, OPS, WEB) ORDER BY key ASC",
      maxResults: 80,
      fields: ["summary"],
      nextPageToken: capped.nextPageToken!,
    });
    const all = await collect(jira.searchAll("project in (BK, OPS, WEB) ORDER BY key ASC", ["summary"]));
    expect(next.issues.map((i) => i.key)).toEqual(all.slice(50, 100).map((i) => i.key));
    expect(all).toHaveLength(500);
    expect(new Set(all.map((i) => i.key)).size).toBe(500);
  });

  it("pages past 1,000 results: 1,100 matching issues, each once, the last pages starting beyond index 1,000", async () => {
    const jira = client();
    for (let batch = 0; batch < 12; batch++) {
      const created = await jira.createIssues(
        Array.from({ length: 50 }, (_, n) => ({
          fields: { project: { key: "OPS" }, issuetype: { name: "Task" }, summary: `Bulk ${batch * 50 + n}` },
        })),
      );
      expect(created.errors).toEqual([]);
    }
    sandbox.clearRequests();
    const all = await collect(jira.searchAll("project in (BK, OPS, WEB) ORDER BY created ASC, key ASC", ["summary"]));
    expect(all).toHaveLength(1100);
    expect(new Set(all.map((i) => i.key)).size).toBe(1100);
    expect(all.at(-1)!.fields.summary).toBe("Bulk 599");
    expect(requests("/rest/api/2/search")).toHaveLength(11);
  });

  it("refuses a page token it did not give, and reads Jira's 400 for bad JQL", async () => {
    const jira = client();
    const token = await failure(jira.searchJql({ jql: "project = BK", nextPageToken: "eyJvIjo1MH0" }));
    expect(token.kind).toBe("bad_request");
    const jql = await failure(jira.searchJql({ jql: "project = NOPE" }));
    expect(jql).toBeInstanceOf(UpstreamError);
    expect(jql.kind).toBe("bad_request");
    expect(jql.message).toContain("The value 'NOPE' does not exist for the field 'project'");
  });

  it("sends Markdown as wiki markup and users by name: the Data Center state holds what Jira DC stores", async () => {
    const jira = client();
    const created = await jira.createIssue({
      project: { key: "WEB" },
      issuetype: { name: "Task" },
      summary: "Written through the client",
      description: jiraText("Use **bold** and `code`"),
      assignee: { accountId: "priya.raman" },
    });
    const stored = dcState().issuesByKey.get(created.key)!;
    expect(stored.description).toBe("Use *bold* and {{code}}");
    expect(dcState().usersById.get(stored.assigneeId!)!.name).toBe("priya.raman");

    await jira.updateIssue(created.key, {
      fields: { description: jiraText("## Done\n\n- a\n- b"), assignee: { accountId: "marcus.chen" } },
    });
    expect(stored.description).toBe("h2. Done\n\n* a\n* b");
    expect(dcState().usersById.get(stored.assigneeId!)!.name).toBe("marcus.chen");

    const comment = await jira.addComment(created.key, jiraText("_Thanks_"));
    expect(stored.comments.find((c) => c.id === comment.id)!.body).toBe("_Thanks_");
    await jira.addWorklog(created.key, { timeSpentSeconds: 3600, comment: jiraText("Paired on **it**") });
    expect(stored.worklogs.at(-1)!.comment).toBe("Paired on *it*");
    const { transitions } = await jira.getTransitions(created.key);
    await jira.transitionIssue(created.key, transitions[0]!.id, { update: { comment: [{ add: { body: jiraText("Moving on") } }] } });
    expect(stored.comments.at(-1)!.body).toBe("Moving on");
  });

  it("assigns by username, unassigns with null, and explains an unknown username", async () => {
    const jira = client();
    await jira.assignIssue("BK-2", "elena.petrova");
    expect(((await jira.getIssue("BK-2", { fields: ["assignee"] })).fields.assignee as { accountId: string }).accountId).toBe(
      "elena.petrova",
    );
    await jira.assignIssue("BK-2", null);
    expect((await jira.getIssue("BK-2", { fields: ["assignee"] })).fields.assignee).toBeNull();
    const unknown = await failure(jira.assignIssue("BK-2", "nobody.here"));
    expect(unknown.kind).toBe("bad_request");
    expect(unknown.message).toContain("assignee: User 'nobody.here' does not exist.");
  });

  it("lists comments newest first, as the Cloud client does, though Data Center pages them oldest first", async () => {
    const jira = client();
    for (const n of [1, 2, 3, 4, 5]) await jira.addComment("WEB-3", jiraText(`note ${n}`));
    const oldestFirst = (await collect(jira.comments("WEB-3"))).map((c) => String(c.id));
    const first = await jira.commentsPage("WEB-3", 0, 2);
    const second = await jira.commentsPage("WEB-3", 2, 2);
    expect(first.total).toBe(oldestFirst.length);
    expect([...first.comments, ...second.comments].map((c) => String(c.id))).toEqual(oldestFirst.slice(-4).reverse());
    expect(first.comments[0]!.body).toBe("note 5");
    const past = await jira.commentsPage("WEB-3", oldestFirst.length, 2);
    expect(past.comments).toEqual([]);
  });

  it("watchers, users and the create metadata in the Cloud shapes", async () => {
    const jira = client();
    await jira.addWatcher("BK-6", "marcus.chen");
    expect((await jira.watchers("BK-6")).watchers.map((w) => w.accountId)).toContain("marcus.chen");
    await jira.removeWatcher("BK-6", "marcus.chen");
    expect((await jira.watchers("BK-6")).watchers.map((w) => w.accountId)).not.toContain("marcus.chen");

    expect((await jira.searchUsers("priya")).map((u) => u.accountId)).toEqual(["priya.raman"]);
    const assignable = await jira.searchUsers("elena", { assignableTo: { project: "OPS" } });
    expect(assignable.map((u) => u.accountId)).toEqual(["elena.petrova"]);

    const { issueTypes } = await jira.createMetaIssueTypes("BK");
    const bug = issueTypes.find((t) => t.name === "Bug")!;
    const page = await jira.createMetaFields("BK", bug.id, 0, 5);
    expect(page.fields).toHaveLength(5);
    expect(page.fields[0]).toMatchObject({ fieldId: "summary", required: true });
    expect(page.total).toBeGreaterThan(5);
    expect((await jira.editMeta("BK-1")).fields.summary).toMatchObject({ required: true });
  });

  it("uploads an attachment and reads its text from the content URL under the base URL, within maxBytes", async () => {
    const jira = client();
    const [added] = await jira.addAttachment("BK-7", {
      filename: "readme.txt",
      mimeType: "text/plain",
      data: new TextEncoder().encode("0123456789abcdef"),
    });
    expect(added!.content).toBe(`${sandbox.dataCenter.jira}/secure/attachment/${added!.id}/readme.txt`);
    expect((added!.author as { accountId: string }).accountId).toBe("demo");
    expect(await jira.attachmentText(String(added!.id), 10)).toBe("0123456789");
    expect(await jira.attachmentText(String(added!.id), 100)).toBe("0123456789abcdef");
    expect(requests(`/secure/attachment/${added!.id}/readme.txt`)).toHaveLength(2);
  });

  it("Agile: boards, sprints and a sprint's issues with Data Center users made Cloud-shaped", async () => {
    const jira = client();
    const boards = await collect(jira.boards("BK"));
    const [active] = await collect(jira.sprints(boards[0]!.id, "active"));
    const issues = await collect(jira.sprintIssues(active!.id));
    const assigned = issues.find((i) => i.fields.assignee) ?? issues[0]!;
    const assignee = assigned.fields.assignee as { accountId: string; name: string } | null;
    if (assignee) expect(assignee.accountId).toBe(assignee.name);
    const projects = await collect(jira.projects());
    expect(projects.map((p) => p.key)).toEqual(["BK", "OPS", "WEB"]);
  });

  it("a person's token sees only their projects; a wrong token is a 401; an unknown issue a 404", async () => {
    const priya = client("Bearer sandbox-dc-pat-priya");
    const seen = await collect(priya.searchAll("ORDER BY key ASC", ["summary"]));
    expect([...new Set(seen.map((i) => i.key.split("-")[0]))].sort()).toEqual(["BK", "WEB"]);
    expect((await failure(priya.getIssue("OPS-1"))).kind).toBe("not_found");
    expect((await collect(priya.projects())).map((p) => p.key)).toEqual(["BK", "WEB"]);
    expect((await failure(client("Bearer not-a-token").myself())).kind).toBe("unauthorized");
    const missing = await failure(client().getIssue("BK-99999"));
    expect(missing.kind).toBe("not_found");
    expect(missing.message).toContain("Issue does not exist");
  });
});
