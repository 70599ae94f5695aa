// @pglite-only: sandbox
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISSUE_COUNT } from "../jira/seed";
import { startSandbox, type Sandbox } from "../server";
import { DEFAULT_PEOPLE } from "./people";
import { basic, caller } from "./testkit";

/**
 * Jira as a person: their own API token opens the site as them; they see the projects they may
 * browse and nothing else (searches, counts, issues, projects, boards), and what they write is
 * attributed to them. The service account still sees and writes as before.
 */

let sandbox: Sandbox;
const { call } = caller(() => sandbox);
const [priya, marcus] = DEFAULT_PEOPLE as [(typeof DEFAULT_PEOPLE)[0], (typeof DEFAULT_PEOPLE)[0]];
const PRIYA = basic(priya.email, priya.apiToken);
const MARCUS = basic(marcus.email, marcus.apiToken);
const SERVICE = basic("demo@bridgekeeper.test", "sandbox-api-token");
const JQL = encodeURIComponent("project in (BK, OPS, WEB) ORDER BY key ASC");
const doc = (text: string) => ({ type: "doc", version: 1, content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const keysOf = async (auth: string): Promise<string[]> => {
  const res = await call(`/rest/api/3/search/jql?jql=${JQL}&fields=key&maxResults=5000`, { auth });
  expect(res.status).toBe(200);
  expect(res.body.isLast).toBe(true);
  return res.body.issues.map((i: any) => i.key as string);
};
const projectOf = (key: string) => key.split("-")[0]!;

describe("what each person sees in Jira", () => {
  it("answers the same JQL with each person's projects only, and the service account with all of them", async () => {
    const all = await keysOf(SERVICE);
    const mine = await keysOf(PRIYA);
    const his = await keysOf(MARCUS);
    expect(all).toHaveLength(ISSUE_COUNT);
    expect(new Set(mine.map(projectOf))).toEqual(new Set(["BK", "WEB"]));
    expect(new Set(his.map(projectOf))).toEqual(new Set(["OPS"]));
    expect(mine.length + his.length).toBe(all.length);
    expect(mine.filter((k) => his.includes(k))).toEqual([]);
    // The POST search and the approximate count agree, person by person.
    const post = await call("/rest/api/3/search/jql", {
      auth: MARCUS,
      body: { jql: decodeURIComponent(JQL), fields: ["key"], maxResults: 5000 },
    });
    expect(post.body.issues.map((i: any) => i.key)).toEqual(his);
    for (const [auth, expected] of [
      [PRIYA, mine.length],
      [MARCUS, his.length],
      [SERVICE, all.length],
    ] as const) {
      const count = await call("/rest/api/3/search/approximate-count", { auth, body: { jql: "project in (BK, OPS, WEB)" } });
      expect(count.body).toEqual({ count: expected });
    }
  });

  it("answers an issue of a project the person may not browse as Jira does: 404, as if it did not exist", async () => {
    const hidden = await call("/rest/api/3/issue/OPS-1", { auth: PRIYA });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ errorMessages: ["Issue does not exist or you do not have permission to see it."], errors: {} });
    expect((await call("/rest/api/2/issue/OPS-1/comment", { auth: PRIYA })).status).toBe(404);
    expect((await call("/rest/api/3/issue/OPS-1", { auth: MARCUS })).status).toBe(200);
    expect((await call("/rest/api/3/issue/BK-1", { auth: MARCUS })).status).toBe(404);
    expect((await call("/rest/agile/1.0/issue/BK-1", { auth: MARCUS })).status).toBe(404);
  });

  it("lists and opens only browsable projects and boards (the cached answers are each caller's own)", async () => {
    const keys = async (auth: string) => ((await call("/rest/api/3/project", { auth })).body as any[]).map((p) => p.key);
    expect(await keys(SERVICE)).toEqual(["BK", "OPS", "WEB"]);
    expect(await keys(PRIYA)).toEqual(["BK", "WEB"]);
    expect(await keys(MARCUS)).toEqual(["OPS"]);
    expect((await call("/rest/api/3/project/search", { auth: PRIYA })).body).toMatchObject({ total: 2 });
    expect((await call("/rest/api/3/project/OPS", { auth: PRIYA })).status).toBe(404);
    expect((await call("/rest/api/3/project/OPS", { auth: MARCUS })).status).toBe(200);
    const boards = (await call("/rest/agile/1.0/board", { auth: MARCUS })).body;
    expect(boards.values.map((b: any) => b.location.projectKey)).toEqual(["OPS"]);
    const bkBoard = (await call("/rest/agile/1.0/board", { auth: SERVICE })).body.values.find((b: any) => b.location.projectKey === "BK");
    expect((await call(`/rest/agile/1.0/board/${bkBoard.id}/issue`, { auth: MARCUS })).status).toBe(404);
    expect((await call(`/rest/agile/1.0/board/${bkBoard.id}/issue?maxResults=1`, { auth: PRIYA })).body.total).toBeGreaterThan(0);
  });

  it("answers /myself with the person, and currentUser() in JQL is them", async () => {
    const me = await call("/rest/api/3/myself", { auth: PRIYA });
    expect(me.body).toMatchObject({ accountId: priya.accountId, displayName: "Priya Raman", emailAddress: priya.email });
    expect((await call("/rest/api/3/myself", { auth: SERVICE })).body.accountId).toBe(sandbox.credentials.atlassian.accountId);
    const jql = encodeURIComponent("project = BK AND reporter = currentUser()");
    const mine = await call(`/rest/api/3/search/jql?jql=${jql}&fields=reporter&maxResults=100`, { auth: PRIYA });
    expect(mine.body.issues.length).toBeGreaterThan(0);
    expect(mine.body.issues.every((i: any) => i.fields.reporter.accountId === priya.accountId)).toBe(true);
  });

  it("refuses a person's writes outside their projects", async () => {
    const create = await call("/rest/api/3/issue", {
      auth: PRIYA,
      body: { fields: { project: { key: "OPS" }, issuetype: { name: "Task" }, summary: "Not mine" } },
    });
    expect(create.status).toBe(400);
    expect(create.body.errors).toEqual({ project: "Specify a valid project ID or key" });
    expect((await call("/rest/api/3/issue/OPS-2/comment", { auth: PRIYA, body: { body: doc("hi") } })).status).toBe(404);
    expect((await call("/rest/api/3/issue/OPS-2", { method: "PUT", auth: PRIYA, body: { fields: { summary: "x" } } })).status).toBe(404);
    expect((await call("/rest/api/3/issue/OPS-2/transitions", { auth: PRIYA, body: { transition: { id: "21" } } })).status).toBe(404);
    const link = await call("/rest/api/3/issueLink", {
      auth: PRIYA,
      body: { type: { name: "Blocks" }, inwardIssue: { key: "BK-1" }, outwardIssue: { key: "OPS-2" } },
    });
    expect(link.status).toBe(404);
  });
});

describe("what a person writes in Jira is theirs", () => {
  it("attributes an issue, its comment, worklog and changelog to the person, and the service account's to it", async () => {
    const created = await call("/rest/api/3/issue", {
      auth: PRIYA,
      body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "Filed by Priya" } },
    });
    expect(created.status).toBe(201);
    const issue = await call(`/rest/api/3/issue/${created.body.key}`, { auth: PRIYA });
    expect(issue.body.fields.reporter.accountId).toBe(priya.accountId);
    expect(issue.body.fields.creator.accountId).toBe(priya.accountId);

    const comment = await call(`/rest/api/3/issue/${created.body.key}/comment`, { auth: PRIYA, body: { body: doc("From Priya") } });
    expect(comment.status).toBe(201);
    expect(comment.body.author.accountId).toBe(priya.accountId);
    expect(comment.body.updateAuthor.accountId).toBe(priya.accountId);
    const worklog = await call(`/rest/api/3/issue/${created.body.key}/worklog`, { auth: PRIYA, body: { timeSpent: "1h" } });
    expect(worklog.body.author.accountId).toBe(priya.accountId);

    const edit = await call(`/rest/api/3/issue/${created.body.key}`, {
      method: "PUT",
      auth: PRIYA,
      body: { fields: { summary: "Renamed by Priya" } },
    });
    expect(edit.status).toBe(204);
    const changelog = await call(`/rest/api/3/issue/${created.body.key}/changelog`, { auth: PRIYA });
    expect(changelog.body.values).toHaveLength(1);
    expect(changelog.body.values[0].author.accountId).toBe(priya.accountId);

    // The service account's comment on the same issue is still its own.
    const theirs = await call(`/rest/api/3/issue/${created.body.key}/comment`, { auth: SERVICE, body: { body: doc("From the service") } });
    expect(theirs.body.author.accountId).toBe(sandbox.credentials.atlassian.accountId);
    // And Marcus, who may not browse BK, cannot see it at all.
    expect((await call(`/rest/api/3/issue/${created.body.key}`, { auth: MARCUS })).status).toBe(404);
  });
});
