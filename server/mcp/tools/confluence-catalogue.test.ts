import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, modernRpc, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy, sandboxFault } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

const AUTH = { authorization: `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}` };

interface Line {
  id: string;
  title: string;
  parentId?: string;
  depth: number;
}

/** The Confluence catalogue tools (tree, history, comments, attachments) through a real MCP client against the sandbox over HTTP. */
describe("Confluence catalogue tools", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  /** ENG's homepage. */
  let home: string;
  /** Each listed tool's output schema: every answer of the tools here is checked against its own. */
  const schemas = new Map<string, object>();
  const ajv = new Ajv2020({ strict: false });
  const policy = (p: Record<string, unknown>) => putPolicy(rig, rig.client.clientId, p);
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    const set = await policy({});
    if (set.status !== 200) throw new Error(`policy: ${set.status}`);
    client = await mcpClient(rig, await rig.token("read write"), "confluence-catalogue-test");
    home = (await sandboxGet<{ results: { homepageId: string }[] }>("/wiki/api/v2/spaces?keys=ENG")).results[0]!.homepageId;
    for (const tool of (await client.client.listTools()).tools) if (tool.outputSchema) schemas.set(tool.name, tool.outputSchema);
  });
  afterAll(() => closeToolTest(rig, client));

  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = await client.call(name, args);
    if (!answer.isError) expect(ajv.validate(schemas.get(name)!, answer.data), `${name}: ${JSON.stringify(ajv.errors)}`).toBe(true);
    return answer;
  };
  const fault = (spec: Record<string, unknown>) => sandboxFault(rig, { ...spec, times: 1 });
  async function sandboxGet<T>(path: string): Promise<T> {
    const res = await fetch(`${rig.sandbox.url}${path}`, { headers: AUTH });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return (await res.json()) as T;
  }
  let made = 0;
  /** A new page (Markdown body) in `spaceKey`, under `parentId` when given; its id. */
  const newPage = async (title: string, body = "Some text.", spaceKey = "ENG", parentId?: string): Promise<string> => {
    const res = await call("confluence_create_page", { spaceKey, title: `${title} ${++made}`, body, ...(parentId ? { parentId } : {}) });
    expect(res.isError, res.text).toBe(false);
    return res.data.id as string;
  };
  const sandboxPut = (path: string, body: unknown) =>
    fetch(`${rig.sandbox.url}${path}`, {
      method: "PUT",
      headers: { ...AUTH, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const storageOf = (id: string) =>
    sandboxGet<{ title: string; body: { storage: { value: string } }; version: { number: number } }>(
      `/wiki/api/v2/pages/${id}?body-format=storage`,
    );
  /** Writes storage straight into the sandbox as the next version. */
  const putStorage = async (id: string, value: string) => {
    const page = await storageOf(id);
    const res = await sandboxPut(`/wiki/api/v2/pages/${id}`, {
      id,
      status: "current",
      title: page.title,
      version: { number: page.version.number + 1 },
      body: { representation: "storage", value },
    });
    expect(res.status).toBe(200);
  };
  const listed = async (scope: string) =>
    ((await modernRpc(rig.baseUrl, await rig.token(scope), "tools/list")).json.result.tools as { name: string }[]).map((t) => t.name);

  describe("tree", () => {
    it("reads a page by space key and exact title, as confluence_get_page does", async () => {
      const id = await newPage("Catalogue by title", "## Intro\n\nFound **by title**.");
      const title = (await call("confluence_get_page", { pageId: id })).data.title as string;
      const res = await call("confluence_get_page_by_title", { spaceKey: "eng", title });
      expect(res.isError, res.text).toBe(false);
      expect(res.data).toEqual((await call("confluence_get_page", { pageId: id })).data);
      expect(res.text).toContain(`# ${title}\nPage ${id} · version 1`);
      expect(res.text).toContain("Found **by title**.");

      const missing = await call("confluence_get_page_by_title", { spaceKey: "ENG", title: "No such page anywhere" });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/Space ENG has no page titled "No such page anywhere"/);
      const noSpace = await call("confluence_get_page_by_title", { spaceKey: "NOPE", title: "x" });
      expect(noSpace.text).toMatch(/There is no Confluence space NOPE/);
      const bad = await call("confluence_get_page_by_title", { spaceKey: "not a key!", title: "" });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/spaceKey: spaceKey must be a space key such as ENG; title: title must not be empty/);
    });

    it("reads a space: name, description, homepage and link", async () => {
      const res = await call("confluence_get_space", { spaceKey: "ENG" });
      expect(res.isError, res.text).toBe(false);
      expect(res.data).toMatchObject({
        key: "ENG",
        name: "Engineering",
        homepage: { id: home, title: "Engineering Home", url: expect.stringContaining(`/wiki/spaces/ENG/pages/${home}/`) },
        url: `${rig.sandbox.url}/wiki/spaces/ENG`,
      });
      expect((res.data.description as string).length).toBeGreaterThan(10);
      expect(res.text).toMatch(/^ENG: Engineering\n.+\nHomepage: Engineering Home \(id \d+\)/);
      expect((await call("confluence_get_space", { spaceKey: "NOPE" })).text).toMatch(/There is no Confluence space NOPE/);
    });

    it("outlines a subtree to a depth, indented, and says when it is cut", async () => {
      const res = await call("confluence_get_page_descendants", { pageId: home, depth: 2 });
      expect(res.isError, res.text).toBe(false);
      const lines = res.data.descendants as Line[];
      const children = (await sandboxGet<{ results: { id: string }[] }>(`/wiki/api/v2/pages/${home}/children?limit=250`)).results.map(
        (c) => c.id,
      );
      expect(lines.filter((l) => l.depth === 1).map((l) => l.id)).toEqual(children);
      expect(lines.some((l) => l.depth === 2)).toBe(true);
      expect(lines.every((l) => l.depth <= 2)).toBe(true);
      // Each page follows its parent in the outline.
      for (const [i, l] of lines.entries()) if (l.depth === 2) expect(lines.slice(0, i).some((p) => p.id === l.parentId)).toBe(true);
      const second = lines.find((l) => l.depth === 2)!;
      expect(res.text).toContain(`\n  - ${second.title} (id ${second.id})`);
      expect(res.data.truncated).toBe(false);

      const cut = await call("confluence_get_page_descendants", { pageId: home, depth: 5, maxResults: 3 });
      expect(cut.data).toMatchObject({ truncated: true });
      expect(cut.data.descendants).toHaveLength(3);
      expect(cut.text).toMatch(/more: raise maxResults/);
      const leaf = await newPage("Leaf");
      expect((await call("confluence_get_page_descendants", { pageId: leaf })).text).toMatch(/has no child pages/);
      expect((await call("confluence_get_page_descendants", { pageId: home, depth: 6 })).text).toMatch(/depth: depth may be at most 5/);
    });

    it("lists a page's labels with their prefixes, by prefix, paged by cursor; refuses bad arguments and unknown pages", async () => {
      const id = await newPage("Labelled");
      const title = (await storageOf(id)).title;
      expect((await call("confluence_label_page", { pageId: id, add: ["alpha", "beta", "gamma"] })).isError).toBe(false);
      const mine = await fetch(`${rig.sandbox.url}/wiki/rest/api/content/${id}/label`, {
        method: "POST",
        headers: { ...AUTH, "content-type": "application/json" },
        body: JSON.stringify([{ prefix: "my", name: "mine" }]),
      });
      expect(mine.status).toBe(200);

      const res = await call("confluence_list_labels", { pageId: id });
      expect(res.isError, res.text).toBe(false);
      expect(res.data).toMatchObject({
        pageId: id,
        title,
        labels: [
          { name: "alpha", prefix: "global" },
          { name: "beta", prefix: "global" },
          { name: "gamma", prefix: "global" },
          { name: "mine", prefix: "my" },
        ],
        url: expect.stringContaining(`/wiki/spaces/ENG/pages/${id}/`),
      });
      expect(res.data.nextCursor).toBeUndefined();
      expect(res.text).toBe(`4 labels on "${title}" (id ${id}): alpha, beta, gamma, mine (my)\n${res.data.url as string}`);
      const my = await call("confluence_list_labels", { pageId: id, prefix: "my" });
      expect(my.data.labels).toEqual([{ name: "mine", prefix: "my" }]);
      expect(my.text).toMatch(/^1 my label on /);

      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await call("confluence_list_labels", { pageId: id, maxResults: 3, ...(cursor ? { cursor } : {}) });
        expect(page.isError, page.text).toBe(false);
        seen.push(...(page.data.labels as { name: string }[]).map((l) => l.name));
        cursor = page.data.nextCursor ?? undefined;
        if (cursor) expect(page.text).toMatch(/\nnextCursor: \S+$/);
        pages++;
      } while (cursor);
      expect(pages).toBe(2);
      expect(seen).toEqual(["alpha", "beta", "gamma", "mine"]);
      const first = await call("confluence_list_labels", { pageId: id, maxResults: 1 });
      const wrong = await call("confluence_list_labels", { pageId: id, prefix: "global", cursor: first.data.nextCursor });
      expect(wrong.text).toMatch(/cursor is not a nextCursor this server gave for this query/);

      const bare = await newPage("Unlabelled");
      expect((await call("confluence_list_labels", { pageId: bare })).text).toMatch(/^"Unlabelled \d+" \(id \d+\) has no labels\.\n/);
      for (const [args, message] of [
        [{ pageId: "abc" }, /pageId: pageId must be a page id \(digits\)/],
        [{ pageId: id, prefix: "system" }, /prefix: prefix must be global, my or team/],
        [{ pageId: id, maxResults: 0 }, /maxResults: maxResults must be at least 1/],
        [{ pageId: id, maxResults: 251 }, /maxResults: maxResults may be at most 250/],
        [{ pageId: id, label: "x" }, /does not take 'label'/],
      ] as const) {
        const bad = await call("confluence_list_labels", args);
        expect(bad.isError, JSON.stringify(args)).toBe(true);
        expect(bad.text).toMatch(message);
      }
      const missing = await call("confluence_list_labels", { pageId: "99999999" });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^Confluence found nothing there \(404\)/);
    });

    it("moves a page under a new parent and before or after a sibling; never under itself", async () => {
      const a = await newPage("Move A", "A", "ENG", home);
      const b = await newPage("Move B", "B", "ENG", home);
      const c = await newPage("Move C", "C", "ENG", b);
      const moved = await call("confluence_move_page", { pageId: a, targetId: b });
      expect(moved.isError, moved.text).toBe(false);
      expect(moved.data).toMatchObject({ pageId: a, parentId: b, position: "append", targetId: b });
      expect(moved.text).toMatch(/^Moved "Move A \d+" \(id \d+\) under "Move B \d+"\./);
      const childIds = async (id: string) =>
        ((await call("confluence_get_page_children", { pageId: id })).data.children as { id: string }[]).map((x) => x.id);
      expect(await childIds(b)).toEqual([c, a]);

      expect((await call("confluence_move_page", { pageId: a, targetId: c, position: "before" })).data).toMatchObject({
        parentId: b,
        position: "before",
      });
      expect(await childIds(b)).toEqual([a, c]);
      expect((await call("confluence_move_page", { pageId: a, targetId: c, position: "after" })).isError).toBe(false);
      expect(await childIds(b)).toEqual([c, a]);

      const cycle = await call("confluence_move_page", { pageId: b, targetId: c });
      expect(cycle.isError).toBe(true);
      expect(cycle.text).toMatch(
        /refused the request as invalid \(400\): .*Cannot move a page relative to itself or one of its descendants/,
      );
      expect((await call("confluence_get_page", { pageId: b })).data.parentId).toBe(home);
      expect((await call("confluence_move_page", { pageId: a, targetId: a })).text).toMatch(/cannot move relative to itself/);
      expect((await call("confluence_move_page", { pageId: a, targetId: b, position: "inside" })).text).toMatch(
        /position: position must be append, before or after/,
      );
    });
  });

  describe("history and edits", () => {
    const JIRA =
      '<ac:structured-macro ac:name="jira" ac:macro-id="7f1"><ac:parameter ac:name="jqlQuery">project = BK</ac:parameter></ac:structured-macro>';
    const TABLE = "<table><tbody><tr><th>Owner</th><th>Status</th></tr><tr><td>Ana</td><td>Done</td></tr></tbody></table>";
    const CODE =
      '<ac:structured-macro ac:name="code" ac:macro-id="c0d"><ac:parameter ac:name="language">bash</ac:parameter><ac:plain-text-body><![CDATA[<h2>Steps</h2> not a heading\nkubectl get pods]]></ac:plain-text-body></ac:structured-macro>';
    const PANEL =
      '<ac:structured-macro ac:name="info"><ac:rich-text-body><h2>Steps</h2><p>inside a panel</p></ac:rich-text-body></ac:structured-macro>';
    const STORAGE = `<h1>Runbook</h1><p>Intro &amp; scope.</p><h2>Status</h2>${JIRA}${TABLE}<h2>Steps</h2><p>Old step one.</p><h3>Detail</h3><p>Old detail.</p><h2>Example</h2>${CODE}${PANEL}<p>After the code.</p>`;

    it("replaces one section's body; macros, tables and code elsewhere stay byte for byte; stale versions are refused", async () => {
      const id = await newPage("Sections");
      await putStorage(id, STORAGE);
      const stale = await call("confluence_update_page_section", { pageId: id, version: 1, heading: "Steps", body: "x" });
      expect(stale.isError).toBe(true);
      expect(stale.text).toMatch(new RegExp(`^Version 1 is stale: page ${id} is at version 2\\.`));
      expect((await storageOf(id)).version.number).toBe(2);

      const res = await call("confluence_update_page_section", {
        pageId: id,
        version: 2,
        heading: "  steps ",
        body: "- first\n- second",
        message: "steps rewritten",
      });
      expect(res.isError, res.text).toBe(false);
      expect(res.data).toMatchObject({ id, version: 3, heading: "Steps" });
      expect(res.text).toMatch(/^Replaced the section "Steps" of page \d+ ".+"; it is now at version 3\./);
      const after = (await storageOf(id)).body.storage.value;
      const head = STORAGE.slice(0, STORAGE.indexOf("<h2>Steps</h2>") + "<h2>Steps</h2>".length);
      const tail = STORAGE.slice(STORAGE.indexOf("<h2>Example</h2>"));
      expect(after.startsWith(head)).toBe(true);
      expect(after.endsWith(tail)).toBe(true);
      // The sub-section (h3) belonged to Steps, so it went with it.
      expect(after.slice(head.length, after.length - tail.length)).toBe("<ul>\n<li>first</li>\n<li>second</li>\n</ul>");

      // A macro of the section itself comes back where its marker stays.
      const read = (await call("confluence_get_page", { pageId: id })).data.body as string;
      expect(read).toContain("## Status\n\n[macro: jira]");
      expect(
        (await call("confluence_update_page_section", { pageId: id, version: 3, heading: "Status", body: "[macro: jira]\n\nAll green." }))
          .isError,
      ).toBe(false);
      const status = (await storageOf(id)).body.storage.value;
      expect(status).toContain(`<h2>Status</h2>${JIRA}\n<p>All green.</p><h2>Steps</h2>`);
      expect(status).not.toContain(TABLE);
      expect(status.endsWith(tail)).toBe(true);
    });

    it("names the headings when none matches, and asks which when several do", async () => {
      const id = await newPage("Headings");
      await putStorage(id, "<h2>Notes</h2><p>a</p><h2>Notes</h2><p>b</p><h2>Other</h2>");
      const none = await call("confluence_update_page_section", { pageId: id, version: 2, heading: "Missing", body: "x" });
      expect(none.isError).toBe(true);
      expect(none.text).toBe(`Page ${id} has no heading "Missing". Its headings: "Notes", "Notes", "Other".`);
      const two = await call("confluence_update_page_section", { pageId: id, version: 2, heading: "Notes", body: "x" });
      expect(two.text).toMatch(/2 headings of page \d+ read "Notes": pass occurrence \(1 to 2\)/);
      expect(
        (await call("confluence_update_page_section", { pageId: id, version: 2, heading: "Notes", body: "second", occurrence: 2 })).isError,
      ).toBe(false);
      expect((await storageOf(id)).body.storage.value).toBe("<h2>Notes</h2><p>a</p><h2>Notes</h2><p>second</p><h2>Other</h2>");
      const bad = await call("confluence_update_page_section", { pageId: "x", version: 0, heading: "", body: "y" });
      expect(bad.text).toMatch(
        /pageId: pageId must be a numeric page id such as 1081519; version: version must be at least 1; heading: heading must not be empty/,
      );
    });

    it("lists versions newest first with authors, paged by cursor, and diffs two of them", async () => {
      const id = await newPage("History", "Line one.\n\nLine two.\n\nLine three.");
      for (const [v, body] of [
        [1, "Line one.\n\nLine 2.\n\nLine three."],
        [2, "Line one.\n\nLine 2.\n\nLine three.\n\nLine four."],
        [3, "Line zero.\n\nLine one.\n\nLine 2.\n\nLine three.\n\nLine four."],
      ] as const) {
        expect((await call("confluence_update_page", { pageId: id, version: v, body, message: `edit ${v}` })).isError).toBe(false);
      }
      const me = (await sandboxGet<{ displayName: string }>("/wiki/rest/api/user/current")).displayName;
      const first = await call("confluence_get_page_history", { pageId: id, maxResults: 3 });
      expect(first.isError, first.text).toBe(false);
      expect(first.data.versions).toEqual([
        { number: 4, author: me, date: expect.any(String), message: "edit 3", minorEdit: false },
        { number: 3, author: me, date: expect.any(String), message: "edit 2", minorEdit: false },
        { number: 2, author: me, date: expect.any(String), message: "edit 1", minorEdit: false },
      ]);
      expect(first.text).toContain(`- v4 `);
      expect(first.text).toContain(`${me}: edit 3`);
      const rest = await call("confluence_get_page_history", { pageId: id, maxResults: 3, cursor: first.data.nextCursor });
      expect(rest.data.versions.map((v: { number: number }) => v.number)).toEqual([1]);
      expect(rest.data.nextCursor).toBeUndefined();
      const other = await newPage("Other history");
      expect((await call("confluence_get_page_history", { pageId: other, cursor: first.data.nextCursor })).text).toMatch(
        /cursor is not a nextCursor/,
      );

      const diff = await call("confluence_diff_page_versions", { pageId: id, from: 1, to: 4 });
      expect(diff.isError, diff.text).toBe(false);
      expect(diff.data, JSON.stringify(diff.data)).toMatchObject({
        from: 1,
        to: 4,
        titleChanged: false,
        added: 5,
        removed: 1,
        truncated: false,
      });
      expect(diff.data.diff).toBe(
        [
          "--- version 1",
          "+++ version 4",
          "@@ -1,5 +1,9 @@",
          "+Line zero.",
          "+",
          " Line one.",
          " ",
          "-Line two.",
          "+Line 2.",
          " ",
          " Line three.",
          "+",
          "+Line four.",
        ].join("\n"),
      );
      expect(diff.text).toMatch(/^Page \d+ ".+", version 1 → 4: 5 lines added, 1 removed\.\n--- version 1/);
      const cut = await call("confluence_diff_page_versions", { pageId: id, from: 1, to: 4, maxLines: 20 });
      expect(cut.data.truncated).toBe(false);
      const same = await call("confluence_diff_page_versions", { pageId: id, from: 2, to: 2 });
      expect(same.text).toMatch(/to: from and to must be different versions/);
      const missing = await call("confluence_diff_page_versions", { pageId: id, from: 1, to: 9 });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/has no version 9 \(it is at version 4\)/);
    });

    it("cuts a long diff at maxLines and says so", async () => {
      const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.`).join("\n\n");
      const id = await newPage("Long history", long);
      expect(
        (await call("confluence_update_page", { pageId: id, version: 1, body: long.replace(/Paragraph (\d+)\./g, "Para $1!") })).isError,
      ).toBe(false);
      const res = await call("confluence_diff_page_versions", { pageId: id, from: 1, to: 2, maxLines: 20 });
      expect(res.data).toMatchObject({ truncated: true, added: 40, removed: 40 });
      expect(res.data.diff.split("\n")).toHaveLength(20);
      expect(res.text).toMatch(/\[cut at 20 of \d+ lines: raise maxLines to see more\]$/);
    });

    it("deletes a page to the trash; its children move up", async () => {
      const parent = await newPage("Doomed", "x", "ENG", home);
      const child = await newPage("Orphan", "x", "ENG", parent);
      const res = await call("confluence_delete_page", { pageId: parent });
      expect(res.isError, res.text).toBe(false);
      expect(res.data).toMatchObject({ pageId: parent, deleted: true });
      expect(res.text).toMatch(/^Deleted page \d+ "Doomed \d+" \(moved to the trash/);
      expect((await call("confluence_get_page", { pageId: parent })).text).toMatch(/found nothing there \(404\)/);
      expect((await call("confluence_get_page", { pageId: child })).data.parentId).toBe(home);
      expect((await call("confluence_delete_page", { pageId: parent })).text).toMatch(/\(404\)/);
    });
  });

  describe("comments", () => {
    interface Thread {
      id: string;
      kind: string;
      author: string;
      body: string;
      highlighted?: string;
      resolution?: string;
      replies: { id: string; parentId: string; depth: number; body: string }[];
      moreReplies: boolean;
    }
    const threads = async (pageId: string, maxResults = 50, kind = "all"): Promise<Thread[]> => {
      const out: Thread[] = [];
      let cursor: string | undefined;
      do {
        const res = await call("confluence_list_comments", { pageId, kind, maxResults, ...(cursor ? { cursor } : {}) });
        expect(res.isError, res.text).toBe(false);
        out.push(...(res.data.comments as Thread[]));
        cursor = res.data.nextCursor;
      } while (cursor);
      return out;
    };

    it("lists footer and inline threads with nested replies, highlighted text and resolution; replies to both kinds", async () => {
      const id = await newPage("Comments", "Alpha beta gamma. Beta again.\n\n## Part\n\nbeta three");
      const me = (await sandboxGet<{ displayName: string }>("/wiki/rest/api/user/current")).displayName;
      const footer = (await call("confluence_add_comment", { pageId: id, body: "Looks **good**." })).data.commentId as string;
      const reply = await call("confluence_reply_comment", { commentId: footer, body: "Thanks!" });
      expect(reply.isError, reply.text).toBe(false);
      expect(reply.data).toMatchObject({ parentId: footer, kind: "footer", pageId: id });
      expect(reply.text).toMatch(new RegExp(`^Replied to footer comment ${footer} on "Comments \\d+" \\(reply \\d+\\)\\.`));
      const nested = (await call("confluence_reply_comment", { commentId: reply.data.commentId, body: "You're welcome." })).data
        .commentId as string;

      const inline = await call("confluence_add_comment", { pageId: id, body: "Which *beta*?", inline: { text: "beta", occurrence: 2 } });
      expect(inline.isError, inline.text).toBe(false);
      expect(inline.text).toMatch(/^Commented inline on "beta" in page \d+/);
      const inlineId = inline.data.commentId as string;
      // Confluence marks the anchor in the page; the page reads the same.
      const storage = (await storageOf(id)).body.storage.value;
      expect(storage).toMatch(/<p><ac:inline-comment-marker ac:ref="[^"]+">beta<\/ac:inline-comment-marker> three<\/p>$/);
      expect(storage.match(/inline-comment-marker ac:ref/g)).toHaveLength(1);
      expect(storage.indexOf("inline-comment-marker")).toBeGreaterThan(storage.indexOf("<h2>Part</h2>"));
      expect((await call("confluence_get_page", { pageId: id })).data.body).toContain("beta three");
      const inlineReply = await call("confluence_reply_comment", { commentId: inlineId, body: "The second one." });
      expect(inlineReply.data).toMatchObject({ kind: "inline", parentId: inlineId });
      const res = await sandboxPut(`/wiki/api/v2/inline-comments/${inlineId}`, {
        version: { number: 2 },
        body: { representation: "storage", value: "<p>Which <em>beta</em>?</p>" },
        resolved: true,
      });
      expect(res.status).toBe(200);

      const all = await threads(id);
      expect(all).toHaveLength(2);
      expect(all[0]).toMatchObject({
        id: footer,
        kind: "footer",
        author: me,
        body: "Looks **good**.",
        moreReplies: false,
        replies: [
          { id: reply.data.commentId, parentId: footer, depth: 1, body: "Thanks!" },
          { id: nested, parentId: reply.data.commentId, depth: 2, body: "You're welcome." },
        ],
      });
      expect(all[0]!.highlighted).toBeUndefined();
      expect(all[1]).toMatchObject({
        id: inlineId,
        kind: "inline",
        highlighted: "beta",
        resolution: "resolved",
        body: "Which _beta_?",
        replies: [{ id: inlineReply.data.commentId, parentId: inlineId, depth: 1, body: "The second one." }],
      });
      const text = (await call("confluence_list_comments", { pageId: id })).text;
      expect(text).toContain(`- #${footer} footer ${me} `);
      expect(text).toContain(`  - #${reply.data.commentId} reply to #${footer} ${me}`);
      expect(text).toContain(`    - #${nested} reply to #${reply.data.commentId}`);
      expect(text).toContain(`- #${inlineId} inline on "beta" (resolved) ${me}`);
      expect((await threads(id, 50, "inline")).map((t) => t.id)).toEqual([inlineId]);
    });

    it("pages through threads by cursor, footer ones first, without gaps or repeats", async () => {
      const id = await newPage("Many comments", "Some words here.");
      const footers: string[] = [];
      for (const n of [1, 2, 3])
        footers.push((await call("confluence_add_comment", { pageId: id, body: `Footer ${n}` })).data.commentId as string);
      const inline = (await call("confluence_add_comment", { pageId: id, body: "On words", inline: { text: "words" } })).data
        .commentId as string;
      const first = await call("confluence_list_comments", { pageId: id, maxResults: 2 });
      expect(first.data.comments.map((c: Thread) => c.id)).toEqual(footers.slice(0, 2));
      expect(first.text).toMatch(/nextCursor: /);
      const second = await call("confluence_list_comments", { pageId: id, maxResults: 2, cursor: first.data.nextCursor });
      expect(second.data.comments.map((c: Thread) => c.id)).toEqual([footers[2], inline]);
      expect((await threads(id, 1)).map((t) => t.id)).toEqual([...footers, inline]);
      const stray = await call("confluence_list_comments", { pageId: id, kind: "footer", maxResults: 2, cursor: first.data.nextCursor });
      expect(stray.text).toMatch(/cursor is not a nextCursor/);
    });

    it("refuses anchors the page does not have and comments that do not exist", async () => {
      const id = await newPage("Anchors", "Only once.");
      const absent = await call("confluence_add_comment", { pageId: id, body: "x", inline: { text: "twice" } });
      expect(absent.isError).toBe(true);
      expect(absent.text).toMatch(/The text "twice" does not occur in page \d+'s text/);
      const past = await call("confluence_add_comment", { pageId: id, body: "x", inline: { text: "once", occurrence: 2 } });
      expect(past.text).toMatch(/occurs 1 time in page \d+: inline.occurrence may be at most 1/);
      expect((await threads(id)).length).toBe(0);
      expect((await call("confluence_list_comments", { pageId: id })).text).toMatch(/^No comments on "Anchors \d+"/);
      const missing = await call("confluence_reply_comment", { commentId: "424242", body: "x" });
      expect(missing.text).toMatch(/There is no comment 424242 \(footer or inline\)/);
      const bad = await call("confluence_reply_comment", { commentId: "abc", body: " " });
      expect(bad.text).toMatch(/commentId: commentId must be a numeric comment id.*; body: body must not be empty/);
      expect((await call("confluence_list_comments", { pageId: id, kind: "side" })).text).toMatch(
        /kind: kind must be all, footer or inline/,
      );
    });
  });

  describe("attachments", () => {
    const download = async (url: string) => Buffer.from(await (await fetch(url, { headers: AUTH })).arrayBuffer());

    it("uploads text and base64 files and lists them with type, size and a download link that serves the same bytes", async () => {
      const id = await newPage("Files");
      const csv = "name,owner\ngateway,Platform\nbilling,Payments ✓\n";
      const text = await call("confluence_upload_attachment", {
        pageId: id,
        filename: "owners.csv",
        content: csv,
        comment: "who owns what",
      });
      expect(text.isError, text.text).toBe(false);
      expect(text.data).toMatchObject({
        pageId: id,
        title: "owners.csv",
        mediaType: "text/csv",
        size: Buffer.byteLength(csv),
        id: expect.stringMatching(/^att\d+$/),
      });
      expect(text.text).toMatch(/^Attached owners\.csv \(text\/csv, \d+ B\) to "Files \d+" \(id \d+\) as att\d+\.\n/);
      expect((await download(text.data.downloadUrl)).toString("utf8")).toBe(csv);

      const bytes = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 13) % 256));
      const binary = await call("confluence_upload_attachment", {
        pageId: id,
        filename: "blob.bin",
        content: bytes.toString("base64"),
        encoding: "base64",
      });
      expect(binary.data).toMatchObject({ title: "blob.bin", mediaType: "application/octet-stream", size: 2048 });
      expect((await download(binary.data.downloadUrl)).equals(bytes)).toBe(true);

      const list = await call("confluence_list_attachments", { pageId: id });
      expect(list.isError, list.text).toBe(false);
      expect(list.data.attachments).toEqual([
        {
          id: text.data.id,
          title: "owners.csv",
          mediaType: "text/csv",
          size: Buffer.byteLength(csv),
          comment: "who owns what",
          created: expect.any(String),
          downloadUrl: text.data.downloadUrl,
        },
        {
          id: binary.data.id,
          title: "blob.bin",
          mediaType: "application/octet-stream",
          size: 2048,
          created: expect.any(String),
          downloadUrl: binary.data.downloadUrl,
        },
      ]);
      expect(list.text).toContain(
        `- owners.csv (text/csv · ${Buffer.byteLength(csv)} B · id ${text.data.id}): who owns what\n  ${text.data.downloadUrl}`,
      );
      expect(list.text).toContain(`- blob.bin (application/octet-stream · 2.0 KB · id ${binary.data.id})`);

      const first = await call("confluence_list_attachments", { pageId: id, maxResults: 1 });
      expect(first.data.attachments.map((a: { id: string }) => a.id)).toEqual([text.data.id]);
      const second = await call("confluence_list_attachments", { pageId: id, maxResults: 1, cursor: first.data.nextCursor });
      expect(second.data.attachments.map((a: { id: string }) => a.id)).toEqual([binary.data.id]);
      expect(second.data.nextCursor).toBeUndefined();
      expect((await call("confluence_list_attachments", { pageId: await newPage("No files") })).text).toMatch(
        /^No attachments on "No files \d+"/,
      );
    });

    it("refuses a file over 1 MB, bad base64, a taken name and bad arguments, attaching nothing", async () => {
      const id = await newPage("Limits");
      const big = await call("confluence_upload_attachment", {
        pageId: id,
        filename: "big.bin",
        content: Buffer.alloc(1024 * 1024 + 1).toString("base64"),
        encoding: "base64",
      });
      expect(big.isError).toBe(true);
      expect(big.text).toBe("The file is 1,048,577 bytes; uploads are limited to 1 MB (1,048,576 bytes). Upload a smaller file.");
      expect(
        (await call("confluence_upload_attachment", { pageId: id, filename: "b.bin", content: "not base64!", encoding: "base64" })).text,
      ).toMatch(/^content is not valid base64/);
      expect((await call("confluence_upload_attachment", { pageId: id, filename: "a.txt", content: "one" })).isError).toBe(false);
      const again = await call("confluence_upload_attachment", { pageId: id, filename: "a.txt", content: "two" });
      expect(again.text).toBe(`Page ${id} already has an attachment named a.txt. Choose another file name.`);
      const bad = await call("confluence_upload_attachment", {
        pageId: id,
        filename: "../x",
        content: "x",
        encoding: "hex",
        mediaType: "text",
      });
      expect(bad.text).toMatch(
        /filename: filename must be a plain file name.*; encoding: encoding must be text or base64; mediaType: mediaType must look like text\/csv/,
      );
      expect((await call("confluence_list_attachments", { pageId: id })).data.attachments.map((a: { title: string }) => a.title)).toEqual([
        "a.txt",
      ]);
    });
  });

  describe("policy and failures", () => {
    it("pages and spaces outside the allow-list are refused and left unchanged", async () => {
      const eng = await newPage("Outside", "x", "ENG", home);
      const hrHome = (await sandboxGet<{ results: { homepageId: string }[] }>("/wiki/api/v2/spaces?keys=HR")).results[0]!.homepageId;
      const hr = await newPage("Inside", "x", "HR", hrHome);
      const comment = (await call("confluence_add_comment", { pageId: eng, body: "before" })).data.commentId as string;
      try {
        expect((await policy({ confluenceSpaces: ["HR"] })).status).toBe(200);
        for (const [tool, args] of [
          ["confluence_get_page_by_title", { spaceKey: "ENG", title: "Engineering Home" }],
          ["confluence_get_space", { spaceKey: "ENG" }],
          ["confluence_get_page_descendants", { pageId: eng }],
          ["confluence_list_labels", { pageId: eng }],
          ["confluence_move_page", { pageId: eng, targetId: hrHome }],
          ["confluence_move_page", { pageId: hr, targetId: eng }],
          ["confluence_update_page_section", { pageId: eng, version: 1, heading: "x", body: "changed" }],
          ["confluence_delete_page", { pageId: eng }],
          ["confluence_get_page_history", { pageId: eng }],
          ["confluence_diff_page_versions", { pageId: eng, from: 1, to: 2 }],
          ["confluence_list_comments", { pageId: eng }],
          ["confluence_reply_comment", { commentId: comment, body: "outside" }],
          ["confluence_add_comment", { pageId: eng, body: "outside", inline: { text: "x" } }],
          ["confluence_list_attachments", { pageId: eng }],
          ["confluence_upload_attachment", { pageId: eng, filename: "outside.txt", content: "outside" }],
        ] as const) {
          const res = await call(tool, args);
          expect(res.isError, tool).toBe(true);
          expect(res.text, tool).toMatch(/may not use the Confluence space ENG/);
        }
        expect((await call("confluence_get_space", { spaceKey: "HR" })).isError).toBe(false);
      } finally {
        await policy({});
      }
      expect((await call("confluence_get_page", { pageId: hr })).data.parentId).toBe(hrHome);
      expect((await call("confluence_get_page", { pageId: eng })).data).toMatchObject({ parentId: home, version: 1 });
      expect((await call("confluence_list_comments", { pageId: eng })).data.comments).toMatchObject([{ id: comment, replies: [] }]);
      expect((await call("confluence_list_attachments", { pageId: eng })).data.attachments).toEqual([]);
    });

    it("a read-only client sees the reads, not the writes; upstream failures are sentences", async () => {
      const reads = await listed("read");
      for (const n of [
        "confluence_get_page_by_title",
        "confluence_get_space",
        "confluence_list_labels",
        "confluence_get_page_descendants",
        "confluence_get_page_history",
        "confluence_diff_page_versions",
        "confluence_list_comments",
        "confluence_list_attachments",
      ])
        expect(reads).toContain(n);
      for (const n of [
        "confluence_move_page",
        "confluence_update_page_section",
        "confluence_delete_page",
        "confluence_reply_comment",
        "confluence_add_comment",
        "confluence_upload_attachment",
      ])
        expect(reads).not.toContain(n);

      const a = await newPage("Fault", "x", "ENG", home);
      expect((await fault({ method: "PUT", path: `/wiki/rest/api/content/${a}/move/`, status: 500 })).status).toBeLessThan(300);
      const down = await call("confluence_move_page", { pageId: a, targetId: home, position: "before" });
      expect(down.isError).toBe(true);
      expect(down.text).toMatch(/^Confluence failed with an internal error \(500\)\. Try again later\./);
      expect((await call("confluence_get_page", { pageId: a })).data.parentId).toBe(home);
      expect((await fault({ path: `/wiki/api/v2/pages/${home}/descendants`, status: 503 })).status).toBeLessThan(300);
      expect((await call("confluence_get_page_descendants", { pageId: home })).text).toMatch(
        /^Confluence failed with an internal error \(503\)/,
      );
      expect((await fault({ path: `/wiki/api/v2/pages/${a}/labels`, status: 500 })).status).toBeLessThan(300);
      expect((await call("confluence_list_labels", { pageId: a })).text).toMatch(/^Confluence failed with an internal error \(500\)/);
      const refused = await call("confluence_update_page_section", { pageId: a, version: 1, heading: "x", body: "y" });
      expect(refused.text).toMatch(/has no heading "x"\. It has no headings: use confluence_update_page\./);
      await putStorage(a, "<h2>Keep</h2><p>kept</p>");
      expect((await fault({ method: "PUT", path: `/wiki/api/v2/pages/${a}`, status: 500 })).status).toBeLessThan(300);
      const failed = await call("confluence_update_page_section", { pageId: a, version: 2, heading: "Keep", body: "lost" });
      expect(failed.text).toMatch(/^Confluence failed with an internal error \(500\)/);
      expect((await storageOf(a)).body.storage.value).toBe("<h2>Keep</h2><p>kept</p>");
      expect((await fault({ path: `/wiki/api/v2/pages/${a}/versions`, status: 502 })).status).toBeLessThan(300);
      expect((await call("confluence_get_page_history", { pageId: a })).text).toMatch(/^Confluence failed with an internal error \(502\)/);
      expect((await fault({ path: `/wiki/api/v2/pages/${a}/footer-comments`, status: 500 })).status).toBeLessThan(300);
      expect((await call("confluence_list_comments", { pageId: a })).text).toMatch(/^Confluence failed with an internal error \(500\)/);
      const comment = (await call("confluence_add_comment", { pageId: a, body: "c" })).data.commentId as string;
      expect((await fault({ method: "POST", path: "/wiki/api/v2/footer-comments", status: 503 })).status).toBeLessThan(300);
      expect((await call("confluence_reply_comment", { commentId: comment, body: "r" })).text).toMatch(
        /^Confluence failed with an internal error \(503\)/,
      );
      expect((await call("confluence_list_comments", { pageId: a })).data.comments).toMatchObject([{ id: comment, replies: [] }]);
      expect((await fault({ method: "POST", path: `/wiki/rest/api/content/${a}/child/attachment`, status: 500 })).status).toBeLessThan(300);
      expect((await call("confluence_upload_attachment", { pageId: a, filename: "f.txt", content: "x" })).text).toMatch(
        /^Confluence failed with an internal error \(500\)/,
      );
      expect((await fault({ path: `/wiki/api/v2/pages/${a}/attachments`, status: 429, retryAfter: 7 })).status).toBeLessThan(300);
      expect((await call("confluence_list_attachments", { pageId: a })).text).toMatch(
        /^Confluence is rate limiting requests \(429\); wait 7 s/,
      );
      expect((await call("confluence_list_attachments", { pageId: a })).data.attachments).toEqual([]);
    });
  });
});
