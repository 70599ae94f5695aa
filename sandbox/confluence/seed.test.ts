import { describe, expect, it } from "vitest";
import { Rng } from "../core/random";
import { parseCql, CqlError } from "./cql";
import { seedConfluence } from "./seed";

describe("Confluence seed", () => {
  it("builds 200 pages in four spaces with a tree, rich bodies, labels, comments and blog posts, the same for the same seed", () => {
    const state = seedConfluence(new Rng(42));
    const again = seedConfluence(new Rng(42));
    expect(again.ordered.map((c) => [c.id, c.title, c.body])).toEqual(state.ordered.map((c) => [c.id, c.title, c.body]));
    const pages = state.ordered.filter((c) => c.type === "page");
    expect(pages).toHaveLength(200);
    expect(state.spaces.map((s) => s.key)).toEqual(["ENG", "HR", "OPS", "PROD"]);
    expect(state.ordered.filter((c) => c.type === "blogpost")).toHaveLength(8);
    const comments = state.ordered.filter((c) => c.type === "comment");
    expect(comments.length).toBeGreaterThan(20);
    expect(comments.some((c) => c.parentId !== null)).toBe(true);
    expect(pages.some((p) => p.body.includes('<ac:structured-macro ac:name="code"'))).toBe(true);
    expect(pages.some((p) => p.body.includes("<table>"))).toBe(true);
    expect(pages.every((p) => p.labels.length > 0 || p.parentId === null)).toBe(true);
    // Every page hangs under its space's homepage; titles are unique per space; ids ascend.
    for (const p of pages) {
      let top = p;
      while (top.parentId) top = state.content.get(top.parentId)!;
      expect(top.id).toBe(state.spaceByKey.get(p.spaceKey)!.homepageId);
    }
    expect(new Set(pages.map((p) => `${p.spaceKey}/${p.title.toLowerCase()}`)).size).toBe(200);
    const ids = state.ordered.map((c) => Number(c.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const p of pages) for (const v of p.versions) expect(Date.parse(v.when)).toBeGreaterThanOrEqual(Date.parse(p.createdAt));
  });

  it("is deterministic", () => {
    const a = seedConfluence(new Rng(7));
    const b = seedConfluence(new Rng(7));
    const strip = (s: typeof a) => JSON.stringify(s.ordered);
    expect(strip(a)).toBe(strip(b));
    expect(strip(seedConfluence(new Rng(8)))).not.toBe(strip(a));
  });

  it("parses the documented CQL forms and rejects broken ones", () => {
    for (const ok of [
      'type = page and space in (ENG, OPS) and title ~ "deploy" order by lastmodified desc',
      "label = runbook or not label != adr",
      "ancestor = 1 and parent != 2",
      'creator = currentUser() and lastmodified >= now("-7d")',
      'created < "2026/01/01 10:00" order by title asc, created desc',
      "id in (1, 2, 3)",
      'text !~ "foo"',
    ]) {
      expect(() => parseCql(ok), ok).not.toThrow();
    }
    for (const bad of [
      "",
      "type",
      "type = page and",
      "type = page or (space = ENG",
      "order by nothing",
      'created > now("-7x")',
      "text = foo",
      "creator = someone()",
    ]) {
      expect(() => parseCql(bad), bad).toThrow(CqlError);
    }
  });
});
