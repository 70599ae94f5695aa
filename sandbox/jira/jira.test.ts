import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jiraClient, q, type JiraClient } from "./jira-testkit";

let c: JiraClient;
beforeAll(async () => {
  c = await jiraClient();
});
afterAll(async () => {
  await c.sandbox.close();
});

async function searchAll(jql: string, maxResults: number, fields = "summary") {
  const keys: string[] = [];
  let token: string | undefined;
  let pages = 0;
  for (;;) {
    const r = await c.call(
      `/rest/api/3/search/jql?jql=${q(jql)}&maxResults=${maxResults}&fields=${fields}${token ? `&nextPageToken=${encodeURIComponent(token)}` : ""}`,
    );
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty("total");
    keys.push(...r.body.issues.map((i: any) => i.key));
    pages++;
    if (r.body.isLast) {
      expect(r.body.nextPageToken).toBeUndefined();
      return { keys, pages };
    }
    expect(typeof r.body.nextPageToken).toBe("string");
    token = r.body.nextPageToken;
  }
}

const count = async (jql: string) => {
  const r = await c.call("/rest/api/3/search/approximate-count", { method: "POST", body: { jql } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.count as number;
};

describe("Jira sandbox: identity and catalogue", () => {
  it("GET /myself returns the sandbox account", async () => {
    const r = await c.call("/rest/api/3/myself");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      accountId: c.sandbox.credentials.atlassian.accountId,
      displayName: "Demo Admin",
      emailAddress: "demo@bridgekeeper.test",
      active: true,
      accountType: "atlassian",
    });
    expect(r.body.self).toBe(`${c.sandbox.url}/rest/api/3/user?accountId=${r.body.accountId}`);
    expect(r.headers.get("x-ratelimit-limit")).toBeTruthy();
  });

  it("lists projects, a project page and one project", async () => {
    const list = await c.call("/rest/api/3/project");
    expect(list.body.map((p: any) => p.key)).toEqual(["BK", "OPS", "WEB"]);
    const pageOne = await c.call("/rest/api/3/project/search?maxResults=2");
    expect(pageOne.body).toMatchObject({ startAt: 0, maxResults: 2, total: 3, isLast: false });
    expect(pageOne.body.values).toHaveLength(2);
    expect(pageOne.body.nextPage).toContain("startAt=2");
    const one = await c.call("/rest/api/3/project/OPS");
    expect(one.body).toMatchObject({ key: "OPS", projectTypeKey: "software" });
    expect(one.body.issueTypes.map((t: any) => t.name)).toEqual(["Epic", "Story", "Task", "Bug", "Subtask"]);
    expect((await c.call("/rest/api/3/project/NOPE")).status).toBe(404);
  });

  it("serves fields, priorities, statuses, link types, users and create metadata", async () => {
    const fields = await c.call("/rest/api/3/field");
    expect(fields.body.find((f: any) => f.id === "customfield_10020")).toMatchObject({ name: "Sprint", custom: true });
    expect((await c.call("/rest/api/3/priority")).body.map((p: any) => p.name)).toEqual(["Highest", "High", "Medium", "Low", "Lowest"]);
    const statuses = (await c.call("/rest/api/3/status")).body;
    expect(statuses.find((s: any) => s.name === "In Review").statusCategory.key).toBe("indeterminate");
    expect((await c.call("/rest/api/3/issueLinkType")).body.issueLinkTypes.map((t: any) => t.name)).toContain("Blocks");
    const users = await c.call("/rest/api/3/user/search?query=priya");
    expect(users.body).toHaveLength(1);
    expect(users.body[0].displayName).toBe("Priya Raman");
    const meta = await c.call("/rest/api/3/issue/createmeta/BK/issuetypes");
    expect(meta.body).toMatchObject({ startAt: 0, total: 5 });
    expect(meta.body.issueTypes).toHaveLength(5);
    const server = await c.call("/rest/api/3/serverInfo");
    expect(server.body).toMatchObject({ deploymentType: "Cloud", baseUrl: c.sandbox.url });
  });
});

describe("Jira sandbox: issues", () => {
  it("GET issue gives ADF in v3 and wiki markup in v2", async () => {
    const v3 = await c.call("/rest/api/3/issue/BK-10");
    const v2 = await c.call("/rest/api/2/issue/BK-10");
    expect(v3.status).toBe(200);
    expect(v3.body).toMatchObject({ key: "BK-10", self: `${c.sandbox.url}/rest/api/3/issue/${v3.body.id}` });
    expect(v2.body.self).toBe(`${c.sandbox.url}/rest/api/2/issue/${v3.body.id}`);
    const withDescription = (
      await c.call(`/rest/api/3/search/jql?jql=${q("project = BK AND description is not EMPTY")}&maxResults=1&fields=description`)
    ).body.issues[0];
    expect(withDescription.fields.description).toMatchObject({ type: "doc", version: 1 });
    const asWiki = await c.call(`/rest/api/2/issue/${withDescription.key}?fields=description,comment`);
    expect(typeof asWiki.body.fields.description).toBe("string");
    expect(asWiki.body.fields.description).toMatch(/^h2\. /);
    for (const comment of asWiki.body.fields.comment.comments) expect(typeof comment.body).toBe("string");
    for (const comment of v3.body.fields.comment.comments) expect(comment.body.type).toBe("doc");
    for (const f of [
      "summary",
      "status",
      "issuetype",
      "project",
      "priority",
      "reporter",
      "created",
      "updated",
      "labels",
      "timetracking",
      "customfield_10020",
    ])
      expect(v3.body.fields).toHaveProperty(f);
    expect(v3.body.fields.status.statusCategory).toHaveProperty("key");
    expect(v3.body.fields.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
  });

  it("selects fields and expands renderedFields, transitions and changelog", async () => {
    const r = await c.call("/rest/api/3/issue/BK-10?fields=summary,status&expand=renderedFields,transitions,changelog,names");
    expect(Object.keys(r.body.fields).sort()).toEqual(["status", "summary"]);
    expect(r.body.renderedFields).toHaveProperty("description");
    expect(Array.isArray(r.body.transitions)).toBe(true);
    expect(r.body.changelog).toHaveProperty("histories");
    expect(r.body.names).toEqual({ summary: "Summary", status: "Status" });
  });

  it("treats fields=-x as the default fields minus x, and v2 search returns wiki strings", async () => {
    const r = await c.call("/rest/api/3/issue/BK-10?fields=-comment,-worklog");
    expect(r.body.fields).toHaveProperty("summary");
    expect(r.body.fields).not.toHaveProperty("comment");
    expect(r.body.fields).not.toHaveProperty("worklog");
    const v2 = await c.call(
      `/rest/api/2/search/jql?jql=${q("project = BK AND description is not EMPTY")}&maxResults=3&fields=description&expand=names`,
    );
    expect(v2.body.names).toEqual({ description: "Description" });
    for (const i of v2.body.issues) {
      expect(typeof i.fields.description).toBe("string");
      expect(i.self).toContain("/rest/api/2/issue/");
    }
  });

  it("answers 404 with Jira's message for an unknown issue", async () => {
    for (const path of [
      "/rest/api/3/issue/BK-99999",
      "/rest/api/2/issue/NOPE-1",
      "/rest/api/3/issue/BK-99999/comment",
      "/rest/api/3/issue/99999999/transitions",
    ]) {
      const r = await c.call(path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ errorMessages: ["Issue does not exist or you do not have permission to see it."], errors: {} });
    }
  });

  it("creates an issue (201) and validates like Jira (400)", async () => {
    const created = await c.call("/rest/api/3/issue", {
      method: "POST",
      body: {
        fields: {
          project: { key: "BK" },
          issuetype: { name: "Task" },
          summary: "Write the sandbox docs",
          labels: ["docs"],
          description: { type: "doc", version: 1, content: [{ type: "paragraph", content: [{ type: "text", text: "Hello" }] }] },
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^BK-\d+$/),
      self: `${c.sandbox.url}/rest/api/3/issue/${created.body.id}`,
    });
    const got = await c.call(`/rest/api/3/issue/${created.body.key}`);
    expect(got.body.fields).toMatchObject({
      summary: "Write the sandbox docs",
      labels: ["docs"],
      status: { name: "To Do" },
      reporter: { accountId: c.sandbox.credentials.atlassian.accountId },
    });
    expect((await c.call(`/rest/api/2/issue/${created.body.key}?fields=description`)).body.fields.description).toBe("Hello");

    const missing = await c.call("/rest/api/3/issue", {
      method: "POST",
      body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" } } },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ errorMessages: [], errors: { summary: "You must specify a summary of the issue." } });
    const badProject = await c.call("/rest/api/3/issue", {
      method: "POST",
      body: { fields: { project: { key: "ZZZ" }, issuetype: { name: "Task" }, summary: "x" } },
    });
    expect(badProject.body.errors.project).toBe("Specify a valid project ID or key");
    const stringBody = await c.call("/rest/api/3/issue", {
      method: "POST",
      body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "x", description: "plain" } },
    });
    expect(stringBody.status).toBe(400);
    expect(stringBody.body.errors.description).toMatch(/Atlassian Document/);

    const v2 = await c.call("/rest/api/2/issue", {
      method: "POST",
      body: {
        fields: {
          project: { key: "WEB" },
          issuetype: { id: "10003" },
          summary: "Bug from v2",
          description: "h2. Steps\n\n* open *the* page\n* click",
        },
      },
    });
    expect(v2.status).toBe(201);
    const adf = (await c.call(`/rest/api/3/issue/${v2.body.key}?fields=description`)).body.fields.description;
    expect(adf.content[0]).toMatchObject({ type: "heading", attrs: { level: 2 } });
    expect(adf.content[1].type).toBe("bulletList");
  });

  it("edits fields and label update operations (204), rejecting unknown fields", async () => {
    const put = await c.call("/rest/api/3/issue/OPS-3", {
      method: "PUT",
      body: { fields: { summary: "Renamed by a test" }, update: { labels: [{ add: "sandbox" }, { remove: "nonexistent" }] } },
    });
    expect(put.status).toBe(204);
    const got = await c.call("/rest/api/3/issue/OPS-3?fields=summary,labels,updated");
    expect(got.body.fields.summary).toBe("Renamed by a test");
    expect(got.body.fields.labels).toContain("sandbox");
    await c.call("/rest/api/3/issue/OPS-3", { method: "PUT", body: { update: { labels: [{ remove: "sandbox" }] } } });
    expect((await c.call("/rest/api/3/issue/OPS-3?fields=labels")).body.fields.labels).not.toContain("sandbox");
    const bad = await c.call("/rest/api/3/issue/OPS-3", { method: "PUT", body: { fields: { status: { name: "Done" }, summary: "" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.status).toMatch(/cannot be set/);
    expect((await c.call("/rest/api/3/issue/OPS-3?fields=summary")).body.fields.summary).toBe("Renamed by a test");
  });

  it("transitions change status, category and resolution; unavailable transitions are 400", async () => {
    const created = await c.call("/rest/api/3/issue", {
      method: "POST",
      body: { fields: { project: { key: "BK" }, issuetype: { name: "Story" }, summary: "Walk the workflow" } },
    });
    const key = created.body.key;
    const available = await c.call(`/rest/api/3/issue/${key}/transitions`);
    expect(available.body.transitions.map((t: any) => t.name)).toEqual(["In Progress"]);
    expect(available.body.transitions[0].to).toMatchObject({ name: "In Progress", statusCategory: { key: "indeterminate" } });
    const tooEarly = await c.call(`/rest/api/3/issue/${key}/transitions`, { method: "POST", body: { transition: { id: "41" } } });
    expect(tooEarly.status).toBe(400);
    expect(tooEarly.body.errorMessages[0]).toMatch(/not valid/);
    expect((await c.call(`/rest/api/3/issue/${key}/transitions`, { method: "POST", body: { transition: { id: "21" } } })).status).toBe(204);
    let fields = (await c.call(`/rest/api/3/issue/${key}?fields=status,resolution,resolutiondate`)).body.fields;
    expect(fields.status.name).toBe("In Progress");
    expect(fields.resolution).toBeNull();
    expect((await c.call(`/rest/api/3/issue/${key}/transitions`, { method: "POST", body: { transition: { id: "41" } } })).status).toBe(204);
    fields = (await c.call(`/rest/api/3/issue/${key}?fields=status,resolution,resolutiondate&expand=changelog`)).body;
    expect(fields.fields.status).toMatchObject({ name: "Done", statusCategory: { key: "done" } });
    expect(fields.fields.resolution.name).toBe("Done");
    expect(fields.fields.resolutiondate).toBeTruthy();
    expect(fields.changelog.histories.map((h: any) => h.items[0].toString)).toEqual(["In Progress", "Done"]);
    expect(await count(`key = ${key} AND statusCategory = Done AND resolution = Done`)).toBe(1);
  });

  it("pages comments and adds, edits and deletes one", async () => {
    const search = await c.call(`/rest/api/3/search/jql?jql=${q("project = WEB ORDER BY key ASC")}&maxResults=200&fields=comment`);
    const issue = search.body.issues.find((i: any) => i.fields.comment.total >= 4);
    const total = issue.fields.comment.total;
    const first = await c.call(`/rest/api/3/issue/${issue.key}/comment?startAt=0&maxResults=2`);
    expect(first.body).toMatchObject({ startAt: 0, maxResults: 2, total });
    expect(first.body.comments).toHaveLength(2);
    const rest = await c.call(`/rest/api/3/issue/${issue.key}/comment?startAt=2&maxResults=100`);
    expect(rest.body.comments).toHaveLength(total - 2);
    const ids = [...first.body.comments, ...rest.body.comments].map((x: any) => x.id);
    expect(new Set(ids).size).toBe(total);

    const added = await c.call(`/rest/api/2/issue/${issue.key}/comment`, { method: "POST", body: { body: "Looks *good*" } });
    expect(added.status).toBe(201);
    expect(added.body.body).toBe("Looks *good*");
    const v3 = await c.call(`/rest/api/3/issue/${issue.key}/comment/${added.body.id}`);
    expect(v3.body.body.content[0].content[1]).toEqual({ type: "text", text: "good", marks: [{ type: "strong" }] });
    expect((await c.call(`/rest/api/3/issue/${issue.key}/comment`)).body.total).toBe(total + 1);
    const edited = await c.call(`/rest/api/3/issue/${issue.key}/comment/${added.body.id}`, {
      method: "PUT",
      body: { body: { type: "doc", version: 1, content: [{ type: "paragraph", content: [{ type: "text", text: "Edited" }] }] } },
    });
    expect(edited.status).toBe(200);
    expect((await c.call(`/rest/api/3/issue/${issue.key}/comment/${added.body.id}`, { method: "DELETE" })).status).toBe(204);
    const gone = await c.call(`/rest/api/3/issue/${issue.key}/comment/${added.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.errorMessages[0]).toMatch(/Can not find a comment/);
    const empty = await c.call(`/rest/api/3/issue/${issue.key}/comment`, { method: "POST", body: {} });
    expect(empty.status).toBe(400);
  });

  it("pages worklogs and logging work updates time tracking", async () => {
    const created = await c.call("/rest/api/3/issue", {
      method: "POST",
      body: {
        fields: { project: { key: "OPS" }, issuetype: { name: "Task" }, summary: "Track time", timetracking: { originalEstimate: "1d" } },
      },
    });
    const key = created.body.key;
    for (const timeSpent of ["1h", "2h 30m", "45m"]) {
      const w = await c.call(`/rest/api/3/issue/${key}/worklog`, {
        method: "POST",
        body: { timeSpent, started: "2026-01-05T10:00:00.000+0000" },
      });
      expect(w.status).toBe(201);
      expect(w.body.timeSpent).toBe(timeSpent);
    }
    const page = await c.call(`/rest/api/3/issue/${key}/worklog?startAt=1&maxResults=1`);
    expect(page.body).toMatchObject({ startAt: 1, maxResults: 1, total: 3 });
    expect(page.body.worklogs[0].timeSpentSeconds).toBe(9000);
    const tt = (await c.call(`/rest/api/3/issue/${key}?fields=timetracking`)).body.fields.timetracking;
    expect(tt).toEqual({
      originalEstimate: "1d",
      originalEstimateSeconds: 28800,
      remainingEstimate: "3h 45m",
      remainingEstimateSeconds: 13500,
      timeSpent: "4h 15m",
      timeSpentSeconds: 15300,
    });
    const bad = await c.call(`/rest/api/3/issue/${key}/worklog`, { method: "POST", body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("timeLogged");
  });

  it("links issues and deletes an issue", async () => {
    const a = (
      await c.call("/rest/api/3/issue", {
        method: "POST",
        body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "Blocker" } },
      })
    ).body.key;
    const b = (
      await c.call("/rest/api/3/issue", {
        method: "POST",
        body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "Blocked" } },
      })
    ).body.key;
    const link = await c.call("/rest/api/3/issueLink", {
      method: "POST",
      body: { type: { name: "Blocks" }, inwardIssue: { key: b }, outwardIssue: { key: a } },
    });
    expect(link.status).toBe(201);
    const linksA = (await c.call(`/rest/api/3/issue/${a}?fields=issuelinks`)).body.fields.issuelinks;
    expect(linksA[0]).toMatchObject({ type: { name: "Blocks", outward: "blocks" }, outwardIssue: { key: b } });
    const linksB = (await c.call(`/rest/api/3/issue/${b}?fields=issuelinks`)).body.fields.issuelinks;
    expect(linksB[0].inwardIssue.key).toBe(a);
    expect((await c.call(`/rest/api/3/issue/${a}`, { method: "DELETE" })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${a}`)).status).toBe(404);
    expect((await c.call(`/rest/api/3/issue/${b}?fields=issuelinks`)).body.fields.issuelinks).toEqual([]);
    expect((await c.call(`/rest/api/3/issue/${b}/remotelink`)).body).toEqual([]);
  });
});

describe("Jira sandbox: search", () => {
  it("pages through every issue of a project with nextPageToken, without duplicates or gaps", async () => {
    const total = await count("project = BK");
    expect(total).toBeGreaterThan(100);
    const { keys, pages } = await searchAll("project = BK", 37);
    expect(pages).toBe(Math.ceil(total / 37));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(total);
    const ids = await c.call(`/rest/api/3/search/jql?jql=${q("project = BK")}&maxResults=5000`);
    expect(ids.body.isLast).toBe(true);
    expect(ids.body.issues.map((i: any) => i.key)).toEqual(keys);
    expect(ids.body.issues[0]).not.toHaveProperty("fields");
  });

  it("POST /search/jql takes the same parameters in the body", async () => {
    const first = await c.call("/rest/api/3/search/jql", {
      method: "POST",
      body: { jql: "project = OPS ORDER BY key ASC", maxResults: 5, fields: ["summary", "status"] },
    });
    expect(first.status).toBe(200);
    expect(first.body.issues.map((i: any) => i.key)).toEqual(["OPS-1", "OPS-2", "OPS-3", "OPS-4", "OPS-5"]);
    const second = await c.call("/rest/api/3/search/jql", {
      method: "POST",
      body: { jql: "project = OPS ORDER BY key ASC", maxResults: 5, fields: ["summary"], nextPageToken: first.body.nextPageToken },
    });
    expect(second.body.issues[0].key).toBe("OPS-6");
    const wrong = await c.call("/rest/api/3/search/jql", {
      method: "POST",
      body: { jql: "project = BK", nextPageToken: first.body.nextPageToken },
    });
    expect(wrong.status).toBe(400);
  });

  it("evaluates AND, OR, NOT, IN, parentheses and ORDER BY", async () => {
    const bk = await count("project = BK");
    const bugs = await count("type = Bug");
    const bkBugs = await count("project = BK AND issuetype = Bug");
    expect(await count("project = BK OR type = Bug")).toBe(bk + bugs - bkBugs);
    expect(await count("project in (BK, OPS)")).toBe((await count("project = BK")) + (await count("project = OPS")));
    expect(await count("project not in (BK, OPS)")).toBe(await count("project = WEB"));
    const all = await count("created >= -3650d");
    expect(await count("NOT project = BK")).toBe(all - bk);
    expect(await count("project != BK")).toBe(all - bk);
    expect(await count("(project = BK OR project = WEB) AND NOT status = Done")).toBe(
      (await count("project in (BK, WEB)")) - (await count("project in (BK, WEB) AND status = Done")),
    );
    const ordered = await c.call(`/rest/api/3/search/jql?jql=${q("project = WEB ORDER BY created DESC")}&maxResults=50&fields=created`);
    const created = ordered.body.issues.map((i: any) => i.fields.created);
    expect(created).toEqual([...created].sort().reverse());
    const byPriority = await c.call(
      `/rest/api/3/search/jql?jql=${q("project = WEB ORDER BY priority DESC, key ASC")}&maxResults=100&fields=priority`,
    );
    const ranks = byPriority.body.issues.map((i: any) => Number(i.fields.priority.id));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it("supports ~, currentUser(), EMPTY, sprints, epics and relative dates", async () => {
    const text = await c.call(`/rest/api/3/search/jql?jql=${q('summary ~ "timeout"')}&maxResults=100&fields=summary`);
    expect(text.body.issues.length).toBeGreaterThan(0);
    for (const i of text.body.issues) expect(i.fields.summary.toLowerCase()).toMatch(/time/);
    const mine = await c.call(
      `/rest/api/3/search/jql?jql=${q("assignee = currentUser() ORDER BY updated DESC")}&maxResults=100&fields=assignee`,
    );
    expect(mine.body.issues.length).toBeGreaterThan(0);
    for (const i of mine.body.issues) expect(i.fields.assignee.accountId).toBe(c.sandbox.credentials.atlassian.accountId);
    const unassigned = await count("assignee is EMPTY");
    expect(unassigned).toBeGreaterThan(0);
    expect((await count("assignee is not EMPTY")) + unassigned).toBe(await count("created >= -3650d"));
    expect(await count("assignee != currentUser()")).toBe(
      (await count("assignee is not EMPTY")) - (await count("assignee = currentUser()")),
    );
    const open = await c.call(`/rest/api/3/search/jql?jql=${q("sprint in openSprints()")}&maxResults=100&fields=customfield_10020`);
    for (const i of open.body.issues)
      expect(i.fields.customfield_10020.some((s: any) => s.state === "active" || s.state === "future")).toBe(true);
    expect(await count('"Epic Link" = BK-1')).toBe(await count("parent = BK-1"));
    const serverTime = Date.parse((await c.call("/rest/api/3/serverInfo")).body.serverTime.replace("+0000", "Z"));
    const recent = await c.call(`/rest/api/3/search/jql?jql=${q("created >= -7d ORDER BY created ASC")}&maxResults=100&fields=created`);
    expect(recent.body.issues.length).toBeGreaterThan(0);
    for (const i of recent.body.issues)
      expect(Date.parse(i.fields.created.replace("+0000", "Z"))).toBeGreaterThanOrEqual(serverTime - 7 * 86_400_000 - 5_000);
    expect(await count("updated >= -2w")).toBeGreaterThanOrEqual(await count("updated >= -1w"));
    expect(await count('created >= "2025-12-01" AND created < "2026-01-01"')).toBeGreaterThan(0);
  });

  it("rejects invalid JQL with Jira-style 400s", async () => {
    const cases: [string, RegExp][] = [
      ["project = ", /^Error in the JQL Query: /],
      ["project BK", /^Error in the JQL Query: Expecting operator but got 'BK'/],
      ["(project = BK", /Expecting '\)'/],
      ["project = NOPE", /^The value 'NOPE' does not exist for the field 'project'\.$/],
      ["nosuchfield = 1", /^Field 'nosuchfield' does not exist/],
      ["project ~ BK", /not supported by the 'project' field/],
      ["created > yesterday", /Date value 'yesterday' for field 'created' is invalid/],
      ["assignee = nobody()", /Unable to find JQL function 'nobody\(\)'/],
      ["order by created", /Unbounded JQL queries are not allowed/],
    ];
    for (const [jql, message] of cases) {
      const r = await c.call(`/rest/api/3/search/jql?jql=${q(jql)}`);
      expect(r.status, jql).toBe(400);
      expect(r.body.errors).toEqual({});
      expect(r.body.errorMessages[0], jql).toMatch(message);
    }
  });

  it("answers 410 Gone on the removed /search endpoints", async () => {
    for (const [method, path] of [
      ["GET", "/rest/api/3/search?jql=project=BK"],
      ["POST", "/rest/api/3/search"],
      ["GET", "/rest/api/2/search?jql=project=BK"],
    ] as const) {
      const r = await c.call(path, method === "POST" ? { method, body: { jql: "project = BK" } } : {});
      expect(r.status).toBe(410);
      expect(r.body.errorMessages[0]).toMatch(/migrate to the \/rest\/api\/3\/search\/jql API/);
    }
  });
});

/** Jira Cloud records a change of parent under one field, whether `parent` or Epic Link set it, and whether it was set or cleared. */
describe("Jira sandbox: a parent's change in the history", () => {
  it("setting and clearing Epic Link, and setting parent, are recorded alike (IssueParentAssociation), with the old and new parent's keys", async () => {
    const create = async (type: string, summary: string) =>
      (
        await c.call("/rest/api/3/issue", {
          method: "POST",
          body: { fields: { project: { key: "BK" }, issuetype: { name: type }, summary } },
        })
      ).body as { key: string; id: string };
    const [first, second] = [await create("Epic", "First epic"), await create("Epic", "Second epic")];
    const story = await create("Story", "Moves between epics");
    const put = async (fields: Record<string, unknown>) =>
      expect((await c.call(`/rest/api/3/issue/${story.key}`, { method: "PUT", body: { fields } })).status).toBe(204);
    await put({ customfield_10014: first.key });
    await put({ parent: { key: second.key } });
    await put({ customfield_10014: null });
    const histories = (await c.call(`/rest/api/3/issue/${story.key}/changelog`)).body.values as {
      items: {
        field: string;
        fieldId?: string;
        from: string | null;
        fromString: string | null;
        to: string | null;
        toString: string | null;
      }[];
    }[];
    const items = histories.flatMap((h) => h.items).filter((i) => /parent|epic/i.test(i.field));
    expect(items).toEqual([
      expect.objectContaining({ field: "IssueParentAssociation", from: null, fromString: null, to: first.id, toString: first.key }),
      expect.objectContaining({
        field: "IssueParentAssociation",
        from: first.id,
        fromString: first.key,
        to: second.id,
        toString: second.key,
      }),
      expect.objectContaining({ field: "IssueParentAssociation", from: second.id, fromString: second.key, to: null, toString: null }),
    ]);
  });
});
