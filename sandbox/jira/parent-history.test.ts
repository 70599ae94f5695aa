import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jiraClient, type JiraClient } from "./jira-testkit";

let c: JiraClient;
beforeAll(async () => {
  c = await jiraClient();
});
afterAll(async () => {
  await c.sandbox.close();
});

/** Jira Cloud records a change of parent under one field, whether `parent` or Epic Link set it, and whether it was set or cleared. */
describe("Jira sandbox: a parent's change in the history", () => {
  it("setting and clearing Epic Link, and setting parent, are recorded alike (IssueParentAssociation), with the old and new parent's keys", async () => {
    const create = async (type: string, summary: string) => (await c.call("/rest/api/3/issue", { method: "POST", body: { fields: { project: { key: "BK" }, issuetype: { name: type }, summary } } })).body as { key: string; id: string };
    const [first, second] = [await create("Epic", "First epic"), await create("Epic", "Second epic")];
    const story = await create("Story", "Moves between epics");
    const put = async (fields: Record<string, unknown>) => expect((await c.call(`/rest/api/3/issue/${story.key}`, { method: "PUT", body: { fields } })).status).toBe(204);
    await put({ customfield_10014: first.key });
    await put({ parent: { key: second.key } });
    await put({ customfield_10014: null });
    const histories = (await c.call(`/rest/api/3/issue/${story.key}/changelog`)).body.values as { items: { field: string; fieldId?: string; from: string | null; fromString: string | null; to: string | null; toString: string | null }[] }[];
    const items = histories.flatMap((h) => h.items).filter((i) => /parent|epic/i.test(i.field));
    expect(items).toEqual([
      expect.objectContaining({ field: "IssueParentAssociation", from: null, fromString: null, to: first.id, toString: first.key }),
      expect.objectContaining({ field: "IssueParentAssociation", from: first.id, fromString: first.key, to: second.id, toString: second.key }),
      expect.objectContaining({ field: "IssueParentAssociation", from: second.id, fromString: second.key, to: null, toString: null }),
    ]);
  });
});
