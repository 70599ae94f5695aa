import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { allV1, allV2, client, type Api } from "./test-client";

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  sandbox = await startSandbox();
  api = client(sandbox);
});
afterAll(() => sandbox.close());

const cql = (query: string, extra = "") => `/wiki/rest/api/search?cql=${encodeURIComponent(query)}${extra}`;
const contentCql = (query: string, extra = "") => `/wiki/rest/api/content/search?cql=${encodeURIComponent(query)}${extra}`;

describe("v1 spaces and users", () => {
  it("pages through the spaces with start/limit, following _links.next to the end", async () => {
    const first = await api("/wiki/rest/api/space?limit=1");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      start: 0,
      limit: 1,
      size: 1,
      _links: { base: `${sandbox.url}/wiki`, context: "/wiki", next: "/rest/api/space?limit=1&start=1" },
    });
    const spaces = await allV1(api, sandbox, "/wiki/rest/api/space?limit=1");
    expect(spaces.map((s) => s.key)).toEqual(["ENG", "HR", "OPS", "PROD"]);
    for (const s of spaces) {
      expect(s).toMatchObject({
        type: "global",
        status: "current",
        _links: { webui: `/spaces/${s.key}`, self: `${sandbox.url}/wiki/rest/api/space/${s.key}` },
      });
      expect(typeof s.id).toBe("number");
    }
    const last = await api("/wiki/rest/api/space?start=3&limit=1");
    expect(last.body._links.next).toBeUndefined();
    expect(last.body._links.prev).toBe("/rest/api/space?start=2&limit=1");
  });

  it("returns one space with its description and homepage expanded, and a Confluence 404 for an unknown key", async () => {
    const res = await api("/wiki/rest/api/space/ENG?expand=description.plain,homepage");
    expect(res.status).toBe(200);
    expect(res.body.description.plain.value).toMatch(/engineering/i);
    expect(res.body.homepage).toMatchObject({ type: "page", title: "Engineering Home" });
    const missing = await api("/wiki/rest/api/space/NOPE");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      statusCode: 404,
      data: { authorized: true, valid: true, errors: [], successful: false },
      message: "No space with key : NOPE",
    });
  });

  it("knows the current user", async () => {
    const res = await api("/wiki/rest/api/user/current");
    expect(res.body).toMatchObject({
      type: "known",
      accountId: "5b10ac8d82e05b22cc7d4ef5",
      displayName: "Demo Admin",
      accountType: "atlassian",
    });
  });

  it("asks for credentials", async () => {
    const res = await fetch(`${sandbox.url}/wiki/rest/api/space`);
    expect(res.status).toBe(401);
  });
});

describe("v1 content", () => {
  it("reads a page with body.storage, version, space, ancestors, children and labels expanded", async () => {
    const { body: space } = await api("/wiki/rest/api/space/OPS");
    const homeId = space._expandable.homepage.split("/").pop();
    const children = await api(`/wiki/rest/api/content/${homeId}/child/page`);
    const section = children.body.results[0];
    const grand = (await api(`/wiki/rest/api/content/${section.id}/child/page?limit=1`)).body.results[0];
    const res = await api(
      `/wiki/rest/api/content/${grand.id}?expand=body.storage,body.view,version,space,ancestors,children.page,metadata.labels,history`,
    );
    expect(res.status).toBe(200);
    const page = res.body;
    expect(page).toMatchObject({ id: grand.id, type: "page", status: "current", space: { key: "OPS" }, history: { latest: true } });
    expect(page.body.storage.representation).toBe("storage");
    expect(page.body.storage.value).toMatch(/^<h1>/);
    expect(page.body.view.value).not.toContain('ac:structured-macro ac:name="code"');
    expect(page.version.number).toBeGreaterThanOrEqual(1);
    expect(page.version.by.accountId).toBeTruthy();
    expect(page.ancestors.map((a: any) => a.id)).toEqual([homeId, section.id]);
    expect(page.children.page.results).toBeInstanceOf(Array);
    expect(page.metadata.labels.results.length).toBeGreaterThan(0);
    expect(page._links.webui).toBe(`/spaces/OPS/pages/${grand.id}/${encodeURIComponent(grand.title).replace(/%20/g, "+")}`);
    expect(page._expandable.body).toBeUndefined();
    // Without expand: space, history and version, no body.
    const plain = (await api(`/wiki/rest/api/content/${grand.id}`)).body;
    expect(plain.space.key).toBe("OPS");
    expect(plain.version.number).toBe(page.version.number);
    expect(plain.body).toBeUndefined();
    expect(plain._expandable.body).toBe("");
  });

  it("lists content by space, type and title", async () => {
    const eng = await allV1(api, sandbox, "/wiki/rest/api/content?spaceKey=ENG&limit=20");
    expect(eng).toHaveLength(50);
    expect(new Set(eng.map((c) => c.id)).size).toBe(50);
    const blogs = await api("/wiki/rest/api/content?type=blogpost&limit=50");
    expect(blogs.body.size).toBe(8);
    const titled = await api(`/wiki/rest/api/content?spaceKey=HR&title=${encodeURIComponent("People Home")}&expand=version`);
    expect(titled.body.results).toHaveLength(1);
    expect(titled.body.results[0].version.number).toBeGreaterThanOrEqual(1);
  });

  it("answers unknown content with Confluence's 404 body", async () => {
    const res = await api("/wiki/rest/api/content/42");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, message: "No content found with id: ContentId{id=42}" });
  });

  it("builds a tree: every page of a space is reachable from its homepage through child/page", async () => {
    const { body: space } = await api("/wiki/rest/api/space/PROD");
    const homeId: string = space._expandable.homepage.split("/").pop();
    const seen = new Set<string>([homeId]);
    let depth = 0;
    let level = [homeId];
    while (level.length > 0) {
      const next: string[] = [];
      for (const id of level) {
        for (const child of await allV1(api, sandbox, `/wiki/rest/api/content/${id}/child/page?expand=ancestors&limit=10`)) {
          expect(child.ancestors[child.ancestors.length - 1].id).toBe(id);
          expect(seen.has(child.id)).toBe(false);
          seen.add(child.id);
          next.push(child.id);
        }
      }
      if (next.length > 0) depth++;
      level = next;
    }
    expect(seen.size).toBe(50);
    expect(depth).toBeGreaterThanOrEqual(3);
  });
});

describe("CQL search", () => {
  it("filters by type and space, and pages through every result with no duplicates", async () => {
    const blogs = await api(cql("type = blogpost"));
    expect(blogs.body).toMatchObject({ totalSize: 8, size: 8, cqlQuery: "type = blogpost" });
    const all = await allV1(api, sandbox, cql("type = page AND space = OPS", "&limit=7&expand=content.space"));
    expect(all).toHaveLength(50);
    expect(new Set(all.map((r) => r.content.id)).size).toBe(50);
    for (const r of all) expect(r.content.space.key).toBe("OPS");
    const first = all[0];
    expect(first).toMatchObject({ entityType: "content", resultGlobalContainer: { title: "Operations", displayUrl: "/spaces/OPS" } });
    expect(first.url).toBe(first.content._links.webui);
    expect(typeof first.excerpt).toBe("string");
    const two = await api(cql("space in (ENG, HR) and type = page", "&limit=1"));
    expect(two.body.totalSize).toBe(100);
  });

  it("matches text and title, labels, ancestors and parents", async () => {
    const text = await allV1(api, sandbox, contentCql('text ~ "kubectl"', "&expand=body.storage&limit=50"));
    expect(text.length).toBeGreaterThan(0);
    for (const c of text) expect(c.body.storage.value.toLowerCase()).toContain("kubectl");
    const title = await allV1(api, sandbox, contentCql('title ~ "runbook" and space = OPS', "&limit=50"));
    expect(title.length).toBeGreaterThan(0);
    for (const c of title) expect(c.title.toLowerCase()).toContain("runbook");
    const labelled = await allV1(api, sandbox, contentCql("label = runbook", "&expand=metadata.labels&limit=50"));
    expect(labelled.length).toBeGreaterThan(3);
    for (const c of labelled) expect(c.metadata.labels.results.map((l: any) => l.name)).toContain("runbook");

    const { body: space } = await api("/wiki/rest/api/space/ENG");
    const homeId = space._expandable.homepage.split("/").pop();
    const sections = await allV1(api, sandbox, contentCql(`parent = ${homeId}`, "&limit=50"));
    const direct = await allV1(api, sandbox, `/wiki/rest/api/content/${homeId}/child/page`);
    expect(sections.map((c) => c.id).sort()).toEqual(direct.map((c) => c.id).sort());
    const section = direct[0];
    const under = await allV1(api, sandbox, contentCql(`ancestor = ${section.id}`, "&limit=50"));
    const descendants = await allV1(api, sandbox, `/wiki/rest/api/content/${section.id}/descendant/page`);
    expect(under.map((c) => c.id).sort()).toEqual(descendants.map((c) => c.id).sort());
    const byId = await api(contentCql(`id = ${section.id}`));
    expect(byId.body.results.map((c: any) => c.id)).toEqual([section.id]);
  });

  it("orders, negates, groups and compares dates", async () => {
    const byTitle = await allV1(api, sandbox, cql("space = HR and type = page order by title asc", "&limit=50"));
    const titles = byTitle.map((r) => r.content.title);
    const lower = titles.map((t) => t.toLowerCase());
    expect(lower).toEqual([...lower].sort());
    const recent = await allV1(api, sandbox, cql("type = page order by lastmodified desc", "&limit=100"));
    const stamps = recent.map((r) => r.lastModified);
    expect(stamps).toEqual([...stamps].sort().reverse());
    const notOps = await api(cql("type = page and not space = OPS", "&limit=1"));
    expect(notOps.body.totalSize).toBe(150);
    const grouped = await api(cql("(space = ENG or space = PROD) and type = page", "&limit=1"));
    expect(grouped.body.totalSize).toBe(100);
    const since = await allV1(api, sandbox, cql('type = page and lastmodified >= "2025-12-01"', "&limit=100"));
    expect(since.length).toBeGreaterThan(0);
    for (const r of since) expect(r.lastModified >= "2025-12-01").toBe(true);
    const mine = await allV1(api, sandbox, contentCql("creator = currentUser() and type = page", "&expand=history&limit=100"));
    expect(mine.length).toBeGreaterThan(0);
    for (const c of mine) expect(c.history.createdBy.accountId).toBe("5b10ac8d82e05b22cc7d4ef5");
    const future = await api(cql('lastmodified > now("1d")'));
    expect(future.body.totalSize).toBe(0);
  });

  it("rejects invalid CQL with a 400 in Confluence's error shape", async () => {
    for (const bad of [
      "type =",
      "foo = bar",
      'title ~ "x" order',
      "(type = page",
      "type = page and",
      "space in ENG",
      'lastmodified > "yesterday"',
    ]) {
      const res = await api(cql(bad));
      expect(res.status, bad).toBe(400);
      expect(res.body.statusCode).toBe(400);
      expect(res.body.message).toContain("Could not parse cql");
    }
    const missing = await api("/wiki/rest/api/search");
    expect(missing.status).toBe(400);
  });
});

describe("determinism", () => {
  it("serves the same data for the same seed and different data for another", async () => {
    const twin = await startSandbox();
    const other = await startSandbox({ seed: 7 });
    try {
      const fetchAll = async (s: Sandbox) => {
        const c = client(s);
        const pages = await allV2(c, "/wiki/api/v2/pages?limit=250&body-format=storage");
        const search = (await c(cql('text ~ "rollout" order by title asc', "&limit=100"))).body.results.map((r: any) => [
          r.content.id,
          r.title,
          r.lastModified,
        ]);
        return JSON.stringify({ pages: pages.map((p) => [p.id, p.title, p.parentId, p.version, p.body]), search }).replaceAll(s.url, "");
      };
      const a = await fetchAll(sandbox);
      expect(await fetchAll(twin)).toBe(a);
      expect(await fetchAll(other)).not.toBe(a);
    } finally {
      await twin.close();
      await other.close();
    }
  });
});
