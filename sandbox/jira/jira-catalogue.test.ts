import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jiraClient, type JiraClient } from "./jira-testkit";

let c: JiraClient;
beforeAll(async () => {
  c = await jiraClient();
});
afterAll(async () => {
  await c.sandbox.close();
});

/** The endpoints behind the catalogue's newer Jira tools: watchers, remote links, versions, field metadata, bulk create, attachments. */
describe("Jira sandbox: watchers and remote links", () => {
  it("lists, adds (a JSON string body; none adds the caller) and removes watchers", async () => {
    const me = (await c.call("/rest/api/3/myself")).body.accountId as string;
    const users = (await c.call("/rest/api/3/user/search?query=a")).body as { accountId: string }[];
    const other = users.find((u) => u.accountId !== me)!.accountId;
    const key = (
      await c.call("/rest/api/3/issue", {
        method: "POST",
        body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "Watched" } },
      })
    ).body.key as string;
    const first = await c.call(`/rest/api/3/issue/${key}/watchers`);
    expect(first.body).toEqual({
      self: `${c.sandbox.url}/rest/api/3/issue/${key}/watchers`,
      isWatching: true,
      watchCount: 1,
      watchers: [expect.objectContaining({ accountId: me, displayName: expect.any(String), active: true })],
    });

    expect((await c.call(`/rest/api/3/issue/${key}/watchers`, { method: "POST", body: other })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`, { method: "POST", body: other })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`)).body.watchers.map((u: { accountId: string }) => u.accountId)).toEqual([
      me,
      other,
    ]);
    expect((await c.call(`/rest/api/3/issue/${key}?fields=watches`)).body.fields.watches).toMatchObject({
      watchCount: 2,
      isWatching: true,
    });

    expect((await c.call(`/rest/api/3/issue/${key}/watchers?accountId=${me}`, { method: "DELETE" })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`)).body).toMatchObject({ isWatching: false, watchCount: 1 });
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`, { method: "POST" })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`)).body.isWatching).toBe(true);

    const nobody = await c.call(`/rest/api/3/issue/${key}/watchers`, { method: "POST", body: "no-such-account" });
    expect(nobody.status).toBe(404);
    expect(nobody.body.errorMessages[0]).toMatch(/Specified user does not exist/);
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`, { method: "POST", body: { accountId: other } })).status).toBe(400);
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`, { method: "DELETE" })).status).toBe(400);
    expect((await c.call("/rest/api/3/issue/BK-99999/watchers")).status).toBe(404);
  });

  it("creates, lists, replaces by globalId and deletes remote links, with Jira's field errors", async () => {
    const key = "BK-3";
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink`)).body).toEqual([]);
    const created = await c.call(`/rest/api/3/issue/${key}/remotelink`, {
      method: "POST",
      body: { object: { url: "https://example.com/spec", title: "Spec", summary: "The design" }, relationship: "mentioned in" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      self: `${c.sandbox.url}/rest/api/3/issue/${key}/remotelink/${created.body.id}`,
    });
    const list = await c.call(`/rest/api/3/issue/${key}/remotelink`);
    expect(list.body).toEqual([
      {
        id: created.body.id,
        self: created.body.self,
        application: {},
        relationship: "mentioned in",
        object: { url: "https://example.com/spec", title: "Spec", summary: "The design", icon: {}, status: { icon: {} } },
      },
    ]);
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink/${created.body.id}`)).body.object.title).toBe("Spec");

    const global = await c.call(`/rest/api/3/issue/${key}/remotelink`, {
      method: "POST",
      body: { globalId: "doc=1", object: { url: "https://example.com/a", title: "A" } },
    });
    expect(global.status).toBe(201);
    const replaced = await c.call(`/rest/api/3/issue/${key}/remotelink`, {
      method: "POST",
      body: { globalId: "doc=1", object: { url: "https://example.com/b", title: "B" } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.id).toBe(global.body.id);
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink?globalId=doc%3D1`)).body.object).toMatchObject({
      url: "https://example.com/b",
      title: "B",
    });
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink`)).body).toHaveLength(2);

    const invalid = await c.call(`/rest/api/3/issue/${key}/remotelink`, { method: "POST", body: { object: { url: "" } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ errorMessages: [], errors: { url: "'url' is required.", title: "'title' is required." } });
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink/${global.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink/${global.body.id}`)).status).toBe(404);
  });
});

describe("Jira sandbox: versions, field metadata and bulk create", () => {
  it("creates a version by projectId or key; duplicates and bad dates are field errors", async () => {
    const project = (await c.call("/rest/api/3/project/OPS")).body;
    const created = await c.call("/rest/api/3/version", {
      method: "POST",
      body: { projectId: Number(project.id), name: "v2.0.0", description: "The big one", releaseDate: "2026-12-24" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      self: `${c.sandbox.url}/rest/api/3/version/${created.body.id}`,
      id: expect.any(String),
      description: "The big one",
      name: "v2.0.0",
      archived: false,
      released: false,
      releaseDate: "2026-12-24",
      projectId: Number(project.id),
    });
    expect((await c.call("/rest/api/3/project/OPS/versions")).body.map((x: { name: string }) => x.name)).toContain("v2.0.0");
    const byKey = await c.call("/rest/api/3/version", { method: "POST", body: { project: "OPS", name: "v2.1.0" } });
    expect(byKey.status).toBe(201);
    expect(Number(byKey.body.id)).toBe(Number(created.body.id) + 1);

    const duplicate = await c.call("/rest/api/3/version", {
      method: "POST",
      body: { projectId: Number(project.id), name: "V2.0.0", releaseDate: "24/12/2026" },
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors).toEqual({
      name: "A version with this name already exists in this project.",
      releaseDate: "The release date is invalid. Use the format yyyy-MM-dd.",
    });
    expect((await c.call("/rest/api/3/version", { method: "POST", body: { name: "x" } })).body.errors).toEqual({
      project: "Project must be specified to create a version.",
    });
  });

  it("describes the create screen (custom fields included) and an issue's edit screen", async () => {
    const story = await c.call("/rest/api/3/issue/createmeta/BK/issuetypes/10001");
    expect(story.body).toMatchObject({ startAt: 0, maxResults: 50, total: story.body.fields.length });
    const byId = Object.fromEntries(story.body.fields.map((f: { fieldId: string }) => [f.fieldId, f]));
    expect(byId.summary).toMatchObject({
      required: true,
      schema: { type: "string", system: "summary" },
      name: "Summary",
      key: "summary",
      operations: ["set"],
    });
    expect(byId.customfield_10016).toMatchObject({
      required: false,
      name: "Story point estimate",
      schema: { type: "number", customId: 10016 },
    });
    expect(byId.priority.allowedValues.map((p: { name: string }) => p.name)).toContain("High");
    const subtask = await c.call("/rest/api/3/issue/createmeta/BK/issuetypes/10004");
    expect(subtask.body.fields.find((f: { fieldId: string }) => f.fieldId === "parent").required).toBe(true);
    expect(subtask.body.fields.some((f: { fieldId: string }) => f.fieldId === "customfield_10016")).toBe(false);
    expect((await c.call("/rest/api/3/issue/createmeta/BK/issuetypes/99")).status).toBe(404);

    const edit = await c.call("/rest/api/3/issue/BK-2/editmeta");
    expect(edit.status).toBe(200);
    expect(edit.body.fields.summary).toEqual({
      required: true,
      schema: { type: "string", system: "summary" },
      name: "Summary",
      key: "summary",
      operations: ["set"],
    });
    expect(edit.body.fields.comment.operations).toEqual(["add", "edit", "remove"]);
    expect(edit.body.fields).not.toHaveProperty("project");
    expect((await c.call("/rest/api/3/issue/BK-99999/editmeta")).status).toBe(404);
  });

  it("bulk-creates: per-item errors by element number beside the created issues; 400 when none was created", async () => {
    const item = (summary: unknown, extra: Record<string, unknown> = {}) => ({
      fields: { project: { key: "WEB" }, issuetype: { name: "Task" }, summary, ...extra },
    });
    const mixed = await c.call("/rest/api/3/issue/bulk", {
      method: "POST",
      body: { issueUpdates: [item("First"), item(""), item("Third"), item("Bad", { priority: { name: "Urgentest" } })] },
    });
    expect(mixed.status).toBe(201);
    expect(mixed.body.issues).toEqual([
      expect.objectContaining({ key: expect.stringMatching(/^WEB-\d+$/) }),
      expect.objectContaining({ key: expect.stringMatching(/^WEB-\d+$/) }),
    ]);
    expect(mixed.body.errors).toEqual([
      {
        status: 400,
        elementErrors: { errorMessages: [], errors: { summary: "You must specify a summary of the issue." } },
        failedElementNumber: 1,
      },
      { status: 400, elementErrors: { errorMessages: [], errors: { priority: "Specify a valid priority" } }, failedElementNumber: 3 },
    ]);
    expect((await c.call(`/rest/api/3/issue/${mixed.body.issues[1].key}`)).body.fields.summary).toBe("Third");

    const none = await c.call("/rest/api/3/issue/bulk", {
      method: "POST",
      body: { issueUpdates: [item(""), { fields: { project: { key: "NOPE" } } }] },
    });
    expect(none.status).toBe(400);
    expect(none.body.issues).toEqual([]);
    expect(none.body.errors.map((e: { failedElementNumber: number }) => e.failedElementNumber)).toEqual([0, 1]);
    expect(none.body.errors[1].elementErrors.errors).toMatchObject({ project: "Specify a valid project ID or key" });
    const tooMany = await c.call("/rest/api/3/issue/bulk", {
      method: "POST",
      body: { issueUpdates: Array.from({ length: 51 }, () => item("x")) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errorMessages[0]).toMatch(/exceeds the maximum of 50/);
    expect((await c.call("/rest/api/3/issue/bulk", { method: "POST", body: {} })).status).toBe(400);
  });
});

describe("Jira sandbox: attachments", () => {
  const auth = () => ({
    authorization: `Basic ${Buffer.from(`${c.sandbox.credentials.atlassian.email}:${c.sandbox.credentials.atlassian.apiToken}`).toString("base64")}`,
  });
  const upload = (key: string, form: FormData, token = true) =>
    fetch(`${c.sandbox.url}/rest/api/3/issue/${key}/attachments`, {
      method: "POST",
      headers: { ...auth(), ...(token ? { "X-Atlassian-Token": "no-check" } : {}) },
      body: form,
    });

  it("uploads files as multipart/form-data (the XSRF token required), keeps their bytes, and lists them on the issue", async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 13, 10, 45, 45]);
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "data.csv");
    form.append("file", new Blob([bytes]), "blob.bin");
    expect((await upload("BK-2", form, false)).status).toBe(403);
    const res = await upload("BK-2", form);
    expect(res.status).toBe(200);
    const added = (await res.json()) as {
      id: string;
      filename: string;
      size: number;
      mimeType: string;
      content: string;
      author: { accountId: string };
    }[];
    expect(added.map((a) => [a.filename, a.size, a.mimeType])).toEqual([
      ["data.csv", 8, "text/csv"],
      ["blob.bin", bytes.length, "application/octet-stream"],
    ]);
    expect(added[0]!.content).toBe(`${c.sandbox.url}/rest/api/3/attachment/content/${added[0]!.id}`);

    const meta = await c.call(`/rest/api/3/attachment/${added[1]!.id}`);
    expect(meta.body).toMatchObject({
      id: Number(added[1]!.id),
      filename: "blob.bin",
      size: bytes.length,
      mimeType: "application/octet-stream",
      properties: {},
      created: expect.stringMatching(/\+0000$/),
    });
    const redirect = await fetch(`${c.sandbox.url}/rest/api/3/attachment/content/${added[1]!.id}`, { headers: auth(), redirect: "manual" });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("location")).toBe(`${c.sandbox.url}/rest/api/3/attachment/content/${added[1]!.id}?redirect=false`);
    const content = await fetch(`${c.sandbox.url}/rest/api/3/attachment/content/${added[1]!.id}?redirect=false`, { headers: auth() });
    expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes);
    const part = await fetch(`${c.sandbox.url}/rest/api/3/attachment/content/${added[0]!.id}?redirect=false`, {
      headers: { ...auth(), range: "bytes=0-2" },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 0-2/8");
    expect(await part.text()).toBe("a,b");

    const listed = (await c.call("/rest/api/3/issue/BK-2?fields=attachment")).body.fields.attachment as { filename: string }[];
    expect(listed.map((a) => a.filename)).toEqual(["data.csv", "blob.bin"]);
    expect(
      ((await c.call("/rest/api/3/issue/BK-1?fields=attachment")).body.fields.attachment as { filename: string; mimeType: string }[]).map(
        (a) => [a.filename, a.mimeType],
      ),
    ).toEqual([
      ["release-notes.md", "text/markdown"],
      ["diagram.png", "image/png"],
    ]);
  });

  it("refuses what Jira refuses: no file part, a JSON body, an unknown issue or attachment", async () => {
    const empty = new FormData();
    empty.append("comment", "no file");
    expect((await upload("BK-2", empty)).status).toBe(400);
    expect((await c.call("/rest/api/3/issue/BK-2/attachments", { method: "POST", body: { file: "x" } })).status).toBe(403);
    const file = new FormData();
    file.append("file", new Blob(["x"]), "x.txt");
    expect((await upload("BK-99999", file)).status).toBe(404);
    expect((await c.call("/rest/api/3/attachment/1")).status).toBe(404);
    expect((await c.call("/rest/api/3/attachment/content/1?redirect=false")).body.errorMessages[0]).toMatch(/does not exist/);
  });
});

describe("Jira sandbox: sprint partial updates and the backlog", () => {
  it("a POST to a sprint changes only what it names; issues move to a sprint and back to the backlog, sub-tasks with them", async () => {
    const sprint = (
      await c.call("/rest/agile/1.0/sprint", { method: "POST", body: { name: "Partial", originBoardId: 1, goal: "Keep me" } })
    ).body;
    const renamed = await c.call(`/rest/agile/1.0/sprint/${sprint.id}`, { method: "POST", body: { name: "Renamed" } });
    expect(renamed.body).toMatchObject({ id: sprint.id, name: "Renamed", goal: "Keep me", state: "future" });
    expect((await c.call(`/rest/agile/1.0/sprint/${sprint.id}`, { method: "POST", body: { name: "x".repeat(31) } })).body.errors).toEqual({
      name: "The sprint name is too long (maximum is 30 characters).",
    });
    const parent = (
      await c.call("/rest/api/3/issue", {
        method: "POST",
        body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "Parent" } },
      })
    ).body.key as string;
    const sub = (
      await c.call("/rest/api/3/issue", {
        method: "POST",
        body: { fields: { project: { key: "BK" }, issuetype: { name: "Subtask" }, summary: "Child", parent: { key: parent } } },
      })
    ).body.key as string;
    const sprintOf = async (key: string) => (await c.call(`/rest/agile/1.0/issue/${key}`)).body.fields.sprint?.id ?? null;
    expect((await c.call(`/rest/agile/1.0/sprint/${sprint.id}/issue`, { method: "POST", body: { issues: [parent] } })).status).toBe(204);
    expect([await sprintOf(parent), await sprintOf(sub)]).toEqual([sprint.id, sprint.id]);
    const subtaskMove = await c.call("/rest/agile/1.0/backlog/issue", { method: "POST", body: { issues: [sub] } });
    expect(subtaskMove.status).toBe(400);
    expect(subtaskMove.body.errorMessages[0]).toMatch(/is a sub-task: move its parent instead/);
    expect((await c.call("/rest/agile/1.0/backlog/issue", { method: "POST", body: { issues: [parent] } })).status).toBe(204);
    expect([await sprintOf(parent), await sprintOf(sub)]).toEqual([null, null]);
    expect((await c.call("/rest/agile/1.0/backlog/issue", { method: "POST", body: { issues: [] } })).body.errors).toEqual({
      issues: "The issues list cannot be empty.",
    });
    expect(
      (
        await c.call("/rest/agile/1.0/backlog/issue", {
          method: "POST",
          body: { issues: Array.from({ length: 51 }, (_, n) => `BK-${n + 1}`) },
        })
      ).body.errors,
    ).toEqual({ issues: "You can move at most 50 issues at once." });
  });
});
