// @pglite-only: sandbox
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_COUNT } from "../confluence/seed";
import { startSandbox, type Sandbox } from "../server";
import { DEFAULT_PEOPLE } from "./people";
import { basic, caller } from "./testkit";

/**
 * Confluence as a person: the same CQL finds only the pages of the spaces they may see (totals
 * included), spaces and pages elsewhere are not found, writes there are refused, and what they
 * write is theirs. One Atlassian account: the same account id as in Jira.
 */

let sandbox: Sandbox;
const { call } = caller(() => sandbox);
const [priya, marcus] = DEFAULT_PEOPLE as [(typeof DEFAULT_PEOPLE)[0], (typeof DEFAULT_PEOPLE)[0]];
const PRIYA = basic(priya.email, priya.apiToken);
const MARCUS = basic(marcus.email, marcus.apiToken);
const SERVICE = basic("demo@bridgekeeper.test", "sandbox-api-token");
const cql = (q: string) => `/wiki/rest/api/search?cql=${encodeURIComponent(q)}&limit=100&expand=content.space`;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

/** A current page of a space, as the service account lists it. */
const pageIn = async (space: string): Promise<{ id: string; title: string }> =>
  (await call(`/wiki/rest/api/content?spaceKey=${space}&type=page&limit=1`, { auth: SERVICE })).body.results[0];

describe("what each person sees in Confluence", () => {
  it("answers the same CQL with each person's spaces only (totals too), and the service account with every space", async () => {
    const total = async (auth: string, q = "type = page") => (await call(cql(q), { auth })).body.totalSize as number;
    const all = await total(SERVICE);
    expect(all).toBe(PAGE_COUNT);
    const hers = await call(cql("type = page order by title"), { auth: PRIYA });
    const his = await call(cql("type = page order by title"), { auth: MARCUS });
    expect(new Set(hers.body.results.map((r: any) => r.content.space.key))).toEqual(new Set(["ENG", "PROD"]));
    expect(new Set(his.body.results.map((r: any) => r.content.space.key))).toEqual(new Set(["HR", "OPS"]));
    expect(hers.body.totalSize + his.body.totalSize).toBe(all);
    expect(hers.body.totalSize).toBeLessThan(all);
    // content/search filters alike; a space the person may not see finds nothing.
    const content = await call(`/wiki/rest/api/content/search?cql=${encodeURIComponent("type = page")}&limit=1`, { auth: MARCUS });
    expect(content.body.totalSize).toBe(his.body.totalSize);
    expect(await total(PRIYA, "space = OPS")).toBe(0);
    expect(await total(MARCUS, "space = OPS")).toBeGreaterThan(0);
  });

  it("lists only the spaces the person may see (v1 and v2), and not-founds the others", async () => {
    const v1 = await call("/wiki/rest/api/space?limit=50", { auth: PRIYA });
    expect(v1.body.results.map((s: any) => s.key)).toEqual(["ENG", "PROD"]);
    const v2 = await call("/wiki/api/v2/spaces?limit=50", { auth: MARCUS });
    expect(v2.body.results.map((s: any) => s.key).sort()).toEqual(["HR", "OPS"]);
    expect((await call("/wiki/api/v2/spaces?limit=50", { auth: SERVICE })).body.results).toHaveLength(4);
    expect((await call("/wiki/rest/api/space/OPS", { auth: PRIYA })).status).toBe(404);
    const ops = (await call("/wiki/api/v2/spaces?keys=OPS", { auth: SERVICE })).body.results[0];
    expect((await call(`/wiki/api/v2/spaces/${ops.id}`, { auth: PRIYA })).status).toBe(404);
    expect((await call(`/wiki/api/v2/spaces/${ops.id}/pages`, { auth: PRIYA })).status).toBe(404);
    const pages = await call("/wiki/api/v2/pages?limit=250", { auth: PRIYA });
    expect(pages.body.results.every((p: any) => p.spaceId !== ops.id)).toBe(true);
  });

  it("answers a page of another space with 404 (v1 and v2), and the person's own spaces' pages with 200", async () => {
    const ops = await pageIn("OPS");
    for (const path of [
      `/wiki/rest/api/content/${ops.id}`,
      `/wiki/api/v2/pages/${ops.id}`,
      `/wiki/rest/api/content/${ops.id}/child/page`,
    ]) {
      expect((await call(path, { auth: PRIYA })).status, path).toBe(404);
      expect((await call(path, { auth: MARCUS })).status, path).toBe(200);
    }
    const eng = await pageIn("ENG");
    expect((await call(`/wiki/api/v2/pages/${eng.id}`, { auth: PRIYA })).status).toBe(200);
    expect((await call(`/wiki/api/v2/pages/${eng.id}`, { auth: MARCUS })).status).toBe(404);
  });

  it("answers the current user with the person: the same account id as in Jira", async () => {
    const me = await call("/wiki/rest/api/user/current", { auth: PRIYA });
    expect(me.body).toMatchObject({ accountId: priya.accountId, displayName: "Priya Raman", email: priya.email });
    const jira = await call("/rest/api/3/myself", { auth: PRIYA });
    expect(jira.body.accountId).toBe(me.body.accountId);
  });
});

describe("what a person writes in Confluence", () => {
  it("refuses writes in a space the person may not see", async () => {
    const v1 = await call("/wiki/rest/api/content", {
      auth: PRIYA,
      body: {
        type: "page",
        title: "Not my space",
        space: { key: "OPS" },
        body: { storage: { value: "<p>x</p>", representation: "storage" } },
      },
    });
    expect(v1.status).toBe(403);
    const ops = (await call("/wiki/api/v2/spaces?keys=OPS", { auth: SERVICE })).body.results[0];
    const v2 = await call("/wiki/api/v2/pages", {
      auth: PRIYA,
      body: { spaceId: ops.id, title: "Not my space", body: { representation: "storage", value: "<p>x</p>" } },
    });
    expect(v2.status).toBe(403);
    const page = await pageIn("OPS");
    const current = (await call(`/wiki/api/v2/pages/${page.id}`, { auth: SERVICE })).body;
    const update = await call(`/wiki/api/v2/pages/${page.id}`, {
      method: "PUT",
      auth: PRIYA,
      body: {
        id: page.id,
        status: "current",
        title: "Taken over",
        version: { number: current.version.number + 1 },
        body: { representation: "storage", value: "<p>x</p>" },
      },
    });
    expect(update.status).toBe(404);
    expect(
      (
        await call("/wiki/api/v2/footer-comments", {
          auth: PRIYA,
          body: { pageId: page.id, body: { representation: "storage", value: "<p>hi</p>" } },
        })
      ).status,
    ).toBe(400);
    expect((await call(`/wiki/api/v2/pages/${page.id}`, { method: "DELETE", auth: PRIYA })).status).toBe(404);
  });

  it("attributes a page, its new version and a comment to the person", async () => {
    const eng = (await call("/wiki/api/v2/spaces?keys=ENG", { auth: PRIYA })).body.results[0];
    const created = await call("/wiki/api/v2/pages", {
      auth: PRIYA,
      body: { spaceId: eng.id, title: "Written by Priya", body: { representation: "storage", value: "<p>v1</p>" } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ authorId: priya.accountId, version: { number: 1, authorId: priya.accountId } });

    const updated = await call(`/wiki/rest/api/content/${created.body.id}`, {
      method: "PUT",
      auth: SERVICE,
      body: {
        type: "page",
        title: "Written by Priya",
        version: { number: 2 },
        body: { storage: { value: "<p>v2</p>", representation: "storage" } },
      },
    });
    expect(updated.body.version.by.accountId).toBe(sandbox.credentials.atlassian.accountId);
    const again = await call(`/wiki/api/v2/pages/${created.body.id}`, {
      method: "PUT",
      auth: PRIYA,
      body: {
        id: created.body.id,
        status: "current",
        title: "Written by Priya",
        version: { number: 3 },
        body: { representation: "storage", value: "<p>v3</p>" },
      },
    });
    expect(again.body.version).toMatchObject({ number: 3, authorId: priya.accountId });
    const versions = await call(`/wiki/api/v2/pages/${created.body.id}/versions`, { auth: PRIYA });
    expect(versions.body.results.map((v: any) => v.authorId)).toEqual([
      priya.accountId,
      sandbox.credentials.atlassian.accountId,
      priya.accountId,
    ]);

    const comment = await call("/wiki/api/v2/footer-comments", {
      auth: PRIYA,
      body: { pageId: created.body.id, body: { representation: "storage", value: "<p>Noted.</p>" } },
    });
    expect(comment.body.version.authorId).toBe(priya.accountId);
    const v1 = await call(`/wiki/rest/api/content/${created.body.id}?expand=history`, { auth: PRIYA });
    expect(v1.body.history.createdBy.accountId).toBe(priya.accountId);
  });
});
