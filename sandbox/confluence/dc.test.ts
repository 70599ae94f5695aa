import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import type { ConfluenceState, Content } from "./types";
import { ancestorsOf, currentVersion } from "./types";

/**
 * The Confluence Data Center flavour over HTTP: REST v1 under the context path `/dc/confluence`,
 * in DC's shapes (users by username and key, `_links.base`/`context`, `/display/…` links, offset
 * pages with DC's silent caps), over its own copy of the seed.
 */

let sandbox: Sandbox;
type Body = any;
const api = async (
  path: string,
  init: { method?: string; body?: unknown; auth?: string; headers?: Record<string, string>; form?: FormData } = {},
): Promise<{ status: number; body: Body; text: string }> => {
  const res = await fetch(`${sandbox.dataCenter.confluence}${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: init.auth ?? "Bearer sandbox-dc-pat",
      accept: "application/json",
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.form ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
  });
  const text = await res.text();
  let body: Body;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
};
const dc = (): ConfluenceState => sandbox.state("confluence", "datacenter");
const pageWhere = (pick: (c: Content) => boolean): Content => {
  const found = dc().ordered.find((c) => c.type === "page" && c.status === "current" && pick(c));
  if (!found) throw new Error("no such seeded page");
  return found;
};
const cql = (query: string, extra = "") => `cql=${encodeURIComponent(query)}${extra}`;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

describe("spaces, users and the manifest", () => {
  it("pages through the spaces by start/limit, links relative to the context path, ids numeric", async () => {
    const first = await api("/rest/api/space?limit=3");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      start: 0,
      limit: 3,
      size: 3,
      _links: { base: sandbox.dataCenter.confluence, context: "/dc/confluence", next: "/rest/api/space?limit=3&start=3" },
    });
    expect(first.body.results[0]).toEqual({
      id: dc().spaceByKey.get("ENG")!.id,
      key: "ENG",
      name: "Engineering",
      type: "global",
      _links: { webui: "/display/ENG", self: `${sandbox.dataCenter.confluence}/rest/api/space/ENG` },
      _expandable: {
        metadata: "",
        icon: "",
        description: "",
        retentionPolicy: "",
        homepage: `/rest/api/content/${dc().spaceByKey.get("ENG")!.homepageId}`,
      },
    });
    const last = await api(first.body._links.next);
    expect(last.body.results.map((s: Body) => s.key)).toEqual(["PROD"]);
    expect(last.body._links.next).toBeUndefined();
    expect((await api("/rest/api/space/eng?expand=description.plain")).body).toMatchObject({
      key: "ENG",
      description: { plain: { value: dc().spaceByKey.get("ENG")!.description } },
      _links: { base: sandbox.dataCenter.confluence, context: "/dc/confluence", collection: "/rest/api/space" },
    });
  });

  it("a person sees their spaces only (priya.raman: ENG, PROD), by token or Basic; no credentials is DC's 401", async () => {
    for (const auth of ["Bearer sandbox-dc-pat-priya", `Basic ${Buffer.from("Priya.Raman:sandbox-token-priya").toString("base64")}`]) {
      expect((await api("/rest/api/space", { auth })).body.results.map((s: Body) => s.key)).toEqual(["ENG", "PROD"]);
    }
    const ops = await api("/rest/api/space/OPS", { auth: "Bearer sandbox-dc-pat-priya" });
    expect(ops).toMatchObject({ status: 404, body: { statusCode: 404, message: "No space with key : OPS", reason: "Not Found" } });
    expect((await api("/rest/api/space", { auth: "Bearer nope" })).status).toBe(401);
  });

  it("users are DC users: username, userKey, displayName, and no account id; found by key or by username", async () => {
    const me = (await api("/rest/api/user/current")).body;
    expect(me).toMatchObject({
      type: "known",
      username: "demo",
      userKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      displayName: "Demo Admin",
    });
    expect(me.accountId).toBeUndefined();
    expect((await api(`/rest/api/user?key=${me.userKey}`)).body.username).toBe("demo");
    expect((await api("/rest/api/user?username=priya.raman")).body.displayName).toBe("Priya Raman");
    expect((await api("/rest/api/user/current", { auth: "Bearer sandbox-dc-pat-priya" })).body.username).toBe("priya.raman");
    expect((await api("/rest/api/user?username=nobody")).status).toBe(404);
  });

  it("serves the application-links manifest (JSON when asked, XML otherwise) with the product and its version", async () => {
    expect((await api("/rest/applinks/1.0/manifest")).body).toMatchObject({
      name: "Confluence",
      typeId: "confluence",
      version: "9.2.1",
      buildNumber: expect.any(Number),
      applinksVersion: expect.any(String),
      url: sandbox.dataCenter.confluence,
    });
    const xml = await api("/rest/applinks/1.0/manifest", { headers: { accept: "application/xml" } });
    expect(xml.text).toContain("<typeId>confluence</typeId><version>9.2.1</version>");
  });
});

describe("content", () => {
  it("reads a page with DC's expansions: the same data as the Cloud flavour, DC's users and links", async () => {
    const seeded = pageWhere((c) => ancestorsOf(dc(), c).length >= 2);
    const res = await api(`/rest/api/content/${seeded.id}?expand=space,version,ancestors,body.storage`);
    expect(res.body).toMatchObject({
      id: seeded.id,
      type: "page",
      status: "current",
      title: sandbox.state("confluence").content.get(seeded.id)!.title,
      space: { id: dc().spaceByKey.get(seeded.spaceKey)!.id, key: seeded.spaceKey },
      version: { number: currentVersion(seeded).number, by: { type: "known", username: expect.any(String), userKey: expect.any(String) } },
      body: { storage: { value: sandbox.state("confluence").content.get(seeded.id)!.body, representation: "storage" } },
      _links: { base: sandbox.dataCenter.confluence, context: "/dc/confluence", collection: "/rest/api/content" },
    });
    expect(res.body.version.by.accountId).toBeUndefined();
    expect(res.body.ancestors.map((a: Body) => a.id)).toEqual(ancestorsOf(dc(), seeded).map((a) => a.id));
    // Without `expand`: DC's default (history, space, version), the body left in `_expandable`.
    const plain = (await api(`/rest/api/content/${seeded.id}`)).body;
    expect(Object.keys(plain)).toEqual(expect.arrayContaining(["history", "space", "version"]));
    expect(plain._expandable).toHaveProperty("body");
  });

  it("creates and updates a page (next version or DC's 409), moves it by new ancestors; the Cloud flavour does not see it", async () => {
    const parent = pageWhere((c) => c.spaceKey === "HR" && c.parentId !== null);
    const made = await api("/rest/api/content", {
      method: "POST",
      body: {
        type: "page",
        title: "DC only",
        space: { key: "HR" },
        ancestors: [{ id: parent.id }],
        body: { storage: { value: "<p>a</p>", representation: "storage" } },
      },
    });
    expect(made.body).toMatchObject({
      title: "DC only",
      ancestors: [...ancestorsOf(dc(), parent).map((a) => ({ id: a.id })), { id: parent.id }],
    });
    expect(sandbox.state("confluence").content.get(made.body.id)).toBeUndefined();
    const put = (version: number, extra: Record<string, unknown> = {}) =>
      api(`/rest/api/content/${made.body.id}`, {
        method: "PUT",
        body: {
          id: made.body.id,
          type: "page",
          title: "DC only",
          version: { number: version },
          body: { storage: { value: "<p>b</p>", representation: "storage" } },
          ...extra,
        },
      });
    expect((await put(2)).body.version.number).toBe(2);
    expect(await put(2)).toMatchObject({
      status: 409,
      body: { message: "Version must be incremented on update. Current version is: 2", reason: "Conflict" },
    });
    const home = dc().spaceByKey.get("HR")!.homepageId;
    expect((await put(3, { ancestors: [{ id: home }] })).body.ancestors.map((a: Body) => a.id)).toEqual([home]);
    expect(dc().children.get(home)!.at(-1)).toBe(made.body.id);
    // An empty list changes nothing (DC cannot move a page to the top level this way).
    expect((await put(4, { ancestors: [] })).body.ancestors.map((a: Body) => a.id)).toEqual([home]);
    const other = dc().spaceByKey.get("OPS")!.homepageId;
    expect((await put(5, { ancestors: [{ id: other }] })).status).toBe(400);
  });

  it("reads a page at an older version (status=historical&version=N) and lists versions newest first on the experimental API", async () => {
    const page = pageWhere((c) => c.versions.length >= 3);
    const top = currentVersion(page).number;
    const old = await api(`/rest/api/content/${page.id}?status=historical&version=1&expand=version,body.storage`);
    expect(old.body).toMatchObject({ id: page.id, status: "historical", version: { number: 1 } });
    expect((await api(`/rest/api/content/${page.id}?status=historical&version=${top + 1}`)).status).toBe(404);
    const versions = await api(`/rest/experimental/content/${page.id}/version?limit=2`);
    expect(versions.body.results.map((v: Body) => v.number)).toEqual([top, top - 1]);
    expect(versions.body._links.next).toBe(`/rest/experimental/content/${page.id}/version?limit=2&start=2`);
    expect((await api(`/rest/experimental/content/${page.id}/version/1`)).body).toMatchObject({
      number: 1,
      by: { username: expect.any(String) },
    });
  });

  it("comments: top-level or all, by location; replies name their parent in ancestors and are the parent's child comments", async () => {
    const reply = dc().ordered.find(
      (c) => c.type === "comment" && c.parentId !== null && dc().content.get(c.containerId!)?.type === "page",
    )!;
    const pageId = reply.containerId!;
    const top = await api(`/rest/api/content/${pageId}/child/comment?location=footer&expand=ancestors`);
    expect(top.body.results.every((c: Body) => c.ancestors.length === 0 && c.extensions.location === "footer")).toBe(true);
    const all = await api(`/rest/api/content/${pageId}/child/comment?depth=all`);
    expect(all.body.results.map((c: Body) => c.id)).toContain(reply.id);
    const made = await api("/rest/api/content", {
      method: "POST",
      body: {
        type: "comment",
        container: { id: pageId, type: "page" },
        ancestors: [{ id: reply.id }],
        body: { storage: { value: "<p>+1</p>", representation: "storage" } },
      },
    });
    expect(made.body).toMatchObject({ type: "comment", container: { id: pageId }, ancestors: [{ id: reply.parentId }, { id: reply.id }] });
    expect((await api(`/rest/api/content/${reply.id}/child/comment`)).body.results.map((c: Body) => c.id)).toEqual([made.body.id]);
    const elsewhere = pageWhere((c) => c.id !== pageId);
    const wrong = await api("/rest/api/content", {
      method: "POST",
      body: { type: "comment", container: { id: elsewhere.id }, ancestors: [{ id: reply.id }], body: { storage: { value: "<p>x</p>" } } },
    });
    expect(wrong.status).toBe(400);
  });

  it("labels are added, listed and removed (by path or by name)", async () => {
    const page = pageWhere((c) => c.labels.length > 0);
    const added = await api(`/rest/api/content/${page.id}/label`, {
      method: "POST",
      body: [{ prefix: "global", name: "dc-a" }, { name: "dc-b" }],
    });
    expect(added.body.results.map((l: Body) => l.name)).toEqual(expect.arrayContaining(["dc-a", "dc-b"]));
    expect((await api(`/rest/api/content/${page.id}/label/dc-a`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/rest/api/content/${page.id}/label?name=dc-b`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/rest/api/content/${page.id}/label?name=dc-b`, { method: "DELETE" })).status).toBe(404);
    const bad = await api(`/rest/api/content/${page.id}/label`, { method: "POST", body: [{ name: "two words" }] });
    expect(bad.status).toBe(400);
  });
});

describe("search", () => {
  it("content search lowers the limit silently: 50 with a body expanded, 200 with other expansions, 1000 without", async () => {
    const body = await api(`/rest/api/content/search?${cql("type = page order by id")}&limit=100&expand=body.storage`);
    expect(body.body).toMatchObject({ start: 0, limit: 50, size: 50 });
    expect(body.body._links.next).toContain("start=50");
    expect(body.body._links.next).toContain("limit=50");
    const next = await api(body.body._links.next);
    expect(next.body.results[0].id).toBe(dc().ordered.filter((c) => c.type === "page")[50]!.id);
    expect((await api(`/rest/api/content/search?${cql("type = page")}&limit=500&expand=version`)).body).toMatchObject({
      limit: 200,
      size: 200,
    });
    expect((await api(`/rest/api/content/search?${cql("type = page")}&limit=5000`)).body).toMatchObject({ limit: 1000, size: 200 });
  });

  it("site search answers results with highlighted excerpts, DC links and the total; bad CQL is DC's 400", async () => {
    const found = await api(`/rest/api/search?${cql('space = ENG AND text ~ "deploy"')}&limit=3&expand=content.space`);
    expect(found.body).toMatchObject({ start: 0, limit: 3, totalSize: expect.any(Number), cqlQuery: 'space = ENG AND text ~ "deploy"' });
    const first = found.body.results[0];
    expect(first).toMatchObject({
      content: { type: "page", space: { key: "ENG" } },
      url: expect.stringMatching(/^\/(display\/ENG\/|pages\/viewpage\.action\?pageId=)/),
      resultGlobalContainer: { title: "Engineering", displayUrl: "/display/ENG" },
      entityType: "content",
    });
    expect(first.excerpt).toMatch(/@@@hl@@@deploy\w*@@@endhl@@@/i);
    expect((await api(`/rest/api/search?${cql('text ~ "deploy"')}&excerpt=none&limit=1`)).body.results[0].excerpt).toBe("");
    const bad = await api(`/rest/api/search?${cql("space = ")}`);
    expect(bad).toMatchObject({
      status: 400,
      body: { statusCode: 400, reason: "Bad Request", message: expect.stringContaining("Could not parse cql") },
    });
    const priya = await api(`/rest/api/search?${cql("type = page")}&limit=1`, { auth: "Bearer sandbox-dc-pat-priya" });
    expect(priya.body.totalSize).toBe(100);
  });
});

describe("attachments", () => {
  const form = (name: string, text: string) => {
    const f = new FormData();
    f.append("file", new Blob([text], { type: "text/plain" }), name);
    f.append("comment", `about ${name}`);
    return f;
  };

  it("uploads with the XSRF opt-out only, refuses a second file of the same name, and takes new data for an attachment as its next version", async () => {
    const page = pageWhere((c) => c.spaceKey === "ENG");
    const path = `/rest/api/content/${page.id}/child/attachment`;
    expect((await api(path, { method: "POST", form: form("a.txt", "one") })).status).toBe(403);
    const made = await api(path, { method: "POST", form: form("a.txt", "one"), headers: { "x-atlassian-token": "no-check" } });
    const att = made.body.results[0];
    expect(att).toMatchObject({
      type: "attachment",
      title: "a.txt",
      extensions: { fileSize: 3, mediaType: "text/plain", comment: "about a.txt" },
      version: { number: 1 },
    });
    expect(att._links.download).toMatch(new RegExp(`^/download/attachments/${page.id}/a\\.txt\\?version=1&`));
    const again = await api(path, { method: "POST", form: form("a.txt", "two"), headers: { "x-atlassian-token": "no-check" } });
    expect(again).toMatchObject({
      status: 400,
      body: { message: "Cannot add a new attachment with same file name as an existing attachment: a.txt" },
    });
    const updated = await api(`${path}/${att.id}/data`, {
      method: "POST",
      form: form("a.txt", "second"),
      headers: { "x-atlassian-token": "no-check" },
    });
    expect(updated.body).toMatchObject({ id: att.id, version: { number: 2 }, extensions: { fileSize: 6 } });
    const listed = await api(`${path}?filename=a.txt&expand=version`);
    expect(listed.body.results).toEqual([expect.objectContaining({ id: att.id, version: expect.objectContaining({ number: 2 }) })]);
    const download = await fetch(`${sandbox.dataCenter.confluence}${updated.body._links.download}`, {
      headers: { authorization: "Bearer sandbox-dc-pat" },
    });
    expect(await download.text()).toBe("second");
    expect(
      (await api(`${path}/att1/data`, { method: "POST", form: form("a.txt", "x"), headers: { "x-atlassian-token": "no-check" } })).status,
    ).toBe(404);
  });

  it("a person cannot attach to a page in a space they cannot see", async () => {
    const ops = pageWhere((c) => c.spaceKey === "OPS");
    const res = await api(`/rest/api/content/${ops.id}/child/attachment`, {
      method: "POST",
      form: form("b.txt", "x"),
      auth: "Bearer sandbox-dc-pat-priya",
      headers: { "x-atlassian-token": "no-check" },
    });
    expect(res.status).toBe(404);
    expect(dc().attachments.get(ops.id)).toBeUndefined();
  });
});
