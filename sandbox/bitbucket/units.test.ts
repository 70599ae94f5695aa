import { describe, expect, it } from "vitest";
import { Rng } from "../core/random";
import { diffTrees } from "./diff";
import type { Repo } from "./model";
import { filterAndSort, QueryError } from "./query";
import { seedBitbucket } from "./seed";

/** Applies a single-file unified diff body (hunks only) to `before`. */
function applyHunks(before: string[], diff: string): string[] {
  const out: string[] = [];
  let cursor = 0;
  const lines = diff.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@/.exec(lines[i]!);
    if (!m) continue;
    const oldStart = Number(m[1]);
    const oldCount = Number(m[2]);
    const from = oldCount === 0 ? oldStart : oldStart - 1;
    while (cursor < from) out.push(before[cursor++]!);
    for (i++; i < lines.length && !lines[i]!.startsWith("@@") && !lines[i]!.startsWith("diff --git"); i++) {
      const l = lines[i]!;
      if (l === "" && i === lines.length - 1) break;
      if (l.startsWith(" ")) {
        expect(before[cursor]).toBe(l.slice(1));
        out.push(l.slice(1));
        cursor++;
      } else if (l.startsWith("-")) {
        expect(before[cursor]).toBe(l.slice(1));
        cursor++;
      } else if (l.startsWith("+")) out.push(l.slice(1));
    }
    i--;
  }
  while (cursor < before.length) out.push(before[cursor++]!);
  return out;
}

function fakeRepo(before: string, after: string): Repo {
  const commits = new Map([
    [
      "a",
      {
        hash: "a",
        message: "a",
        author: null as never,
        date: 1,
        parents: [],
        ops: [{ kind: "add" as const, path: "f.txt", content: before }],
      },
    ],
    [
      "b",
      {
        hash: "b",
        message: "b",
        author: null as never,
        date: 2,
        parents: ["a"],
        ops: [{ kind: "add" as const, path: "f.txt", content: after }],
      },
    ],
  ]);
  return { commits, trees: new Map(), diffs: new Map() } as unknown as Repo;
}

describe("Bitbucket sandbox units", () => {
  it("produces unified diffs whose hunks re-apply exactly", () => {
    const rng = new Rng(42);
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: rng.int(0, 40) }, () => `line ${rng.int(0, 12)}`);
      const b = [...a];
      for (let e = rng.int(1, 6); e > 0; e--) {
        const at = rng.int(0, b.length);
        if (rng.chance(0.4) && b.length > 0) b.splice(Math.min(at, b.length - 1), 1);
        else if (rng.chance(0.5) && b.length > 0) b[Math.min(at, b.length - 1)] = `changed ${rng.int(0, 99)}`;
        else b.splice(at, 0, `added ${rng.int(0, 99)}`);
      }
      const text = (l: string[]) => (l.length ? `${l.join("\n")}\n` : "");
      const files = diffTrees(fakeRepo(text(a), text(b)), "a", "b");
      if (text(a) === text(b)) {
        expect(files).toEqual([]);
        continue;
      }
      const [f] = files;
      expect(applyHunks(a, f!.text)).toEqual(b);
      expect(f!.linesAdded).toBe(f!.text.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).length);
    }
  });

  it("filters and sorts with BBQL", () => {
    const items = [
      { name: "api-gateway", project: { key: "PLAT" }, size: 10, updated_on: "2025-01-02" },
      { name: "web", project: { key: "WEB" }, size: 30, updated_on: "2025-03-01" },
      { name: "payments-api", project: { key: "PLAT" }, size: 20, updated_on: "2025-02-01" },
    ];
    expect(filterAndSort(items, 'name ~ "API"', null).map((i) => i.name)).toEqual(["api-gateway", "payments-api"]);
    expect(filterAndSort(items, 'project.key = "PLAT" AND (size > 15 OR name = "web")', null).map((i) => i.name)).toEqual(["payments-api"]);
    expect(filterAndSort(items, 'name !~ "api"', null).map((i) => i.name)).toEqual(["web"]);
    expect(filterAndSort(items, "updated_on >= 2025-02-01", "-updated_on").map((i) => i.name)).toEqual(["web", "payments-api"]);
    expect(filterAndSort(items, null, "size").map((i) => i.size)).toEqual([10, 20, 30]);
    expect(() => filterAndSort(items, 'colour = "red"', null)).toThrow(QueryError);
    expect(() => filterAndSort(items, 'name = "x" AND', null)).toThrow(QueryError);
    expect(() => filterAndSort(items, null, "-nope")).toThrow(QueryError);
  });

  it("seeds 30 repositories within the documented bounds", () => {
    const state = seedBitbucket(new Rng(1234));
    expect(state.repos).toHaveLength(30);
    expect(state.projects).toHaveLength(3);
    for (const repo of state.repos) {
      expect(repo.branches.size).toBeGreaterThanOrEqual(2);
      expect(repo.branches.size).toBeLessThanOrEqual(6);
      expect(repo.commits.size).toBeGreaterThanOrEqual(20);
      expect(repo.commits.size).toBeLessThanOrEqual(60);
      expect([...repo.pullRequests.values()].some((p) => p.state === "OPEN")).toBe(true);
      for (const c of repo.commits.values()) {
        expect(c.hash).toMatch(/^[0-9a-f]{40}$/);
        for (const p of c.parents) expect(repo.commits.get(p)!.date).toBeLessThan(c.date);
      }
    }
    const again = seedBitbucket(new Rng(1234));
    expect(again.repos.map((r) => [...r.branches.values()].join())).toEqual(state.repos.map((r) => [...r.branches.values()].join()));
  });
});
