import { commentLine } from "./content";
import type { Commit, FileOp, Repo } from "./model";

/** Git-like operations over the seeded commit graph: trees, revisions, ancestry. */

/** Lines whose numbers are not settings (versions, status codes, exit codes, unit factors). */
const UNTWEAKABLE = /version|go 1\.|exit|writeHead|status|Status|\b[1-5]\d\d\b|\* 1000|monotonic|line-length/;

function applyOp(tree: Map<string, string>, op: FileOp): void {
  switch (op.kind) {
    case "add":
      tree.set(op.path, op.content);
      return;
    case "delete":
      tree.delete(op.path);
      return;
    case "insert": {
      const text = tree.get(op.path);
      if (text === undefined) {
        tree.set(op.path, `${op.lines.join("\n")}\n`);
        return;
      }
      const lines = text.split("\n");
      const at = Math.max(0, Math.min(op.after, lines.length - 1));
      // In code, an inserted comment takes the indentation of the line it lands before.
      const indent = op.path.endsWith(".md") ? "" : (/^\s*/.exec(lines[at] ?? "")?.[0] ?? "");
      lines.splice(at, 0, ...op.lines.map((l) => indent + l));
      tree.set(op.path, lines.join("\n"));
      return;
    }
    case "tweak": {
      const text = tree.get(op.path);
      if (text === undefined) return;
      const lines = text.split("\n");
      const last = Math.max(0, lines.length - 2);
      // Find a line with a number at or after `line` (wrapping), else annotate the chosen line.
      for (let k = 0; k <= last; k++) {
        const i = (op.line + k) % (last + 1);
        const line = lines[i]!;
        const m = /\d+/.exec(line);
        if (m && m[0].length >= 2 && !UNTWEAKABLE.test(line)) {
          const n = Number(m[0]) + op.delta;
          lines[i] = line.slice(0, m.index) + String(Math.max(1, n)) + line.slice(m.index + m[0].length);
          tree.set(op.path, lines.join("\n"));
          return;
        }
      }
      const note = commentLine(op.path, "reviewed");
      if (note) lines.splice(Math.min(op.line, last), 0, note);
      tree.set(op.path, lines.join("\n"));
      return;
    }
  }
}

/** The files at a commit (path → content), materialised once and cached. */
export function treeAt(repo: Repo, hash: string): Map<string, string> {
  const cached = repo.trees.get(hash);
  if (cached) return cached;
  // Walk first parents back to the nearest cached tree (or the root), then replay forward.
  const chain: Commit[] = [];
  let base: Map<string, string> | undefined;
  let cursor: string | undefined = hash;
  while (cursor) {
    const known = repo.trees.get(cursor);
    if (known) {
      base = known;
      break;
    }
    const commit = repo.commits.get(cursor);
    if (!commit) break;
    chain.push(commit);
    cursor = commit.parents[0];
  }
  let tree = base ?? new Map<string, string>();
  for (let i = chain.length - 1; i >= 0; i--) {
    const commit = chain[i]!;
    tree = new Map(tree);
    for (const op of commit.ops) applyOp(tree, op);
    repo.trees.set(commit.hash, tree);
  }
  return tree;
}

/** A branch name, a full hash or a unique hash prefix (7+ characters) → commit. */
export function resolveRevision(repo: Repo, revision: string): Commit | null {
  const branchTip = repo.branches.get(revision);
  if (branchTip) return repo.commits.get(branchTip) ?? null;
  if (!/^[0-9a-f]{4,40}$/i.test(revision)) return null;
  const lower = revision.toLowerCase();
  const exact = repo.commits.get(lower);
  if (exact) return exact;
  let found: Commit | null = null;
  for (const [hash, commit] of repo.commits) {
    if (hash.startsWith(lower)) {
      if (found) return null;
      found = commit;
    }
  }
  return found;
}

/** All commits reachable from `hashes`. */
export function ancestors(repo: Repo, hashes: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...hashes];
  while (stack.length > 0) {
    const h = stack.pop()!;
    if (seen.has(h)) continue;
    const c = repo.commits.get(h);
    if (!c) continue;
    seen.add(h);
    for (const p of c.parents) stack.push(p);
  }
  return seen;
}

const logCache = new WeakMap<Repo, Map<string, Commit[]>>();

/** Commits reachable from `include` and not from `exclude`, newest first (cached: commits never change). */
export function log(repo: Repo, include: string[], exclude: string[] = []): Commit[] {
  let cache = logCache.get(repo);
  if (!cache) {
    cache = new Map();
    logCache.set(repo, cache);
  }
  const key = `${include.join(",")}^${exclude.join(",")}`;
  let hit = cache.get(key);
  if (!hit) {
    if (cache.size >= 200) cache.clear();
    hit = computeLog(repo, include, exclude);
    cache.set(key, hit);
  }
  return hit;
}

function computeLog(repo: Repo, include: string[], exclude: string[]): Commit[] {
  const excluded = exclude.length > 0 ? ancestors(repo, exclude) : null;
  const out: Commit[] = [];
  for (const h of ancestors(repo, include)) {
    if (excluded?.has(h)) continue;
    out.push(repo.commits.get(h)!);
  }
  return out.sort((a, b) => b.date - a.date || (a.hash < b.hash ? -1 : 1));
}

const baseCache = new WeakMap<Repo, Map<string, string>>();

/** The newest common ancestor of two commits (the root when unrelated), cached. */
export function mergeBase(repo: Repo, a: string, b: string): string {
  let cache = baseCache.get(repo);
  if (!cache) {
    cache = new Map();
    baseCache.set(repo, cache);
  }
  const key = `${a}..${b}`;
  let hit = cache.get(key);
  if (hit === undefined) {
    if (cache.size >= 500) cache.clear();
    hit = computeMergeBase(repo, a, b);
    cache.set(key, hit);
  }
  return hit;
}

function computeMergeBase(repo: Repo, a: string, b: string): string {
  const fromB = ancestors(repo, [b]);
  let best: Commit | null = null;
  for (const h of ancestors(repo, [a])) {
    if (!fromB.has(h)) continue;
    const c = repo.commits.get(h)!;
    if (!best || c.date > best.date) best = c;
  }
  return best?.hash ?? a;
}

/** The immediate children of a directory at a commit: files and sub-directories, sorted. */
export function listDirectory(tree: Map<string, string>, dir: string): { files: string[]; dirs: string[] } | null {
  const prefix = dir === "" ? "" : `${dir}/`;
  const files: string[] = [];
  const dirs = new Set<string>();
  for (const path of tree.keys()) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash === -1) files.push(path);
    else dirs.add(prefix + rest.slice(0, slash));
  }
  if (files.length === 0 && dirs.size === 0 && dir !== "") return null;
  return { files: files.sort(), dirs: [...dirs].sort() };
}
