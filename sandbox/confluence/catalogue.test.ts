import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { allV2, client, type Api } from "./test-client";

/** The endpoints the catalogue tools added: descendants, move, versions, comments (inline too), attachments. */

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  sandbox = await startSandbox();
  api = client(sandbox);
});
afterAll(() => sandbox.close());

const space = async (key: string) => (await api(`/wiki/api/v2/spaces?keys=${key}`)).body.results[0];
let n = 0;
const createPage = async (spaceId: string, parentId: string | null, value = "<p>x</p>") => {
  const res = await api("/wiki/api/v2/pages", {
    method: "POST",
    body: { spaceId, title: `Catalogue page ${++n}`, ...(parentId ? { parentId } : {}), body: { representation: "storage", value } },
  });
  expect(res.status).toBe(200);
  return res.body as { id: string; title: string; parentId: string | null };
};

describe("page trees", () => {
  it("lists descendants to a depth with their parent and depth, paged by cursor", async () => {
    const eng = await space("ENG");
    const all = await allV2(api, `/wiki/api/v2/pages/${eng.homepageId}/descendants?limit=7`);
    const pages = await allV2(api, `/wiki/api/v2/spaces/${eng.id}/pages?limit=250`);
    // Every ENG page but the homepage sits under it (the seed's depth is at most 5).
    expect(all.map((d) => d.id).sort()).toEqual(
      pages
        .filter((p) => p.id !== eng.homepageId)
        .map((p) => p.id)
        .sort(),
    );
    for (const d of all)
      expect(d).toMatchObject({
        status: "current",
        type: "page",
        parentId: expect.any(String),
        depth: expect.any(Number),
        childPosition: expect.any(Number),
      });
    const byId = new Map(all.map((d) => [d.id, d]));
    for (const d of all) expect(d.depth).toBe(d.parentId === eng.homepageId ? 1 : byId.get(d.parentId).depth + 1);
    const shallow = await allV2(api, `/wiki/api/v2/pages/${eng.homepageId}/descendants?depth=1`);
    expect(shallow.map((d) => d.id)).toEqual((await allV2(api, `/wiki/api/v2/pages/${eng.homepageId}/children`)).map((c) => c.id));
    expect((await api("/wiki/api/v2/pages/1/descendants")).status).toBe(404);
  });

  it("moves a page: append under a target, before or after it; refuses a cycle and a bad position", async () => {
    const eng = await space("ENG");
    const a = await createPage(eng.id, eng.homepageId);
    const b = await createPage(eng.id, eng.homepageId);
    const c = await createPage(eng.id, b.id);
    const moved = await api(`/wiki/rest/api/content/${a.id}/move/append/${b.id}`, { method: "PUT" });
    expect(moved).toMatchObject({ status: 200, body: { pageId: a.id } });
    const children = async (id: string) => (await allV2(api, `/wiki/api/v2/pages/${id}/children`)).map((x) => [x.id, x.childPosition]);
    expect(await children(b.id)).toEqual([
      [c.id, 0],
      [a.id, 1],
    ]);
    expect((await api(`/wiki/rest/api/content/${a.id}/move/before/${c.id}`, { method: "PUT" })).status).toBe(200);
    expect(await children(b.id)).toEqual([
      [a.id, 0],
      [c.id, 1],
    ]);
    expect((await api(`/wiki/rest/api/content/${a.id}/move/after/${b.id}`, { method: "PUT" })).status).toBe(200);
    const top = (await children(eng.homepageId)).map(([id]) => id);
    expect(top.indexOf(a.id)).toBe(top.indexOf(b.id) + 1);
    expect((await api(`/wiki/api/v2/pages/${a.id}`)).body.parentId).toBe(eng.homepageId);

    const cycle = await api(`/wiki/rest/api/content/${b.id}/move/append/${c.id}`, { method: "PUT" });
    expect(cycle).toMatchObject({ status: 400, body: { statusCode: 400, message: expect.stringContaining("descendants") } });
    expect((await api(`/wiki/rest/api/content/${a.id}/move/inside/${b.id}`, { method: "PUT" })).status).toBe(400);
    expect((await api(`/wiki/rest/api/content/${a.id}/move/append/1`, { method: "PUT" })).status).toBe(404);

    // Another space: the subtree goes along.
    const hr = await space("HR");
    expect((await api(`/wiki/rest/api/content/${b.id}/move/append/${hr.homepageId}`, { method: "PUT" })).status).toBe(200);
    expect((await api(`/wiki/api/v2/pages/${c.id}`)).body.spaceId).toBe(hr.id);
  });
});

describe("page versions", () => {
  it("reads a page as it was at an earlier version; an unknown version is 404", async () => {
    const eng = await space("ENG");
    const page = await createPage(eng.id, null, "<p>first</p>");
    const put = await api(`/wiki/api/v2/pages/${page.id}`, {
      method: "PUT",
      body: {
        id: page.id,
        status: "current",
        title: `${page.title} renamed`,
        version: { number: 2, message: "second" },
        body: { representation: "storage", value: "<p>second</p>" },
      },
    });
    expect(put.status).toBe(200);
    const v1 = await api(`/wiki/api/v2/pages/${page.id}?version=1&body-format=storage`);
    expect(v1.body).toMatchObject({ id: page.id, title: page.title, version: { number: 1 }, body: { storage: { value: "<p>first</p>" } } });
    const v2 = await api(`/wiki/api/v2/pages/${page.id}?version=2&body-format=storage`);
    expect(v2.body).toMatchObject({
      title: `${page.title} renamed`,
      version: { number: 2, message: "second" },
      body: { storage: { value: "<p>second</p>" } },
    });
    expect((await api(`/wiki/api/v2/pages/${page.id}?version=3`)).status).toBe(404);
    expect((await api(`/wiki/api/v2/pages/${page.id}?version=x`)).status).toBe(404);
    const versions = await allV2(api, `/wiki/api/v2/pages/${page.id}/versions?limit=1`);
    expect(versions.map((v) => v.number)).toEqual([2, 1]);

    // A seeded page's current text survives an update as the text of its old version.
    const seeded = (await allV2(api, `/wiki/api/v2/spaces/${eng.id}/pages?limit=250&body-format=storage`)).find(
      (p) => p.version.number >= 2,
    )!;
    const at = seeded.version.number;
    await api(`/wiki/api/v2/pages/${seeded.id}`, {
      method: "PUT",
      body: {
        id: seeded.id,
        status: "current",
        title: seeded.title,
        version: { number: at + 1 },
        body: { representation: "storage", value: "<p>new</p>" },
      },
    });
    expect((await api(`/wiki/api/v2/pages/${seeded.id}?version=${at}&body-format=storage`)).body.body.storage.value).toBe(
      seeded.body.storage.value,
    );
    expect((await api(`/wiki/api/v2/pages/${seeded.id}?version=1&body-format=storage`)).body.body.storage.value).toBe(
      seeded.body.storage.value,
    );
  });
});

describe("comments", () => {
  it("creates footer and inline comments and replies (v2); inline ones mark the page, list apart, resolve", async () => {
    const eng = await space("ENG");
    const page = await createPage(
      eng.id,
      null,
      '<p>One fish, two fish.</p><ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[fish]]></ac:plain-text-body></ac:structured-macro>',
    );
    const footer = await api("/wiki/api/v2/footer-comments", {
      method: "POST",
      body: { pageId: page.id, body: { representation: "storage", value: "<p>Nice</p>" } },
    });
    expect(footer).toMatchObject({ status: 200, body: { pageId: page.id, body: { storage: { value: "<p>Nice</p>" } } } });
    expect(footer.body.resolutionStatus).toBeUndefined();
    const reply = await api("/wiki/api/v2/footer-comments", {
      method: "POST",
      body: { parentCommentId: footer.body.id, body: { representation: "storage", value: "<p>Yes</p>" } },
    });
    expect(reply.body).toMatchObject({ pageId: page.id, parentCommentId: footer.body.id });

    const select = (props: Record<string, unknown>) =>
      api("/wiki/api/v2/inline-comments", {
        method: "POST",
        body: { pageId: page.id, body: { representation: "storage", value: "<p>Which?</p>" }, inlineCommentProperties: props },
      });
    expect((await select({ textSelection: "fish", textSelectionMatchCount: 3, textSelectionMatchIndex: 0 })).body.errors[0].title).toBe(
      "textSelectionMatchCount does not match the page",
    );
    expect((await select({ textSelection: "cat", textSelectionMatchCount: 1, textSelectionMatchIndex: 0 })).status).toBe(400);
    expect((await select({ textSelection: "fish", textSelectionMatchCount: 2, textSelectionMatchIndex: 2 })).body.errors[0].title).toBe(
      "textSelectionMatchIndex is out of range",
    );
    const inline = await select({ textSelection: "fish", textSelectionMatchCount: 2, textSelectionMatchIndex: 1 });
    expect(inline.body).toMatchObject({
      pageId: page.id,
      resolutionStatus: "open",
      properties: { inlineOriginalSelection: "fish", inlineMarkerRef: expect.any(String) },
    });
    const stored = await api(`/wiki/api/v2/pages/${page.id}?body-format=storage`);
    expect(stored.body.body.storage.value).toBe(
      `<p>One fish, two <ac:inline-comment-marker ac:ref="${inline.body.properties.inlineMarkerRef}">fish</ac:inline-comment-marker>.</p><ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[fish]]></ac:plain-text-body></ac:structured-macro>`,
    );
    expect(stored.body.version.number).toBe(1);

    const inlineReply = await api("/wiki/api/v2/inline-comments", {
      method: "POST",
      body: { parentCommentId: inline.body.id, body: { representation: "storage", value: "<p>The second</p>" } },
    });
    expect(inlineReply.body).toMatchObject({ parentCommentId: inline.body.id, properties: { inlineOriginalSelection: "fish" } });
    expect((await allV2(api, `/wiki/api/v2/pages/${page.id}/footer-comments`)).map((c) => c.id)).toEqual([footer.body.id]);
    expect((await allV2(api, `/wiki/api/v2/pages/${page.id}/inline-comments`)).map((c) => c.id)).toEqual([inline.body.id]);
    expect((await allV2(api, `/wiki/api/v2/inline-comments/${inline.body.id}/children`)).map((c) => c.id)).toEqual([inlineReply.body.id]);
    expect((await api(`/wiki/api/v2/footer-comments/${inline.body.id}`)).status).toBe(404);
    expect((await api(`/wiki/api/v2/inline-comments/${inline.body.id}`)).body.id).toBe(inline.body.id);

    const resolved = await api(`/wiki/api/v2/inline-comments/${inline.body.id}`, {
      method: "PUT",
      body: { version: { number: 2 }, body: { representation: "storage", value: "<p>Which?</p>" }, resolved: true },
    });
    expect(resolved.body).toMatchObject({ resolutionStatus: "resolved", version: { number: 2 } });
    expect(await allV2(api, `/wiki/api/v2/pages/${page.id}/inline-comments?resolution-status=open`)).toEqual([]);
    const stale = await api(`/wiki/api/v2/inline-comments/${inline.body.id}`, {
      method: "PUT",
      body: { version: { number: 2 }, resolved: false },
    });
    expect(stale.status).toBe(409);
    expect(
      (await api(`/wiki/api/v2/inline-comments/${inline.body.id}`, { method: "PUT", body: { version: { number: 3 }, resolved: false } }))
        .body.resolutionStatus,
    ).toBe("reopened");
    const v1 = await api(`/wiki/rest/api/content/${page.id}/child/comment?location=inline`);
    expect(v1.body.results.map((c: { id: string }) => c.id)).toEqual([inline.body.id]);
    expect(v1.body.results[0].extensions).toMatchObject({
      location: "inline",
      inlineProperties: { originalSelection: "fish" },
      resolution: { status: "reopened" },
    });
  });
});

describe("attachments", () => {
  const upload = (pageId: string, form: FormData, token = true) =>
    fetch(`${sandbox.url}/wiki/rest/api/content/${pageId}/child/attachment`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${sandbox.credentials.atlassian.email}:${sandbox.credentials.atlassian.apiToken}`).toString("base64")}`,
        ...(token ? { "x-atlassian-token": "nocheck" } : {}),
      },
      body: form,
    });

  it("uploads (multipart, XSRF header required), refuses a taken name, lists by cursor and downloads the same bytes", async () => {
    const eng = await space("ENG");
    const page = await createPage(eng.id, null);
    const bytes = Uint8Array.from({ length: 700 }, (_, i) => (i * 31) % 256);
    const form = () => {
      const f = new FormData();
      f.append("file", new Blob([bytes], { type: "image/png" }), "pic.png");
      f.append("comment", "a picture");
      return f;
    };
    expect((await upload(page.id, form(), false)).status).toBe(403);
    const res = await upload(page.id, form());
    expect(res.status).toBe(200);
    const made = ((await res.json()) as { results: any[] }).results[0];
    expect(made).toMatchObject({
      id: expect.stringMatching(/^att\d+$/),
      type: "attachment",
      title: "pic.png",
      container: { id: page.id },
      extensions: { mediaType: "image/png", fileSize: 700, comment: "a picture" },
    });
    const taken = await upload(page.id, form());
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as { message: string }).message).toMatch(/same file name as an existing attachment: pic\.png/);
    const second = new FormData();
    second.append("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    expect((await upload(page.id, second)).status).toBe(200);
    const empty = new FormData();
    empty.append("comment", "no file");
    expect((await upload(page.id, empty)).status).toBe(400);
    expect((await upload("1", form())).status).toBe(404);

    const listed = await allV2(api, `/wiki/api/v2/pages/${page.id}/attachments?limit=1`);
    expect(listed.map((a) => a.title)).toEqual(["pic.png", "hello.txt"]);
    expect(listed[0]).toMatchObject({
      id: made.id,
      pageId: page.id,
      mediaType: "image/png",
      fileSize: 700,
      comment: "a picture",
      downloadLink: expect.stringMatching(new RegExp(`^/download/attachments/${page.id}/pic\\.png\\?version=1&`)),
      _links: { download: expect.any(String), webui: expect.any(String) },
    });
    expect((await allV2(api, `/wiki/api/v2/pages/${page.id}/attachments?mediaType=text/plain`)).map((a) => a.title)).toEqual(["hello.txt"]);
    const file = await fetch(`${sandbox.url}/wiki${listed[0].downloadLink}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${sandbox.credentials.atlassian.email}:${sandbox.credentials.atlassian.apiToken}`).toString("base64")}`,
      },
    });
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect((await api(`/wiki/api/v2/pages/1/attachments`)).status).toBe(404);
  });
});
