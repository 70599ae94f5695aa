import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { allV1, allV2, client, type Api } from "./test-client";

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  sandbox = await startSandbox();
  api = client(sandbox);
});
afterAll(() => sandbox.close());

const spaceByKey = async (key: string) => (await api(`/wiki/api/v2/spaces?keys=${key}`)).body.results[0];

describe("v2 reads", () => {
  it("pages through spaces by cursor with a Link header", async () => {
    const first = await api("/wiki/api/v2/spaces?limit=1");
    expect(first.body._links.next).toMatch(/^\/wiki\/api\/v2\/spaces\?limit=1&cursor=/);
    expect(first.headers.get("link")).toBe(`<${first.body._links.next}>; rel="next", <${sandbox.url}/wiki>; rel="base"`);
    const spaces = await allV2(api, "/wiki/api/v2/spaces?limit=1");
    expect(spaces.map((s) => s.key).sort()).toEqual(["ENG", "HR", "OPS", "PROD"]);
    expect(new Set(spaces.map((s) => s.id)).size).toBe(4);
    for (const s of spaces)
      expect(s).toMatchObject({ type: "global", status: "current", homepageId: expect.any(String), _links: { webui: `/spaces/${s.key}` } });
    const one = await api(`/wiki/api/v2/spaces/${spaces[0].id}?description-format=plain`);
    expect(one.body.description.plain.value.length).toBeGreaterThan(10);
    const filtered = await api("/wiki/api/v2/spaces?keys=OPS,HR");
    expect(filtered.body.results.map((s: any) => s.key).sort()).toEqual(["HR", "OPS"]);
  });

  it("pages through all 200 pages by cursor with no duplicate or missing id", async () => {
    for (const limit of [7, 25, 250]) {
      const pages = await allV2(api, `/wiki/api/v2/pages?limit=${limit}`);
      const ids = pages.map((p) => p.id);
      expect(ids).toHaveLength(200);
      expect(new Set(ids).size).toBe(200);
      expect(ids).toEqual([...ids].sort((a, b) => Number(a) - Number(b)));
    }
    let total = 0;
    for (const key of ["ENG", "OPS", "PROD", "HR"]) {
      const space = await spaceByKey(key);
      const inSpace = await allV2(api, `/wiki/api/v2/spaces/${space.id}/pages?limit=11`);
      for (const p of inSpace) expect(p.spaceId).toBe(space.id);
      total += inSpace.length;
      const bySpaceId = await allV2(api, `/wiki/api/v2/pages?space-id=${space.id}&limit=50`);
      expect(bySpaceId.map((p) => p.id)).toEqual(inSpace.map((p) => p.id));
    }
    expect(total).toBe(200);
  });

  it("returns a page in storage, ADF and view formats", async () => {
    const space = await spaceByKey("ENG");
    const storage = await api(`/wiki/api/v2/pages/${space.homepageId}?body-format=storage`);
    expect(storage.body).toMatchObject({
      id: space.homepageId,
      title: "Engineering Home",
      spaceId: space.id,
      parentId: null,
      version: { number: expect.any(Number), authorId: expect.any(String) },
    });
    expect(storage.body.body.storage).toMatchObject({ representation: "storage", value: expect.stringContaining("<h1>") });
    const adf = await api(`/wiki/api/v2/pages/${space.homepageId}?body-format=atlas_doc_format`);
    const doc = JSON.parse(adf.body.body.atlas_doc_format.value);
    expect(doc).toMatchObject({ type: "doc", version: 1 });
    expect(doc.content[0]).toMatchObject({ type: "heading", attrs: { level: 1 } });
    const view = await api(`/wiki/api/v2/pages/${space.homepageId}?body-format=view`);
    expect(view.body.body.view.representation).toBe("view");
    const none = await api(`/wiki/api/v2/pages/${space.homepageId}`);
    expect(none.body.body).toEqual({});
    const bad = await api(`/wiki/api/v2/pages/${space.homepageId}?body-format=wiki`);
    expect(bad.status).toBe(400);
  });

  it("serves children, ancestors, labels, versions, footer comments and blog posts", async () => {
    const space = await spaceByKey("OPS");
    const sections = await allV2(api, `/wiki/api/v2/pages/${space.homepageId}/children?limit=2`);
    expect(sections.length).toBeGreaterThanOrEqual(4);
    expect(sections.map((s) => s.childPosition)).toEqual(sections.map((_, i) => i));
    const direct = await allV2(api, `/wiki/api/v2/pages/${space.homepageId}/direct-children`);
    expect(direct.map((d) => d.id)).toEqual(sections.map((s) => s.id));
    const grand = (await api(`/wiki/api/v2/pages/${sections[0].id}/children?limit=1`)).body.results[0];
    const detail = (await api(`/wiki/api/v2/pages/${grand.id}`)).body;
    expect(detail.parentId).toBe(sections[0].id);
    const ancestors = await api(`/wiki/api/v2/pages/${grand.id}/ancestors`);
    expect(ancestors.body.results).toEqual([
      { id: space.homepageId, type: "page" },
      { id: sections[0].id, type: "page" },
    ]);
    const labels = await api(`/wiki/api/v2/pages/${sections[0].id}/labels`);
    expect(labels.body.results[0]).toMatchObject({ id: expect.any(String), name: expect.any(String), prefix: "global" });
    const versions = await allV2(api, `/wiki/api/v2/pages/${grand.id}/versions`);
    expect(versions[0].number).toBe(detail.version.number);
    expect(versions.map((v) => v.number)).toEqual(Array.from({ length: detail.version.number }, (_, i) => detail.version.number - i));

    const commented = (await api(`/wiki/rest/api/search?cql=${encodeURIComponent("type = comment")}&limit=1&expand=content.container`)).body
      .results[0].content;
    const container = commented.container;
    const comments = await allV2(
      api,
      `/wiki/api/v2/${container.type === "page" ? "pages" : "blogposts"}/${container.id}/footer-comments?body-format=storage`,
    );
    expect(comments.length).toBeGreaterThan(0);
    expect(comments[0]).toMatchObject({
      status: "current",
      title: `Re: ${container.title}`,
      version: { number: 1 },
      body: { storage: { representation: "storage" } },
    });

    const blogs = await allV2(api, "/wiki/api/v2/blogposts?limit=3");
    expect(blogs).toHaveLength(8);
    expect(blogs[0]._links.webui).toMatch(/^\/spaces\/[A-Z]+\/blog\/\d{4}\/\d{2}\/\d{2}\/\d+\//);
  });

  it("answers unknown ids and bad cursors in the v2 error shape", async () => {
    const page = await api("/wiki/api/v2/pages/123");
    expect(page.status).toBe(404);
    expect(page.body).toEqual({ errors: [{ status: 404, code: "NOT_FOUND", title: "Not Found", detail: null }] });
    expect((await api("/wiki/api/v2/spaces/1")).status).toBe(404);
    const cursor = await api("/wiki/api/v2/pages?cursor=%%%");
    expect(cursor.status).toBe(400);
    expect(cursor.body.errors[0].status).toBe(400);
  });
});

describe("writes", () => {
  afterEach(() => sandbox.reset());

  it("creates a v1 page under a parent, updates it with the next version and refuses a stale one", async () => {
    const { body: space } = await api("/wiki/rest/api/space/ENG");
    const parentId = space._expandable.homepage.split("/").pop();
    const created = await api("/wiki/rest/api/content", {
      method: "POST",
      body: {
        type: "page",
        title: "Sandbox test page",
        space: { key: "ENG" },
        ancestors: [{ id: parentId }],
        body: { storage: { value: "<p>Hello sandbox</p>", representation: "storage" } },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      type: "page",
      title: "Sandbox test page",
      version: { number: 1 },
      space: { key: "ENG" },
      body: { storage: { value: "<p>Hello sandbox</p>" } },
    });
    expect(created.body.ancestors.map((a: any) => a.id)).toEqual([parentId]);
    const id = created.body.id;
    const children = await allV1(api, sandbox, `/wiki/rest/api/content/${parentId}/child/page?limit=50`);
    expect(children.map((c) => c.id)).toContain(id);

    const duplicate = await api("/wiki/rest/api/content", {
      method: "POST",
      body: { type: "page", title: "Sandbox test page", space: { key: "ENG" } },
    });
    expect(duplicate.status).toBe(400);

    const update = (number: number, value: string) =>
      api(`/wiki/rest/api/content/${id}`, {
        method: "PUT",
        body: {
          type: "page",
          title: "Sandbox test page",
          version: { number, message: "edit" },
          body: { storage: { value, representation: "storage" } },
        },
      });
    const ok = await update(2, "<p>Second</p>");
    expect(ok.status).toBe(200);
    expect(ok.body.version).toMatchObject({ number: 2, message: "edit" });
    const stale = await update(2, "<p>Stale</p>");
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ statusCode: 409, message: "Version must be incremented on update. Current version is: 2" });
    const read = await api(`/wiki/rest/api/content/${id}?expand=body.storage,version`);
    expect(read.body.body.storage.value).toBe("<p>Second</p>");
    const found = await api(`/wiki/rest/api/content/search?cql=${encodeURIComponent('text ~ "second" and space = ENG')}`);
    expect(found.body.results.map((c: any) => c.id)).toContain(id);

    expect((await api(`/wiki/rest/api/content/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/wiki/rest/api/content/${id}`)).status).toBe(404);
    expect((await api(`/wiki/rest/api/content/${id}?status=trashed`)).body.status).toBe("trashed");
  });

  it("creates, updates, conflicts and deletes a v2 page", async () => {
    const space = await spaceByKey("PROD");
    const created = await api("/wiki/api/v2/pages", {
      method: "POST",
      body: {
        spaceId: space.id,
        status: "current",
        title: "V2 page",
        parentId: space.homepageId,
        body: { representation: "storage", value: "<p>v2</p>" },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      title: "V2 page",
      spaceId: space.id,
      parentId: space.homepageId,
      version: { number: 1 },
      body: { storage: { value: "<p>v2</p>" } },
    });
    const id = created.body.id;
    const child = await api("/wiki/api/v2/pages", {
      method: "POST",
      body: { spaceId: space.id, title: "V2 child", parentId: id, body: { representation: "storage", value: "<p>child</p>" } },
    });
    expect(child.status).toBe(200);

    const put = (number: number) =>
      api(`/wiki/api/v2/pages/${id}`, {
        method: "PUT",
        body: {
          id,
          status: "current",
          title: "V2 page renamed",
          body: { representation: "storage", value: "<p>v2 again</p>" },
          version: { number, message: "rename" },
        },
      });
    const ok = await put(2);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ title: "V2 page renamed", version: { number: 2, message: "rename" } });
    const stale = await put(2);
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({
      status: 409,
      code: "CONFLICT",
      title: "Version must be incremented on update. Current version is: 2",
    });

    expect((await api(`/wiki/api/v2/pages/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/wiki/api/v2/pages/${id}`)).status).toBe(404);
    // Its child moved up to the homepage.
    expect((await api(`/wiki/api/v2/pages/${child.body.id}`)).body.parentId).toBe(space.homepageId);
    expect((await api(`/wiki/api/v2/pages/${id}?purge=true`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/wiki/api/v2/pages/${id}?status=trashed`)).status).toBe(404);
    const total = await allV2(api, "/wiki/api/v2/pages?limit=250");
    expect(total).toHaveLength(201);
  });

  it("adds and removes labels", async () => {
    const id = (await api("/wiki/api/v2/pages?limit=3")).body.results[2].id;
    const added = await api(`/wiki/rest/api/content/${id}/label`, {
      method: "POST",
      body: [
        { prefix: "global", name: "sandbox-label" },
        { prefix: "global", name: "second" },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body.results.map((l: any) => l.name)).toEqual(expect.arrayContaining(["sandbox-label", "second"]));
    const search = await api(`/wiki/rest/api/content/search?cql=${encodeURIComponent("label = sandbox-label")}`);
    expect(search.body.results.map((c: any) => c.id)).toEqual([id]);
    expect((await api(`/wiki/api/v2/pages/${id}/labels`)).body.results.map((l: any) => l.name)).toContain("sandbox-label");
    expect(
      (await api(`/wiki/rest/api/content/${id}/label`, { method: "POST", body: [{ prefix: "global", name: "has space" }] })).status,
    ).toBe(400);
    expect((await api(`/wiki/rest/api/content/${id}/label/sandbox-label`, { method: "DELETE" })).status).toBe(204);
    const after = await api(`/wiki/rest/api/content/${id}/label`);
    expect(after.body.results.map((l: any) => l.name)).not.toContain("sandbox-label");
    expect((await api(`/wiki/rest/api/content/${id}/label/sandbox-label`, { method: "DELETE" })).status).toBe(404);
  });

  it("adds footer comments and replies", async () => {
    const id = (await api("/wiki/api/v2/pages?limit=5")).body.results[4].id;
    const before = (await allV1(api, sandbox, `/wiki/rest/api/content/${id}/child/comment?depth=all`)).length;
    const comment = await api("/wiki/rest/api/content", {
      method: "POST",
      body: {
        type: "comment",
        container: { id, type: "page" },
        body: { storage: { value: "<p>Nice page</p>", representation: "storage" } },
      },
    });
    expect(comment.status).toBe(200);
    expect(comment.body).toMatchObject({ type: "comment", container: { id }, extensions: { location: "footer" } });
    const reply = await api("/wiki/rest/api/content", {
      method: "POST",
      body: {
        type: "comment",
        container: { id, type: "page" },
        ancestors: [{ id: comment.body.id }],
        body: { storage: { value: "<p>Agreed</p>", representation: "storage" } },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.ancestors.map((a: any) => a.id)).toEqual([comment.body.id]);
    const all = await allV1(api, sandbox, `/wiki/rest/api/content/${id}/child/comment?depth=all&expand=body.storage`);
    expect(all).toHaveLength(before + 2);
    const roots = await allV1(api, sandbox, `/wiki/rest/api/content/${id}/child/comment`);
    expect(roots.map((c) => c.id)).toContain(comment.body.id);
    expect(roots.map((c) => c.id)).not.toContain(reply.body.id);
    const v2 = await allV2(api, `/wiki/api/v2/pages/${id}/footer-comments?body-format=storage`);
    expect(v2.find((c) => c.id === comment.body.id)).toMatchObject({ pageId: id, body: { storage: { value: "<p>Nice page</p>" } } });
    const replies = await api(`/wiki/api/v2/footer-comments/${comment.body.id}/children`);
    expect(replies.body.results.map((c: any) => c.id)).toEqual([reply.body.id]);
    expect((await api(`/wiki/rest/api/content/${comment.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await allV1(api, sandbox, `/wiki/rest/api/content/${id}/child/comment?depth=all`)).toHaveLength(before);
    const missing = await api("/wiki/rest/api/content", {
      method: "POST",
      body: { type: "comment", container: { id: "1", type: "page" }, body: { storage: { value: "<p>x</p>", representation: "storage" } } },
    });
    expect(missing.status).toBe(404);
  });

  it("keeps cursors stable across an insert", async () => {
    const first = await api("/wiki/api/v2/pages?limit=50&sort=title");
    const space = await spaceByKey("HR");
    await api("/wiki/api/v2/pages", {
      method: "POST",
      body: { spaceId: space.id, title: "AAA first by title", body: { representation: "storage", value: "<p>a</p>" } },
    });
    const rest = await allV2(api, first.body._links.next);
    const ids = [...first.body.results, ...rest].map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(200);
  });

  it("reset restores the seed", async () => {
    const space = await spaceByKey("HR");
    await api("/wiki/api/v2/pages", {
      method: "POST",
      body: { spaceId: space.id, title: "Temporary", body: { representation: "storage", value: "<p>t</p>" } },
    });
    sandbox.reset();
    expect(await allV2(api, "/wiki/api/v2/pages?limit=250")).toHaveLength(200);
  });
});
