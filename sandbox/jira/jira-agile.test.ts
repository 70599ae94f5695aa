import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jiraClient, q, type JiraClient } from "./jira-testkit";

let c: JiraClient;
beforeAll(async () => {
  c = await jiraClient();
});
afterAll(async () => {
  await c.sandbox.close();
});

describe("Jira sandbox: Agile 1.0", () => {
  it("lists boards with filters and paging", async () => {
    const all = await c.call("/rest/agile/1.0/board");
    expect(all.body).toMatchObject({ startAt: 0, maxResults: 50, total: 3, isLast: true });
    expect(all.body.values[0]).toMatchObject({
      id: 1,
      type: "scrum",
      location: { projectKey: "BK" },
      self: `${c.sandbox.url}/rest/agile/1.0/board/1`,
    });
    expect((await c.call("/rest/agile/1.0/board?projectKeyOrId=OPS")).body.values.map((b: any) => b.location.projectKey)).toEqual(["OPS"]);
    expect((await c.call("/rest/agile/1.0/board?type=kanban")).body.total).toBe(0);
    const paged = await c.call("/rest/agile/1.0/board?startAt=1&maxResults=1");
    expect(paged.body).toMatchObject({ startAt: 1, maxResults: 1, total: 3, isLast: false });
    expect((await c.call("/rest/agile/1.0/board/2")).body.name).toBe("OPS board");
    const missing = await c.call("/rest/agile/1.0/board/99");
    expect(missing.status).toBe(404);
    expect(missing.body.errorMessages[0]).toMatch(/Board does not exist/);
  });

  it("lists a board's sprints by state, and gets one sprint", async () => {
    const sprints = await c.call("/rest/agile/1.0/board/1/sprint");
    const states = sprints.body.values.map((s: any) => s.state);
    expect(states.filter((s: string) => s === "active")).toHaveLength(1);
    expect(states).toContain("closed");
    expect(states).toContain("future");
    const active = await c.call("/rest/agile/1.0/board/1/sprint?state=active");
    expect(active.body.values).toHaveLength(1);
    const sprint = active.body.values[0];
    expect(sprint).toMatchObject({ state: "active", originBoardId: 1, self: `${c.sandbox.url}/rest/agile/1.0/sprint/${sprint.id}` });
    expect(sprint.startDate).toMatch(/Z$/);
    expect((await c.call(`/rest/agile/1.0/sprint/${sprint.id}`)).body).toEqual(sprint);
    expect((await c.call("/rest/agile/1.0/board/1/sprint?state=future,closed")).body.values.every((s: any) => s.state !== "active")).toBe(
      true,
    );
    expect((await c.call("/rest/agile/1.0/sprint/9999")).status).toBe(404);
  });

  it("lists sprint, board and backlog issues with paging and jql", async () => {
    const active = (await c.call("/rest/agile/1.0/board/1/sprint?state=active")).body.values[0];
    const page = await c.call(`/rest/agile/1.0/sprint/${active.id}/issue?maxResults=10&fields=summary,status`);
    expect(page.body).toMatchObject({ startAt: 0, maxResults: 10, expand: "schema,names" });
    expect(page.body.total).toBeGreaterThan(10);
    for (const i of page.body.issues) expect(i.fields.sprint.id).toBe(active.id);
    const viaJql = await c.call(`/rest/api/3/search/approximate-count`, { method: "POST", body: { jql: `sprint = ${active.id}` } });
    expect(viaJql.body.count).toBe(page.body.total);
    const done = await c.call(`/rest/agile/1.0/sprint/${active.id}/issue?jql=${q("statusCategory = Done")}&maxResults=100&fields=status`);
    for (const i of done.body.issues) expect(i.fields.status.statusCategory.key).toBe("done");
    const board = await c.call("/rest/agile/1.0/board/1/issue?maxResults=5");
    expect(board.body.total).toBe(
      (await c.call("/rest/api/3/search/approximate-count", { method: "POST", body: { jql: "project = BK" } })).body.count,
    );
    expect(typeof board.body.issues[0].fields.summary).toBe("string");
    const backlog = await c.call("/rest/agile/1.0/board/1/backlog?maxResults=100&fields=status");
    expect(backlog.body.total).toBeGreaterThan(0);
    for (const i of backlog.body.issues) {
      expect(i.fields.sprint).toBeNull();
      expect(i.fields.status.statusCategory.key).not.toBe("done");
    }
    const epics = await c.call("/rest/agile/1.0/board/1/epic");
    expect(epics.body.values.length).toBeGreaterThan(0);
    expect(epics.body.values[0]).toHaveProperty("done");
  });

  it("creates a sprint, moves issues into it and walks its states", async () => {
    const created = await c.call("/rest/agile/1.0/sprint", {
      method: "POST",
      body: { name: "Sandbox sprint", originBoardId: 2, goal: "Test" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Sandbox sprint", state: "future", originBoardId: 2, goal: "Test" });
    const invalid = await c.call("/rest/agile/1.0/sprint", { method: "POST", body: { originBoardId: 2 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toHaveProperty("name");

    const backlog = await c.call("/rest/agile/1.0/board/2/backlog?maxResults=3&jql=" + q("issuetype != Subtask"));
    const keys = backlog.body.issues.map((i: any) => i.key);
    expect((await c.call(`/rest/agile/1.0/sprint/${created.body.id}/issue`, { method: "POST", body: { issues: keys } })).status).toBe(204);
    const inSprint = await c.call(`/rest/agile/1.0/sprint/${created.body.id}/issue`);
    expect(inSprint.body.issues.map((i: any) => i.key)).toEqual(expect.arrayContaining(keys));

    const sprintId = created.body.id;
    const noDates = await c.call(`/rest/agile/1.0/sprint/${sprintId}`, { method: "POST", body: { state: "active" } });
    expect(noDates.status).toBe(400);
    const dates = { startDate: "2026-01-05T09:00:00.000Z", endDate: "2026-01-19T09:00:00.000Z" };
    const busy = await c.call(`/rest/agile/1.0/sprint/${sprintId}`, { method: "POST", body: { state: "active", ...dates } });
    expect(busy.status).toBe(400);
    const current = (await c.call("/rest/agile/1.0/board/2/sprint?state=active")).body.values[0];
    expect((await c.call(`/rest/agile/1.0/sprint/${current.id}`, { method: "POST", body: { state: "closed" } })).body.state).toBe("closed");
    const started = await c.call(`/rest/agile/1.0/sprint/${sprintId}`, { method: "POST", body: { state: "active", ...dates } });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ state: "active", startDate: dates.startDate });
    const closed = await c.call(`/rest/agile/1.0/sprint/${sprintId}`, { method: "POST", body: { state: "closed" } });
    expect(closed.body.completeDate).toBeTruthy();
    expect((await c.call(`/rest/agile/1.0/sprint/${sprintId}`, { method: "POST", body: { state: "active" } })).status).toBe(400);
    expect((await c.call(`/rest/agile/1.0/sprint/${sprintId}/issue`, { method: "POST", body: { issues: keys } })).status).toBe(400);
  });

  it("gets an issue through the Agile API with sprint and epic fields", async () => {
    const r = await c.call("/rest/agile/1.0/issue/BK-20");
    expect(r.status).toBe(200);
    expect(r.body.self).toBe(`${c.sandbox.url}/rest/agile/1.0/issue/${r.body.id}`);
    expect(r.body.fields).toHaveProperty("sprint");
    expect(r.body.fields).toHaveProperty("epic");
    expect(r.body.fields.flagged).toBe(false);
    expect((await c.call("/rest/agile/1.0/issue/BK-99999")).status).toBe(404);
  });
});

describe("Jira sandbox: determinism and reset", () => {
  const snapshot = async (client: JiraClient) => {
    const paths = [
      "/rest/api/3/search/jql?jql=" + q("project in (BK, OPS, WEB) ORDER BY key ASC") + "&maxResults=100&fields=*all",
      "/rest/agile/1.0/board/3/sprint",
      "/rest/api/3/user/search?query=a",
      "/rest/api/3/issue/WEB-42?expand=changelog",
    ];
    const bodies = await Promise.all(paths.map((p) => client.call(p)));
    return JSON.stringify(bodies.map((b) => b.body)).replaceAll(client.sandbox.url, "ORIGIN");
  };

  it("gives identical data for the same seed and different data for another seed", async () => {
    const a = await jiraClient(42);
    const b = await jiraClient(42);
    const other = await jiraClient(43);
    try {
      const [sa, sb, so] = await Promise.all([snapshot(a), snapshot(b), snapshot(other)]);
      expect(sa.length).toBeGreaterThan(10_000);
      expect(sa).toBe(sb);
      expect(so).not.toBe(sa);
    } finally {
      await Promise.all([a.sandbox.close(), b.sandbox.close(), other.sandbox.close()]);
    }
  });

  it("reset restores the seeded issues", async () => {
    const before = await snapshot(c);
    await c.call("/rest/api/3/issue/WEB-42", { method: "PUT", body: { fields: { summary: "Changed" } } });
    expect(await snapshot(c)).not.toBe(before);
    c.sandbox.reset();
    const fresh = await jiraClient();
    try {
      expect(await snapshot(c)).toBe(await snapshot(fresh));
    } finally {
      await fresh.sandbox.close();
    }
  });
});
