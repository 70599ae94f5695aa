import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { adfToWiki } from "./adf";
import type { Adf } from "./model";

/**
 * The Jira Data Center flavour over HTTP (`/dc/jira/…`): REST v2 with users by username, wiki
 * markup stored as written, offset search, the paged create metadata, the attachment servlet,
 * and a person's token seeing only their projects.
 */

let sandbox: Sandbox;
const SERVICE = "Bearer sandbox-dc-pat";
const PRIYA = "Bearer sandbox-dc-pat-priya";

type Answer = { status: number; body: any; text: string; headers: Headers };

async function dc(path: string, init: { method?: string; body?: unknown; auth?: string | null; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  if (init.auth !== null) headers.authorization = init.auth ?? SERVICE;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${sandbox.dataCenter.jira}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, headers: res.headers } as Answer;
}

const dcState = () => sandbox.state("jira", "datacenter");

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

describe("Jira DC: identity and server info", () => {
  it("serverInfo says Data Center 10.3.5 at the context path; the cloud's v2 serverInfo says Cloud", async () => {
    const info = await dc("/rest/api/2/serverInfo");
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      baseUrl: sandbox.dataCenter.jira,
      version: "10.3.5",
      versionNumbers: [10, 3, 5],
      deploymentType: "DataCenter",
      serverTitle: "Jira",
    });
    expect(typeof info.body.buildNumber).toBe("number");
    expect(info.body.serverTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const { email, apiToken } = sandbox.credentials.atlassian;
    const cloud = await fetch(`${sandbox.url}/rest/api/2/serverInfo`, {
      headers: { authorization: `Basic ${Buffer.from(`${email}:${apiToken}`).toString("base64")}` },
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
    expect(cloud).toMatchObject({ deploymentType: "Cloud", baseUrl: sandbox.url });
  });

  it("myself is the service account by username and key, with no account id", async () => {
    for (const auth of [SERVICE, `Basic ${Buffer.from("demo:sandbox-dc-password").toString("base64")}`]) {
      const me = await dc("/rest/api/2/myself", { auth });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ name: "demo", displayName: "Demo Admin", emailAddress: "demo@bridgekeeper.test", active: true });
      expect(me.body.key).toMatch(/^JIRAUSER\d+$/);
      expect(me.body).not.toHaveProperty("accountId");
      expect(me.body.self).toBe(`${sandbox.dataCenter.jira}/rest/api/2/user?username=demo`);
    }
    const priya = await dc("/rest/api/2/myself", { auth: PRIYA });
    expect(priya.body).toMatchObject({ name: "priya.raman", displayName: "Priya Raman" });
  });

  it("refuses missing or wrong credentials with 401 in Jira's error body", async () => {
    for (const auth of [null, "Bearer sandbox-bearer-token", `Basic ${Buffer.from("demo:wrong").toString("base64")}`]) {
      const res = await dc("/rest/api/2/myself", { auth });
      expect(res.status).toBe(401);
      expect(res.body.errorMessages).toEqual([expect.any(String)]);
    }
  });

  it("has no v3 and none of the cloud's enhanced search", async () => {
    expect((await dc("/rest/api/3/myself")).status).toBe(404);
    expect((await dc("/rest/api/2/search/jql", { body: { jql: "project = BK" } })).status).toBe(404);
    expect((await dc("/rest/api/2/project/search")).status).toBe(404);
  });
});

describe("Jira DC: issues in REST v2 shapes", () => {
  it("an issue's description and comments are wiki markup, its people usernames, its links under the context path", async () => {
    const cloudIssue = sandbox.state("jira").issuesByKey.get("BK-1")!;
    const res = await dc("/rest/api/2/issue/BK-1");
    expect(res.status).toBe(200);
    expect(res.body.self).toBe(`${sandbox.dataCenter.jira}/rest/api/2/issue/${cloudIssue.id}`);
    expect(res.body.fields.description).toBe(adfToWiki(cloudIssue.description));
    const reporter = sandbox.state("jira").usersById.get(cloudIssue.reporterId)!;
    expect(res.body.fields.reporter).toMatchObject({ name: reporter.name, displayName: reporter.displayName });
    expect(res.body.fields.reporter).not.toHaveProperty("accountId");
    for (const c of res.body.fields.comment.comments) expect(typeof c.body).toBe("string");
    expect(res.body.fields.attachment[0].content).toMatch(new RegExp(`^${sandbox.dataCenter.jira}/secure/attachment/\\d+/`));
  });

  it("stores what it is written as wiki markup, finds it by text, and shows it as written", async () => {
    const wiki = "h2. Context\n\nThe *quokka* service needs a {{retry}}.\n\n* one\n* two";
    const created = await dc("/rest/api/2/issue", {
      body: {
        fields: {
          project: { key: "BK" },
          issuetype: { name: "Task" },
          summary: "Wiki from Data Center",
          description: wiki,
          assignee: { name: "priya.raman" },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.self).toBe(`${sandbox.dataCenter.jira}/rest/api/2/issue/${created.body.id}`);
    const stored = dcState().issuesByKey.get(created.body.key)!;
    expect(stored.description).toBe(wiki);
    expect(sandbox.state("jira").issuesByKey.get(created.body.key)).toBeUndefined();
    const read = await dc(`/rest/api/2/issue/${created.body.key}?fields=description,assignee`);
    expect(read.body.fields.description).toBe(wiki);
    expect(read.body.fields.assignee.name).toBe("priya.raman");
    const found = await dc("/rest/api/2/search", { body: { jql: 'text ~ "quokka" AND assignee = priya.raman', fields: ["summary"] } });
    expect(found.body.issues.map((i: { key: string }) => i.key)).toEqual([created.body.key]);
  });

  it("a bad create reads as Jira's errors by field, an unknown issue as 404", async () => {
    const bad = await dc("/rest/api/2/issue", { body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.summary).toBe("You must specify a summary of the issue.");
    const nobody = await dc("/rest/api/2/issue", {
      body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "x", assignee: { accountId: "priya.raman" } } },
    });
    expect(nobody.status).toBe(400);
    expect(nobody.body.errors.assignee).toBe("User '' does not exist.");
    const missing = await dc("/rest/api/2/issue/BK-99999");
    expect(missing.status).toBe(404);
    expect(missing.body.errorMessages[0]).toContain("Issue does not exist");
  });

  it("assigns by username, unassigns with null, and refuses an unknown username", async () => {
    expect((await dc("/rest/api/2/issue/BK-2/assignee", { method: "PUT", body: { name: "marcus.chen" } })).status).toBe(204);
    const marcus = dcState().users.find((u) => u.name === "marcus.chen")!;
    expect(dcState().issuesByKey.get("BK-2")!.assigneeId).toBe(marcus.accountId);
    expect((await dc("/rest/api/2/issue/BK-2/assignee", { method: "PUT", body: { name: null } })).status).toBe(204);
    expect(dcState().issuesByKey.get("BK-2")!.assigneeId).toBeNull();
    const unknown = await dc("/rest/api/2/issue/BK-2/assignee", { method: "PUT", body: { name: "nobody.here" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ assignee: "User 'nobody.here' does not exist." });
    // The cloud's body is not Data Center's.
    const cloudBody = await dc("/rest/api/2/issue/BK-2/assignee", { method: "PUT", body: { accountId: marcus.accountId } });
    expect(cloudBody.status).toBe(400);
  });

  it("comments: wiki kept as written, oldest first whatever orderBy says, total and startAt", async () => {
    const added = await dc("/rest/api/2/issue/BK-3/comment", { body: { body: "Looks *good* to me" } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ body: "Looks *good* to me", author: { name: "demo" } });
    const issue = dcState().issuesByKey.get("BK-3")!;
    expect(issue.comments.at(-1)!.body).toBe("Looks *good* to me");
    const page = await dc("/rest/api/2/issue/BK-3/comment?orderBy=-created&startAt=0&maxResults=100");
    expect(page.body.total).toBe(issue.comments.length);
    expect(page.body.comments.at(-1).id).toBe(added.body.id);
    const empty = await dc("/rest/api/2/issue/BK-3/comment", { body: { body: "" } });
    expect(empty.status).toBe(400);
  });

  it("a transition with a comment stores the comment as wiki", async () => {
    const { transitions } = (await dc("/rest/api/2/issue/BK-4/transitions")).body as { transitions: { id: string; name: string }[] };
    const go = transitions[0]!;
    const res = await dc("/rest/api/2/issue/BK-4/transitions", {
      body: { transition: { id: go.id }, update: { comment: [{ add: { body: "Moved by _script_" } }] } },
    });
    expect(res.status, res.text).toBe(204);
    expect(dcState().issuesByKey.get("BK-4")!.comments.at(-1)!.body).toBe("Moved by _script_");
  });

  it("watchers by username: a JSON string to add, ?username= to remove, 404 for nobody", async () => {
    expect((await dc("/rest/api/2/issue/BK-5/watchers", { body: "elena.petrova" })).status).toBe(204);
    const watchers = await dc("/rest/api/2/issue/BK-5/watchers");
    expect(watchers.body.watchers.map((w: { name: string }) => w.name)).toContain("elena.petrova");
    expect((await dc("/rest/api/2/issue/BK-5/watchers?username=elena.petrova", { method: "DELETE" })).status).toBe(204);
    const after = await dc("/rest/api/2/issue/BK-5/watchers");
    expect(after.body.watchers.map((w: { name: string }) => w.name)).not.toContain("elena.petrova");
    expect((await dc("/rest/api/2/issue/BK-5/watchers", { body: "nobody.here" })).status).toBe(404);
    expect((await dc("/rest/api/2/issue/BK-5/watchers", { method: "DELETE" })).status).toBe(400);
  });
});

describe("Jira DC: search by offset", () => {
  const keys = (r: Answer) => r.body.issues.map((i: { key: string }) => i.key) as string[];

  it("pages by startAt with a total, GET and POST alike", async () => {
    const first = await dc("/rest/api/2/search", { body: { jql: "project = BK ORDER BY key ASC", maxResults: 20, fields: ["summary"] } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ startAt: 0, maxResults: 20, total: expect.any(Number) });
    expect(first.body.issues).toHaveLength(20);
    const second = await dc(`/rest/api/2/search?jql=${encodeURIComponent("project = BK ORDER BY key ASC")}&startAt=20&maxResults=20`);
    expect(second.body.startAt).toBe(20);
    expect(keys(second).some((k) => keys(first).includes(k))).toBe(false);
    const past = await dc("/rest/api/2/search", { body: { jql: "project = BK", startAt: 100_000 } });
    expect(past.body.issues).toEqual([]);
  });

  it("caps a page at the instance's limit and says so in maxResults", async () => {
    await dc("/rest/api/2/serverInfo");
    dcState().dataCenter = { searchMaxResults: 50 };
    const page = await dc("/rest/api/2/search", { body: { jql: "project in (BK, OPS, WEB)", maxResults: 200, fields: ["summary"] } });
    expect(page.body.maxResults).toBe(50);
    expect(page.body.issues).toHaveLength(50);
    expect(page.body.total).toBe(500);
  });

  it("refuses bad JQL and a negative startAt with Jira's 400", async () => {
    const bad = await dc("/rest/api/2/search", { body: { jql: "project = NOPE" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessages[0]).toContain("NOPE");
    expect((await dc("/rest/api/2/search", { body: { jql: "project = BK", startAt: -1 } })).status).toBe(400);
  });

  it("a person's token finds only the projects they may browse", async () => {
    const all = await dc("/rest/api/2/search", { auth: PRIYA, body: { jql: "ORDER BY key", maxResults: 1000, fields: ["project"] } });
    const projects = new Set(all.body.issues.map((i: { key: string }) => i.key.split("-")[0]));
    expect([...projects].sort()).toEqual(["BK", "WEB"]);
    expect((await dc("/rest/api/2/issue/OPS-1", { auth: PRIYA })).status).toBe(404);
    expect((await dc("/rest/api/2/issue/BK-1", { auth: PRIYA })).status).toBe(200);
  });
});

describe("Jira DC: users, metadata, attachments, boards", () => {
  it("finds users by username, name or email; assignable ones of a project the caller may browse", async () => {
    const found = await dc("/rest/api/2/user/search?username=pri");
    expect(found.body.map((u: { name: string }) => u.name)).toContain("priya.raman");
    expect((await dc("/rest/api/2/user/search")).status).toBe(400);
    const one = await dc("/rest/api/2/user?username=marcus.chen");
    expect(one.body).toMatchObject({ name: "marcus.chen", displayName: "Marcus Chen" });
    expect((await dc("/rest/api/2/user?username=nobody.here")).status).toBe(404);
    const assignable = await dc("/rest/api/2/user/assignable/search?username=elena&project=BK");
    expect(assignable.body.map((u: { name: string }) => u.name)).toEqual(["elena.petrova"]);
    expect((await dc("/rest/api/2/user/assignable/search?username=elena")).status).toBe(400);
    expect((await dc("/rest/api/2/user/assignable/search?username=elena&project=OPS", { auth: PRIYA })).status).toBe(404);
  });

  it("create metadata comes in 8.4's pages: {maxResults, startAt, total, isLast, values}", async () => {
    const types = await dc("/rest/api/2/issue/createmeta/BK/issuetypes");
    expect(types.body).toMatchObject({ startAt: 0, isLast: true, total: expect.any(Number) });
    expect(types.body).not.toHaveProperty("issueTypes");
    const bug = types.body.values.find((t: { name: string }) => t.name === "Bug");
    const fields = await dc(`/rest/api/2/issue/createmeta/BK/issuetypes/${bug.id}?maxResults=3`);
    expect(fields.body).toMatchObject({ startAt: 0, maxResults: 3, isLast: false });
    expect(fields.body.values[0]).toMatchObject({ fieldId: "summary", required: true });
    expect((await dc("/rest/api/2/issue/createmeta/OPS/issuetypes", { auth: PRIYA })).status).toBe(404);
  });

  it("uploads an attachment (X-Atlassian-Token) and serves it from /secure/attachment under the context path", async () => {
    const form = new FormData();
    form.append("file", new Blob(["hello from DC"], { type: "text/plain" }), "notes.txt");
    const upload = (headers: Record<string, string>) =>
      fetch(`${sandbox.dataCenter.jira}/rest/api/2/issue/BK-2/attachments`, {
        method: "POST",
        headers: { authorization: SERVICE, ...headers },
        body: form,
      });
    expect((await upload({})).status).toBe(403);
    const res = await upload({ "X-Atlassian-Token": "no-check" });
    expect(res.status).toBe(200);
    const [meta] = (await res.json()) as { id: string; content: string; author: { name: string } }[];
    expect(meta!.content).toBe(`${sandbox.dataCenter.jira}/secure/attachment/${meta!.id}/notes.txt`);
    expect(meta!.author.name).toBe("demo");
    const bytes = await fetch(meta!.content, { headers: { authorization: SERVICE } });
    expect(await bytes.text()).toBe("hello from DC");
    expect((await fetch(meta!.content, { headers: { authorization: PRIYA.replace("priya", "marcus") } })).status).toBe(404);
    const described = await dc(`/rest/api/2/attachment/${meta!.id}`);
    expect(described.body.content).toBe(meta!.content);
  });

  it("Agile 1.0 is the cloud's, with Data Center's users and links", async () => {
    const boards = await dc("/rest/agile/1.0/board?projectKeyOrId=BK");
    expect(boards.body.values[0].self).toMatch(new RegExp(`^${sandbox.dataCenter.jira}/rest/agile/1.0/board/`));
    const sprints = await dc(`/rest/agile/1.0/board/${boards.body.values[0].id}/sprint?state=active`);
    const issues = await dc(`/rest/agile/1.0/sprint/${sprints.body.values[0].id}/issue?fields=assignee`);
    const assigned = issues.body.issues.find((i: { fields: { assignee: unknown } }) => i.fields.assignee);
    expect(assigned.fields.assignee.name).toEqual(expect.any(String));
    expect(assigned.fields.assignee).not.toHaveProperty("accountId");
  });

  it("seeded descriptions are ADF in the shared seed and wiki on the wire; the flavours keep apart", async () => {
    const seeded = dcState().issuesByKey.get("BK-1")!.description as Adf;
    expect(seeded.type).toBe("doc");
    await dc("/rest/api/2/issue/BK-1", { method: "PUT", body: { fields: { summary: "Changed on DC" } } });
    expect(dcState().issuesByKey.get("BK-1")!.summary).toBe("Changed on DC");
    expect(sandbox.state("jira").issuesByKey.get("BK-1")!.summary).not.toBe("Changed on DC");
  });
});
