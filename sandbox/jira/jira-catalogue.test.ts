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
    const key = (await c.call("/rest/api/3/issue", { method: "POST", body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "Watched" } } })).body.key as string;
    const first = await c.call(`/rest/api/3/issue/${key}/watchers`);
    expect(first.body).toEqual({ self: `${c.sandbox.url}/rest/api/3/issue/${key}/watchers`, isWatching: true, watchCount: 1, watchers: [expect.objectContaining({ accountId: me, displayName: expect.any(String), active: true })] });

    expect((await c.call(`/rest/api/3/issue/${key}/watchers`, { method: "POST", body: other })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`, { method: "POST", body: other })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${key}/watchers`)).body.watchers.map((u: { accountId: string }) => u.accountId)).toEqual([me, other]);
    expect((await c.call(`/rest/api/3/issue/${key}?fields=watches`)).body.fields.watches).toMatchObject({ watchCount: 2, isWatching: true });

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
    const created = await c.call(`/rest/api/3/issue/${key}/remotelink`, { method: "POST", body: { object: { url: "https://example.com/spec", title: "Spec", summary: "The design" }, relationship: "mentioned in" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), self: `${c.sandbox.url}/rest/api/3/issue/${key}/remotelink/${created.body.id}` });
    const list = await c.call(`/rest/api/3/issue/${key}/remotelink`);
    expect(list.body).toEqual([{ id: created.body.id, self: created.body.self, application: {}, relationship: "mentioned in", object: { url: "https://example.com/spec", title: "Spec", summary: "The design", icon: {}, status: { icon: {} } } }]);
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink/${created.body.id}`)).body.object.title).toBe("Spec");

    const global = await c.call(`/rest/api/3/issue/${key}/remotelink`, { method: "POST", body: { globalId: "doc=1", object: { url: "https://example.com/a", title: "A" } } });
    expect(global.status).toBe(201);
    const replaced = await c.call(`/rest/api/3/issue/${key}/remotelink`, { method: "POST", body: { globalId: "doc=1", object: { url: "https://example.com/b", title: "B" } } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.id).toBe(global.body.id);
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink?globalId=doc%3D1`)).body.object).toMatchObject({ url: "https://example.com/b", title: "B" });
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink`)).body).toHaveLength(2);

    const invalid = await c.call(`/rest/api/3/issue/${key}/remotelink`, { method: "POST", body: { object: { url: "" } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ errorMessages: [], errors: { url: "'url' is required.", title: "'title' is required." } });
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink/${global.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await c.call(`/rest/api/3/issue/${key}/remotelink/${global.body.id}`)).status).toBe(404);
  });
});
