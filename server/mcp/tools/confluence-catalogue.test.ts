import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLSET_NAMES } from "../../../contract/policy";
import { mcpClient, modernRpc, startMcpRig, type McpRig } from "../mcp.test-rig";

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
  const policy = (p: Record<string, unknown>) => rig.admin.put(`/api/admin/oauth-clients/${rig.client.clientId}/policy`, { toolsets: TOOLSET_NAMES, ...p });
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    const set = await policy({});
    if (set.status !== 200) throw new Error(`policy: ${set.status}`);
    client = await mcpClient(rig, await rig.token("read write"), "confluence-catalogue-test");
    home = (await sandboxGet<{ results: { homepageId: string }[] }>("/wiki/api/v2/spaces?keys=ENG")).results[0]!.homepageId;
  });
  afterAll(async () => {
    await client?.close();
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const fault = (spec: Record<string, unknown>) => fetch(`${rig.sandbox.url}/__sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...spec, times: 1 }) });
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
  const listed = async (scope: string) => ((await modernRpc(rig.baseUrl, await rig.token(scope), "tools/list")).json.result.tools as { name: string }[]).map((t) => t.name);

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
      expect(res.data).toMatchObject({ key: "ENG", name: "Engineering", homepage: { id: home, title: "Engineering Home", url: expect.stringContaining(`/wiki/spaces/ENG/pages/${home}/`) }, url: `${rig.sandbox.url}/wiki/spaces/ENG` });
      expect((res.data.description as string).length).toBeGreaterThan(10);
      expect(res.text).toMatch(/^ENG: Engineering\n.+\nHomepage: Engineering Home \(id \d+\)/);
      expect((await call("confluence_get_space", { spaceKey: "NOPE" })).text).toMatch(/There is no Confluence space NOPE/);
    });

    it("outlines a subtree to a depth, indented, and says when it is cut", async () => {
      const res = await call("confluence_get_page_descendants", { pageId: home, depth: 2 });
      expect(res.isError, res.text).toBe(false);
      const lines = res.data.descendants as Line[];
      const children = (await sandboxGet<{ results: { id: string }[] }>(`/wiki/api/v2/pages/${home}/children?limit=250`)).results.map((c) => c.id);
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

    it("moves a page under a new parent and before or after a sibling; never under itself", async () => {
      const a = await newPage("Move A", "A", "ENG", home);
      const b = await newPage("Move B", "B", "ENG", home);
      const c = await newPage("Move C", "C", "ENG", b);
      const moved = await call("confluence_move_page", { pageId: a, targetId: b });
      expect(moved.isError, moved.text).toBe(false);
      expect(moved.data).toMatchObject({ pageId: a, parentId: b, position: "append", targetId: b });
      expect(moved.text).toMatch(/^Moved "Move A \d+" \(id \d+\) under "Move B \d+"\./);
      const childIds = async (id: string) => ((await call("confluence_get_page_children", { pageId: id })).data.children as { id: string }[]).map((x) => x.id);
      expect(await childIds(b)).toEqual([c, a]);

      expect((await call("confluence_move_page", { pageId: a, targetId: c, position: "before" })).data).toMatchObject({ parentId: b, position: "before" });
      expect(await childIds(b)).toEqual([a, c]);
      expect((await call("confluence_move_page", { pageId: a, targetId: c, position: "after" })).isError).toBe(false);
      expect(await childIds(b)).toEqual([c, a]);

      const cycle = await call("confluence_move_page", { pageId: b, targetId: c });
      expect(cycle.isError).toBe(true);
      expect(cycle.text).toMatch(/refused the request as invalid \(400\): .*Cannot move a page relative to itself or one of its descendants/);
      expect((await call("confluence_get_page", { pageId: b })).data.parentId).toBe(home);
      expect((await call("confluence_move_page", { pageId: a, targetId: a })).text).toMatch(/cannot move relative to itself/);
      expect((await call("confluence_move_page", { pageId: a, targetId: b, position: "inside" })).text).toMatch(/position: position must be append, before or after/);
    });
  });

  describe("policy and failures", () => {
    it("pages and spaces outside the allow-list are refused and left unchanged", async () => {
      const eng = await newPage("Outside", "x", "ENG", home);
      const hrHome = (await sandboxGet<{ results: { homepageId: string }[] }>("/wiki/api/v2/spaces?keys=HR")).results[0]!.homepageId;
      const hr = await newPage("Inside", "x", "HR", hrHome);
      try {
        expect((await policy({ confluenceSpaces: ["HR"] })).status).toBe(200);
        for (const [tool, args] of [
          ["confluence_get_page_by_title", { spaceKey: "ENG", title: "Engineering Home" }],
          ["confluence_get_space", { spaceKey: "ENG" }],
          ["confluence_get_page_descendants", { pageId: eng }],
          ["confluence_move_page", { pageId: eng, targetId: hrHome }],
          ["confluence_move_page", { pageId: hr, targetId: eng }],
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
      expect((await call("confluence_get_page", { pageId: eng })).data.parentId).toBe(home);
    });

    it("a read-only client sees the reads, not the writes; upstream failures are sentences", async () => {
      const reads = await listed("read");
      for (const n of ["confluence_get_page_by_title", "confluence_get_space", "confluence_get_page_descendants"]) expect(reads).toContain(n);
      for (const n of ["confluence_move_page"]) expect(reads).not.toContain(n);

      const a = await newPage("Fault", "x", "ENG", home);
      expect((await fault({ method: "PUT", path: `/wiki/rest/api/content/${a}/move/`, status: 500 })).status).toBeLessThan(300);
      const down = await call("confluence_move_page", { pageId: a, targetId: home, position: "before" });
      expect(down.isError).toBe(true);
      expect(down.text).toMatch(/^Confluence failed with an internal error \(500\)\. Try again later\./);
      expect((await call("confluence_get_page", { pageId: a })).data.parentId).toBe(home);
      expect((await fault({ path: `/wiki/api/v2/pages/${home}/descendants`, status: 503 })).status).toBeLessThan(300);
      expect((await call("confluence_get_page_descendants", { pageId: home })).text).toMatch(/^Confluence failed with an internal error \(503\)/);
    });
  });
});
