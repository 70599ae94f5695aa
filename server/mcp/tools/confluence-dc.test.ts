import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfluenceState, Content } from "../../../sandbox/confluence/types";
import { ancestorsOf, currentVersion } from "../../../sandbox/confluence/types";
import { mcpClient, startMcpRig, type McpRig, dataCenterAtlassianConfig } from "../mcp.test-rig";
import { storageToMarkdown } from "./markdown/storage-to-markdown";
import { closeToolTest, setPolicy } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows.

/**
 * The Confluence tools on Data Center (issue 28): the same names, arguments and answers as on Cloud,
 * through a real MCP client against the sandbox's DC flavour (REST v1 under its context path), as
 * the service account's personal access token; and as a person's token, who sees only their spaces.
 */
describe("Confluence tools on Data Center", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const data = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const answer = await call(name, args);
    if (answer.isError) throw new Error(`${name}: ${answer.text}`);
    return answer.data;
  };
  const dc = (): ConfluenceState => rig.sandbox.state("confluence", "datacenter");
  const pageWhere = (pick: (c: Content) => boolean): Content => {
    const found = dc().ordered.find((c) => c.type === "page" && c.status === "current" && pick(c));
    if (!found) throw new Error("no such seeded page");
    return found;
  };

  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } }, { flavour: "datacenter" });
    await setPolicy(rig, rig.client.clientId);
    client = await mcpClient(rig, await rig.token("read write"), "confluence-dc-test");
  });
  afterAll(() => closeToolTest(rig, client));

  it("reads a seeded page as the same Markdown and facts Cloud shows, with Data Center's links", async () => {
    const seeded = pageWhere((c) => ancestorsOf(dc(), c).length >= 2 && c.body.includes("<h2>"));
    const onCloud = rig.sandbox.state("confluence").content.get(seeded.id)!;
    const page = await data("confluence_get_page", { pageId: seeded.id });
    expect(page).toMatchObject({
      id: seeded.id,
      title: onCloud.title,
      spaceId: String(rig.sandbox.state("confluence").spaceByKey.get(onCloud.spaceKey)!.id),
      parentId: onCloud.parentId,
      version: currentVersion(onCloud).number,
      body: storageToMarkdown(onCloud.body),
      url: expect.stringMatching(new RegExp(`^${rig.sandbox.dataCenter.confluence}/(display/|pages/viewpage)`)),
    });
    const spaces = await data("confluence_list_spaces", {});
    expect(spaces.spaces.map((s: { key: string; url: string }) => [s.key, s.url])).toContainEqual([
      "ENG",
      `${rig.sandbox.dataCenter.confluence}/display/ENG`,
    ]);
    const eng = await data("confluence_get_space", { spaceKey: "eng" });
    expect(eng).toMatchObject({ key: "ENG", homepage: { id: dc().spaceByKey.get("ENG")!.homepageId, title: "Engineering Home" } });
  });

  it("searches page by page through the tool's cursor within DC's caps, and says what is wrong with bad CQL", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let round = 0; round < 5; round++) {
      const page = await data("confluence_search", { cql: "type = page order by id", limit: 50, ...(cursor ? { cursor } : {}) });
      seen.push(...page.results.map((r: { id: string }) => r.id));
      expect(page.totalSize).toBe(200);
      cursor = page.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(200);
    expect(new Set(seen).size).toBe(200);
    const hit = await data("confluence_search", { cql: 'space = ENG AND text ~ "deploy"', limit: 3 });
    expect(hit.results[0]).toMatchObject({ space: "Engineering", url: expect.stringContaining(`${rig.sandbox.dataCenter.confluence}/`) });
    expect(hit.results.every((r: { excerpt: string; title: string }) => !`${r.excerpt}${r.title}`.includes("@@@"))).toBe(true);
    const bad = await call("confluence_search", { cql: "spacee = ENG" });
    expect(bad).toMatchObject({ isError: true, text: expect.stringContaining("did you mean 'space'?") });
  });

  it("creates a page, updates it to the next version (held by DC's state), and names the current version when given a stale one", async () => {
    const made = await data("confluence_create_page", { spaceKey: "ENG", title: "DC gateway runbook", body: "## Steps\n\n- restart" });
    expect(made).toMatchObject({ version: 1, url: expect.stringContaining("/display/ENG/DC+gateway+runbook") });
    const updated = await data("confluence_update_page", {
      pageId: made.id,
      version: 1,
      body: "## Steps\n\n- restart\n- check",
      message: "check added",
    });
    expect(updated.version).toBe(2);
    expect(currentVersion(dc().content.get(made.id)!)).toMatchObject({ number: 2, message: "check added" });
    expect(rig.sandbox.state("confluence").content.get(made.id)).toBeUndefined();
    expect((await data("confluence_get_page", { pageId: made.id })).body.trim()).toBe("## Steps\n\n- restart\n- check");
    const stale = await call("confluence_update_page", { pageId: made.id, version: 1, title: "Renamed" });
    expect(stale).toMatchObject({ isError: true, text: expect.stringMatching(/Version 1 is stale: page \d+ is at version 2/) });
    const section = await data("confluence_update_page_section", {
      pageId: made.id,
      version: 2,
      heading: "Steps",
      body: "- restart twice",
    });
    expect(section.version).toBe(3);
  });

  it("walks the tree: children, ancestors, descendants to a depth", async () => {
    const deep = pageWhere((c) => ancestorsOf(dc(), c).length >= 3);
    const trail = ancestorsOf(dc(), deep);
    const ancestors = await data("confluence_get_page_ancestors", { pageId: deep.id });
    expect(ancestors.ancestors.map((a: { id: string }) => a.id)).toEqual(trail.map((a) => a.id));
    const home = trail[0]!;
    const children = await data("confluence_get_page_children", { pageId: home.id });
    expect(children.children.map((c: { id: string }) => c.id)).toEqual(dc().children.get(home.id));
    const outline = await data("confluence_get_page_descendants", { pageId: home.id, depth: 2 });
    expect(outline.descendants.every((d: { depth: number }) => d.depth <= 2)).toBe(true);
    expect(outline.descendants.filter((d: { depth: number }) => d.depth === 2).length).toBeGreaterThan(0);
  });

  it("moves a page under another, and beside one (under its parent, saying DC orders the siblings); a top-level target is refused", async () => {
    const [a, b] = dc().ordered.filter((c) => c.type === "page" && c.spaceKey === "OPS" && ancestorsOf(dc(), c).length === 1);
    const leaf = pageWhere(
      (c) => c.spaceKey === "OPS" && ancestorsOf(dc(), c).length >= 2 && c.parentId !== a!.id && !dc().children.get(c.id)?.length,
    );
    expect(await data("confluence_move_page", { pageId: leaf.id, targetId: a!.id })).toMatchObject({ parentId: a!.id, position: "append" });
    const beside = await call("confluence_move_page", { pageId: leaf.id, targetId: b!.id, position: "after" });
    expect(beside).toMatchObject({
      isError: false,
      data: { parentId: b!.parentId },
      text: expect.stringContaining("Data Center orders the siblings itself"),
    });
    const top = await call("confluence_move_page", {
      pageId: leaf.id,
      targetId: dc().spaceByKey.get("OPS")!.homepageId,
      position: "before",
    });
    expect(top).toMatchObject({ isError: true, text: expect.stringContaining("cannot move a page to the top level") });
    expect(dc().content.get(leaf.id)!.parentId).toBe(b!.parentId);
  });

  it("lists comment threads with their authors' names, replies to one, and refuses a new inline comment with what to do instead", async () => {
    const reply = dc().ordered.find(
      (c) => c.type === "comment" && c.parentId !== null && dc().content.get(c.containerId!)?.type === "page",
    )!;
    const pageId = reply.containerId!;
    const listed = await data("confluence_list_comments", { pageId, kind: "footer" });
    const thread = listed.comments.find((t: { id: string }) => t.id === reply.parentId);
    expect(thread.replies.map((r: { id: string }) => r.id)).toContain(reply.id);
    expect(thread.author).toBe(dc().userById.get(dc().content.get(reply.parentId!)!.authorId)!.displayName);
    const answered = await data("confluence_reply_comment", { commentId: reply.parentId, body: "Thanks, **done**." });
    expect(answered).toMatchObject({ parentId: reply.parentId, kind: "footer", pageId });
    expect(dc().content.get(answered.commentId)).toMatchObject({
      parentId: reply.parentId,
      body: expect.stringContaining("<strong>done</strong>"),
    });
    const footer = await data("confluence_add_comment", { pageId, body: "A footer comment." });
    expect(dc().content.get(footer.commentId)).toMatchObject({ containerId: pageId, parentId: null });
    const inline = await call("confluence_add_comment", { pageId, body: "x", inline: { text: "the" } });
    expect(inline).toMatchObject({ isError: true, text: expect.stringContaining("Add a footer comment instead") });
  });

  it("labels a page and lists its labels", async () => {
    const page = pageWhere((c) => c.spaceKey === "HR" && c.labels.length >= 2);
    const old = page.labels[0]!.name;
    const labelled = await data("confluence_label_page", { pageId: page.id, add: ["dc-reviewed"], remove: [old] });
    expect(labelled.labels).toContain("dc-reviewed");
    expect(labelled.labels).not.toContain(old);
    const listed = await data("confluence_list_labels", { pageId: page.id, maxResults: 1 });
    expect(listed.labels).toHaveLength(1);
    expect(listed.nextCursor).toEqual(expect.any(String));
    const rest = await data("confluence_list_labels", { pageId: page.id, cursor: listed.nextCursor });
    expect([...listed.labels, ...rest.labels].map((l: { name: string }) => l.name)).toEqual(
      dc()
        .content.get(page.id)!
        .labels.map((l) => l.name),
    );
  });

  it("uploads a file twice under one name: one attachment, its data updated", async () => {
    const page = pageWhere((c) => c.spaceKey === "PROD");
    const first = await data("confluence_upload_attachment", { pageId: page.id, filename: "report.csv", content: "a,b\n1,2\n" });
    const second = await data("confluence_upload_attachment", { pageId: page.id, filename: "report.csv", content: "a,b\n1,2\n3,4\n" });
    expect(second).toMatchObject({ id: first.id, size: 12, mediaType: "text/csv" });
    expect(
      dc()
        .attachments.get(page.id)!
        .map((a) => a.data.toString()),
    ).toEqual(["a,b\n1,2\n3,4\n"]);
    const listed = await data("confluence_list_attachments", { pageId: page.id });
    expect(listed.attachments).toEqual([expect.objectContaining({ id: first.id, title: "report.csv", size: 12 })]);
  });

  it("shows a page's history with authors' names and diffs two versions", async () => {
    const made = await data("confluence_create_page", { spaceKey: "HR", title: "DC history page", body: "one\n\ntwo" });
    await data("confluence_update_page", { pageId: made.id, version: 1, body: "one\n\nthree" });
    const history = await data("confluence_get_page_history", { pageId: made.id, maxResults: 1 });
    expect(history.versions).toEqual([expect.objectContaining({ number: 2, author: "Demo Admin" })]);
    const older = await data("confluence_get_page_history", { pageId: made.id, cursor: history.nextCursor });
    expect(older.versions.map((v: { number: number }) => v.number)).toEqual([1]);
    const diff = await data("confluence_diff_page_versions", { pageId: made.id, from: 1, to: 2 });
    expect(diff).toMatchObject({ added: 1, removed: 1, diff: expect.stringContaining("-two") });
    const none = await call("confluence_diff_page_versions", { pageId: made.id, from: 1, to: 7 });
    expect(none).toMatchObject({ isError: true, text: expect.stringContaining("has no version 7") });
  });

  it("holds a client limited to ENG to it: another space's page is refused before it is read, and search stays in ENG", async () => {
    await setPolicy(rig, rig.client.clientId, { confluenceSpaces: ["ENG"] });
    try {
      const ops = await call("confluence_get_page", { pageId: dc().spaceByKey.get("OPS")!.homepageId });
      expect(ops).toMatchObject({ isError: true, text: expect.stringContaining("may not use the Confluence space OPS") });
      const comment = dc().ordered.find((c) => c.type === "comment" && c.spaceKey === "OPS" && c.parentId === null)!;
      const reply = await call("confluence_reply_comment", { commentId: comment.id, body: "x" });
      expect(reply).toMatchObject({ isError: true, text: expect.stringContaining("may not use the Confluence space OPS") });
      const found = await data("confluence_search", { cql: "type = page", limit: 50 });
      expect(new Set(found.results.map((r: { space: string }) => r.space))).toEqual(new Set(["Engineering"]));
      expect((await data("confluence_get_page", { pageId: dc().spaceByKey.get("ENG")!.homepageId })).title).toBe("Engineering Home");
    } finally {
      await setPolicy(rig, rig.client.clientId);
    }
  });

  it("as a person's token (priya.raman: ENG, PROD) shows only their spaces, and another space's page is not there", async () => {
    const saved = await rig.admin.post("/api/admin/atlassian-config", dataCenterAtlassianConfig(rig.sandbox, "sandbox-dc-pat-priya"));
    expect(saved.status).toBeLessThan(300);
    const spaces = await data("confluence_list_spaces", {});
    expect(spaces.spaces.map((s: { key: string }) => s.key)).toEqual(["ENG", "PROD"]);
    const found = await data("confluence_search", { cql: "type = page", limit: 50 });
    const theirs = dc().ordered.filter((c) => c.type === "page" && c.status === "current" && ["ENG", "PROD"].includes(c.spaceKey));
    expect(found.totalSize).toBe(theirs.length);
    expect(new Set(found.results.map((r: { space: string }) => r.space))).toEqual(new Set(["Engineering", "Product"]));
    const ops = await call("confluence_get_page", { pageId: dc().spaceByKey.get("OPS")!.homepageId });
    expect(ops).toMatchObject({ isError: true, text: expect.stringContaining("found nothing there (404)") });
  });
});
