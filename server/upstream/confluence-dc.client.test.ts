import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import type { ConfluenceState, Content } from "../../sandbox/confluence/types";
import { ancestorsOf, currentVersion } from "../../sandbox/confluence/types";
import { systemClock } from "../lib/clock";
import { createConfluenceClient, type ConfluenceClient } from "./confluence.client";
import { createUpstreamHttp, type UpstreamHttp, type UpstreamTarget } from "./http";
import { createUpstreamMeter } from "./meter";
import { collect } from "./paginate";

/**
 * The Confluence client on Data Center (REST v1 under the context path) against the sandbox's DC
 * flavour over loopback: the same methods answer the same (Cloud) shapes as on Cloud, for the same
 * seeded data; a person's token sees only their spaces.
 */
describe("Confluence Data Center client", () => {
  let sandbox: Sandbox;
  let http: UpstreamHttp;
  let dc: ConfluenceClient;
  let cloud: ConfluenceClient;
  const dcTarget = (authorization = "Bearer sandbox-dc-pat"): UpstreamTarget => ({
    baseUrl: sandbox.dataCenter.confluence,
    authorization,
    deployment: "datacenter",
  });
  const clientFor = (target: UpstreamTarget) => createConfluenceClient(http, async () => target);
  const state = (): ConfluenceState => sandbox.state("confluence", "datacenter");
  /** The first current page (in id order) of the DC state that `pick` accepts. */
  const pageWhere = (pick: (c: Content) => boolean): Content => {
    const found = state().ordered.find((c) => c.type === "page" && c.status === "current" && pick(c));
    if (!found) throw new Error("no such seeded page");
    return found;
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    const meter = createUpstreamMeter({ clock: systemClock, hourlyBudget: { atlassian: 100_000, bitbucket: 1000 } });
    http = createUpstreamHttp({ meter, timeoutMs: 5_000, maxAttempts: 1 });
    dc = clientFor(dcTarget());
    const { email, apiToken } = sandbox.credentials.atlassian;
    cloud = clientFor({ baseUrl: `${sandbox.url}/wiki`, authorization: `Basic ${Buffer.from(`${email}:${apiToken}`).toString("base64")}` });
  });
  afterAll(async () => {
    await http.close();
    await sandbox.close();
  });
  beforeEach(() => sandbox.reset());

  describe("spaces", () => {
    it("lists the spaces (ids as strings, DC's /display links), counts them, and finds one by key; an unknown key is undefined", async () => {
      const spaces = await collect(dc.spaces());
      expect(spaces.map((s) => s.key)).toEqual(["ENG", "HR", "OPS", "PROD"]);
      expect(spaces[0]).toMatchObject({ id: expect.stringMatching(/^\d+$/), key: "ENG", _links: { webui: "/display/ENG" } });
      expect(await dc.spaceCount(10)).toEqual({ count: 4, capped: false });
      expect(await dc.spaceCount(3)).toEqual({ count: 3, capped: true });
      expect((await dc.spacesPage(2)).results).toHaveLength(2);
      expect(await dc.spaceByKey("ENG")).toMatchObject({ key: "ENG", name: "Engineering" });
      expect(await dc.spaceByKey("NOPE")).toBeUndefined();
      // The same ids as Cloud's v2 for the same seed.
      expect(spaces.map((s) => s.id)).toEqual((await collect(cloud.spaces())).sort((a, b) => a.key.localeCompare(b.key)).map((s) => s.id));
    });

    it("reads a space by id (DC has no such read: the key is found in the listing), with its description and homepage", async () => {
      const eng = state().spaceByKey.get("ENG")!;
      // A fresh client has learnt no ids yet.
      expect(await clientFor(dcTarget()).space(String(eng.id))).toMatchObject({ key: "ENG", id: String(eng.id) });
      await expect(clientFor(dcTarget()).space("4242")).rejects.toMatchObject({ kind: "not_found" });
      expect(await dc.spaceDetails("ENG")).toMatchObject({
        key: "ENG",
        homepageId: eng.homepageId,
        description: { plain: { value: eng.description } },
        _links: { webui: "/display/ENG" },
      });
      expect(await dc.spaceDetails("NOPE")).toBeUndefined();
    });
  });

  describe("pages", () => {
    it("reads a page in the Cloud shape, the same as the Cloud client gives for the same seeded page", async () => {
      const seeded = pageWhere((c) => ancestorsOf(state(), c).length >= 2 && c.versions.length >= 2);
      const [onDc, onCloud] = await Promise.all([dc.getPage(seeded.id), cloud.getPage(seeded.id)]);
      const facts = (p: typeof onDc) => ({
        id: p.id,
        title: p.title,
        spaceId: p.spaceId,
        parentId: p.parentId,
        version: p.version?.number,
        body: p.body?.storage?.value,
      });
      expect(facts(onDc)).toEqual(facts(onCloud));
      expect(facts(onDc)).toMatchObject({ id: seeded.id, parentId: seeded.parentId, version: currentVersion(seeded).number });
      expect(onDc).toMatchObject({ _links: { webui: expect.stringMatching(/^\/(display\/ENG|pages\/viewpage\.action)/) } });
      // Without a body: the facts an allow-list check reads.
      expect((await dc.getPage(seeded.id, null)).body).toBeUndefined();
    });

    it("a blog post or a comment is not a page; a missing id is Confluence's 404", async () => {
      const post = state().ordered.find((c) => c.type === "blogpost")!;
      await expect(dc.getPage(post.id)).rejects.toMatchObject({ kind: "not_found", message: expect.stringContaining("blogpost") });
      await expect(dc.getPage("999999999")).rejects.toMatchObject({
        kind: "not_found",
        message: expect.stringContaining("No content found"),
      });
    });

    it("creates a page under a parent, updates it with the next version, and refuses a stale version with DC's 409; DC's state holds it, Cloud's does not", async () => {
      const space = (await dc.spaceByKey("ENG"))!;
      const parent = pageWhere((c) => c.spaceKey === "ENG" && c.parentId !== null);
      const made = await dc.createPage({ spaceId: String(space.id), title: "DC runbook", body: "<p>one</p>", parentId: parent.id });
      expect(made).toMatchObject({ title: "DC runbook", spaceId: String(space.id), parentId: parent.id, version: { number: 1 } });
      const updated = await dc.updatePage(made.id, { title: "DC runbook", body: "<p>two</p>", version: 2, message: "second" });
      expect(updated.version?.number).toBe(2);
      expect(currentVersion(state().content.get(made.id)!)).toMatchObject({ number: 2, message: "second" });
      expect(sandbox.state("confluence").content.get(made.id)).toBeUndefined();
      const stale = await dc.updatePage(made.id, { title: "DC runbook", body: "<p>x</p>", version: 2 }).catch((e) => e);
      expect(stale).toMatchObject({
        kind: "conflict",
        message: "Confluence reported a conflict (409): Version must be incremented on update. Current version is: 2",
      });
      expect((await dc.pageByTitle(String(space.id), "DC runbook"))?.body?.storage?.value).toBe("<p>two</p>");
      expect(await dc.pageByTitle(String(space.id), "No such page")).toBeUndefined();
    });

    it("a title taken in the space is refused with DC's words", async () => {
      const space = (await dc.spaceByKey("ENG"))!;
      const err = await dc.createPage({ spaceId: String(space.id), title: "Engineering Home", body: "" }).catch((e) => e);
      expect(err).toMatchObject({ kind: "bad_request", message: expect.stringContaining("A page with this title already exists") });
    });
  });

  describe("the page tree", () => {
    it("ancestors, children and descendants to a depth match Cloud's for the same page", async () => {
      const deep = pageWhere((c) => ancestorsOf(state(), c).length >= 3);
      expect((await collect(dc.ancestors(deep.id))).map((a) => a.id)).toEqual((await collect(cloud.ancestors(deep.id))).map((a) => a.id));
      const home = state().spaceByKey.get("ENG")!.homepageId;
      const dcChildren = await collect(dc.children(home));
      expect(dcChildren.map((c) => c.id)).toEqual((await collect(cloud.children(home))).map((c) => c.id));
      expect(dcChildren.every((c) => c.parentId === home && c.spaceId === String(state().spaceByKey.get("ENG")!.id))).toBe(true);
      for (const depth of [1, 2, 4]) {
        const outline = (items: { id: string; parentId?: string | null; depth?: number }[]) =>
          items.map((d) => `${d.id}<${d.parentId}@${d.depth}`).sort();
        expect(outline(await collect(dc.descendants(home, depth)))).toEqual(outline(await collect(cloud.descendants(home, depth))));
      }
      expect(await collect(dc.descendants(home, 3, 5))).toHaveLength(5);
    });

    it("moves a page under another (append) and beside one (under its parent) by new ancestors, a version each", async () => {
      const [a, b] = state().ordered.filter((c) => c.type === "page" && c.spaceKey === "ENG" && ancestorsOf(state(), c).length === 2);
      const leaf = pageWhere((c) => c.spaceKey === "ENG" && ancestorsOf(state(), c).length === 3 && c.parentId !== a!.id);
      const before = currentVersion(leaf).number;
      await dc.movePage(leaf.id, "append", a!.id);
      expect((await dc.getPage(leaf.id)).parentId).toBe(a!.id);
      await dc.movePage(leaf.id, "after", b!.id);
      const moved = await dc.getPage(leaf.id);
      expect(moved.parentId).toBe(b!.parentId);
      expect(moved.version?.number).toBe(before + 2);
    });

    it("refuses a move DC's REST API cannot make: to the top level, or into another space", async () => {
      const leaf = pageWhere((c) => c.spaceKey === "ENG" && c.parentId !== null && (state().children.get(c.id) ?? []).length === 0);
      const opsHome = state().spaceByKey.get("OPS")!.homepageId;
      const engHome = state().spaceByKey.get("ENG")!.homepageId;
      await expect(dc.movePage(leaf.id, "before", engHome)).rejects.toMatchObject({
        kind: "bad_request",
        message: expect.stringContaining("top level"),
      });
      await expect(dc.movePage(leaf.id, "append", opsHome)).rejects.toMatchObject({
        kind: "bad_request",
        message: expect.stringContaining("within its space"),
      });
      expect(state().content.get(leaf.id)!.parentId).toBe(leaf.parentId);
    });
  });

  describe("search", () => {
    it("answers the search shape with excerpts (DC's highlight marks removed), the total, and each result's space when asked", async () => {
      const found = await dc.search('space = ENG AND text ~ "deploy"', { limit: 5, expand: "content.space" });
      expect(found.results.length).toBeGreaterThan(0);
      expect(found.totalSize).toBeGreaterThanOrEqual(found.results.length);
      for (const r of found.results) {
        expect(r).toMatchObject({ content: { space: { key: "ENG" } }, resultGlobalContainer: { displayUrl: "/display/ENG" } });
        expect(String(r.excerpt)).not.toContain("@@@");
        expect(String(r.title)).not.toContain("@@@");
      }
      await expect(dc.search("space = ")).rejects.toMatchObject({
        kind: "bad_request",
        message: expect.stringContaining("Could not parse cql"),
      });
    });

    it("within DC's cap of 50 a page when a body is expanded: asking for 100 gives 50 and a next page from start 50", async () => {
      const first = await dc.search("type = page order by id", { limit: 100, expand: "content.body.storage" });
      expect(first.results).toHaveLength(50);
      expect(first._links?.next).toMatch(/[?&]start=50(&|$)/);
      const second = await dc.search("type = page order by id", { limit: 100, start: 50, expand: "content.body.storage" });
      const ids = (page: typeof first) => page.results.map((r) => (r.content as { id: string }).id);
      expect(ids(second)).toHaveLength(50);
      expect(new Set([...ids(first), ...ids(second)]).size).toBe(100);
      const all = await collect(dc.searchAll("type = page"));
      expect(all).toHaveLength(200);
    });
  });

  describe("history", () => {
    it("lists versions newest first, a page at a time through the start cursor, and reads a page at an older version", async () => {
      const page = pageWhere((c) => c.versions.length >= 3);
      const made = await dc.updatePage(page.id, { title: page.title, body: "<p>rewritten</p>", version: currentVersion(page).number + 1 });
      const top = made.version!.number;
      const first = await dc.versions(page.id, { limit: 2 });
      expect(first.results.map((v) => v.number)).toEqual([top, top - 1]);
      expect(first.results[0]).toMatchObject({ authorId: expect.stringMatching(/^[0-9a-f]{32}$/), createdAt: expect.any(String) });
      expect(first.nextCursor).toBe("2");
      const rest = await dc.versions(page.id, { limit: 50, cursor: first.nextCursor! });
      expect(rest.results.map((v) => v.number)).toEqual(Array.from({ length: top - 2 }, (_, i) => top - 2 - i));
      expect(rest.nextCursor).toBeNull();
      expect((await dc.user(first.results[0]!.authorId!)).displayName).toBe("Demo Admin");
      const old = await dc.pageAtVersion(page.id, top - 1);
      expect(old).toMatchObject({ id: page.id, version: { number: top - 1 } });
      expect(old.body?.storage?.value).not.toBe("<p>rewritten</p>");
      await expect(dc.pageAtVersion(page.id, top + 5)).rejects.toMatchObject({ kind: "not_found" });
    });
  });

  describe("comments", () => {
    it("lists a page's footer comments with their authors' keys, follows a reply thread, replies, and tells the kinds apart", async () => {
      const reply = state().ordered.find(
        (c) => c.type === "comment" && c.parentId !== null && state().content.get(c.containerId!)?.type === "page",
      )!;
      const pageId = reply.containerId!;
      const listed = await dc.comments(pageId, "footer", { limit: 50 });
      expect(listed.results.every((c) => c.pageId === pageId && c.parentCommentId === undefined)).toBe(true);
      expect(listed.results.map((c) => c.id)).toContain(reply.parentId);
      expect((await collect(dc.commentReplies(reply.parentId!, "footer", 10))).map((c) => c.id)).toContain(reply.id);
      const mine = await dc.replyComment(reply.id, "footer", "<p>agreed</p>");
      expect(mine).toMatchObject({ pageId, parentCommentId: reply.id, body: { storage: { value: "<p>agreed</p>" } } });
      expect(await dc.comment(mine.id, "footer")).toMatchObject({ id: mine.id, pageId, parentCommentId: reply.id });
      await expect(dc.comment(mine.id, "inline")).rejects.toMatchObject({ kind: "not_found" });
      const footer = await dc.addComment(pageId, "<p>top level</p>");
      expect(state().content.get(footer.id)).toMatchObject({ containerId: pageId, parentId: null });
    });

    it("reads inline comments (anchor, resolution) and replies in their thread; cannot add a new one", async () => {
      const page = pageWhere((c) => c.spaceKey === "ENG");
      const { createContent } = await import("../../sandbox/confluence/store");
      const inline = createContent(state(), {
        type: "comment",
        title: `Re: ${page.title}`,
        spaceKey: page.spaceKey,
        parentId: null,
        containerId: page.id,
        body: "<p>check this</p>",
        status: "current",
        authorId: state().currentUserId,
      });
      inline.inline = { markerRef: "m-1", selection: "Welcome", resolution: "resolved" };
      const listed = await dc.comments(page.id, "inline", { limit: 10 });
      expect(listed.results).toEqual([
        expect.objectContaining({
          id: inline.id,
          resolutionStatus: "resolved",
          properties: { inlineMarkerRef: "m-1", inlineOriginalSelection: "Welcome" },
        }),
      ]);
      const reply = await dc.replyComment(inline.id, "inline", "<p>done</p>");
      expect(state().content.get(reply.id)?.inline?.markerRef).toBe("m-1");
      await expect(dc.addInlineComment(page.id, "<p>x</p>", { text: "Welcome", matchCount: 1, matchIndex: 0 })).rejects.toMatchObject({
        kind: "bad_request",
        message: expect.stringContaining("cannot add an inline comment"),
      });
    });
  });

  describe("labels and attachments", () => {
    it("adds, lists (a page at a time) and removes labels", async () => {
      const page = pageWhere((c) => c.labels.length >= 1);
      await dc.addLabels(page.id, ["dc-one", "dc-two"]);
      const names = (await dc.labels(page.id)).results.map((l) => l.name);
      expect(names).toEqual(expect.arrayContaining(["dc-one", "dc-two"]));
      const first = await dc.pageLabels(page.id, { limit: 1 });
      expect(first.results).toHaveLength(1);
      const rest = await dc.pageLabels(page.id, { limit: 50, cursor: first.nextCursor! });
      expect([...first.results, ...rest.results].map((l) => l.name)).toEqual(names);
      await dc.removeLabel(page.id, "dc-one");
      expect((await dc.labels(page.id)).results.map((l) => l.name)).not.toContain("dc-one");
      await expect(dc.removeLabel(page.id, "dc-one")).rejects.toMatchObject({ kind: "not_found" });
    });

    it("uploads a file, and the same name again updates that attachment's data (one attachment, version 2)", async () => {
      const page = pageWhere((c) => c.spaceKey === "PROD");
      const file = (text: string) => ({ name: "notes.txt", data: Buffer.from(text), mediaType: "text/plain", comment: text });
      const first = await dc.uploadAttachment(page.id, file("first"));
      const second = await dc.uploadAttachment(page.id, file("second, longer"));
      expect(second.results[0]!.id).toBe(first.results[0]!.id);
      expect(second.results[0]).toMatchObject({ title: "notes.txt", extensions: { fileSize: 14 } });
      expect(
        state()
          .attachments.get(page.id)!
          .map((a) => a.data.toString()),
      ).toEqual(["second, longer"]);
      const listed = await dc.attachments(page.id, { limit: 10 });
      expect(listed.results).toEqual([
        expect.objectContaining({
          title: "notes.txt",
          fileSize: 14,
          mediaType: "text/plain",
          version: expect.objectContaining({ number: 2 }),
        }),
      ]);
      const download = await fetch(`${sandbox.dataCenter.confluence}${listed.results[0]!.downloadLink!}`, {
        headers: { authorization: "Bearer sandbox-dc-pat" },
      });
      expect(await download.text()).toBe("second, longer");
    });
  });

  describe("people and failures", () => {
    it("a person's token sees only their spaces (priya.raman: ENG, PROD); another space's page is not found, and search keeps to theirs", async () => {
      const priya = clientFor(dcTarget("Bearer sandbox-dc-pat-priya"));
      expect((await collect(priya.spaces())).map((s) => s.key)).toEqual(["ENG", "PROD"]);
      const ops = pageWhere((c) => c.spaceKey === "OPS");
      await expect(priya.getPage(ops.id)).rejects.toMatchObject({ kind: "not_found" });
      expect(await priya.spaceByKey("OPS")).toBeUndefined();
      const hits = await collect(priya.searchAll("type = page"));
      expect(hits).toHaveLength(100);
      const basic = clientFor(dcTarget(`Basic ${Buffer.from("priya.raman:sandbox-token-priya").toString("base64")}`));
      expect((await collect(basic.spaces())).map((s) => s.key)).toEqual(["ENG", "PROD"]);
    });

    it("wrong credentials and rate limits read as Confluence's (401, 429 with its wait)", async () => {
      await expect(clientFor(dcTarget("Bearer wrong")).spacesPage(1)).rejects.toMatchObject({ kind: "unauthorized" });
      sandbox.faults.add({ path: "/dc/confluence/rest/api/space", status: 429, retryAfter: 120 });
      await expect(dc.spacesPage(1)).rejects.toMatchObject({ kind: "rate_limited", details: { retryAfterSeconds: 120 } });
    });
  });
});
