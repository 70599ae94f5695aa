import { visibleRepos } from "./access";
import { bitbucketError } from "../core/errors";
import type { Router } from "../core/http";
import { findWorkspace } from "./common";
import { treeAt } from "./git";
import type { BitbucketState, Repo } from "./model";
import { paginate } from "./query";
import { repoApi, repoRef } from "./presenters";

/** Workspace code search: `search_query=repo:api-gateway lang:typescript healthCheck`. */

const LANG_EXTS: Record<string, string[]> = {
  typescript: ["ts", "tsx"],
  javascript: ["js", "mjs", "cjs", "jsx"],
  python: ["py"],
  go: ["go"],
  markdown: ["md"],
  json: ["json"],
  toml: ["toml"],
  yaml: ["yml", "yaml"],
};

interface ParsedQuery {
  terms: string[];
  repos: string[];
  exts: string[];
  paths: string[];
}

export function parseQuery(q: string): ParsedQuery {
  const out: ParsedQuery = { terms: [], repos: [], exts: [], paths: [] };
  for (const m of q.matchAll(/(\w+):("[^"]*"|\S+)|"([^"]*)"|(\S+)/g)) {
    const [, key, value, phrase, word] = m;
    const v = (value ?? "").replace(/^"|"$/g, "").toLowerCase();
    if (key === "repo") out.repos.push(v.includes("/") ? v.slice(v.indexOf("/") + 1) : v);
    else if (key === "lang") out.exts.push(...(LANG_EXTS[v] ?? [`__${v}`]));
    else if (key === "ext") out.exts.push(v.replace(/^\./, ""));
    else if (key === "path") out.paths.push(v);
    else if (key !== undefined) out.terms.push(m[0].toLowerCase());
    else if (phrase !== undefined) out.terms.push(phrase.toLowerCase());
    else if (word !== undefined && !["and", "or"].includes(word.toLowerCase())) out.terms.push(word.toLowerCase());
  }
  out.terms = out.terms.filter((t) => t !== "");
  return out;
}

type Segment = { text: string; match?: true };

function segments(text: string, terms: string[]): { segs: Segment[]; count: number } {
  const lower = text.toLowerCase();
  const segs: Segment[] = [];
  let count = 0;
  let pos = 0;
  while (pos < text.length) {
    let best = -1;
    let len = 0;
    for (const t of terms) {
      const i = lower.indexOf(t, pos);
      if (i !== -1 && (best === -1 || i < best || (i === best && t.length > len))) {
        best = i;
        len = t.length;
      }
    }
    if (best === -1) break;
    if (best > pos) segs.push({ text: text.slice(pos, best) });
    segs.push({ text: text.slice(best, best + len), match: true });
    count++;
    pos = best + len;
  }
  if (pos < text.length) segs.push({ text: text.slice(pos) });
  return { segs, count };
}

const MAX_GROUPS = 5;

export function searchFile(content: string, terms: string[]) {
  const lines = content.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const hits: number[] = [];
  let count = 0;
  const lineSegs = new Map<number, Segment[]>();
  lines.forEach((line, i) => {
    const { segs, count: n } = segments(line, terms);
    if (n > 0) {
      hits.push(i);
      count += n;
      lineSegs.set(i, segs);
    }
  });
  const groups: { lines: { line: number; segments: Segment[] }[] }[] = [];
  let current: { start: number; end: number } | null = null;
  const flush = () => {
    if (!current || groups.length >= MAX_GROUPS) return;
    const out = [];
    for (let i = current.start; i <= current.end; i++) out.push({ line: i + 1, segments: lineSegs.get(i) ?? [{ text: lines[i]! }] });
    groups.push({ lines: out });
  };
  for (const i of hits) {
    const start = Math.max(0, i - 1);
    const end = Math.min(lines.length - 1, i + 1);
    if (current && start <= current.end + 1) current.end = end;
    else {
      flush();
      current = { start, end };
    }
  }
  flush();
  return { count, groups };
}

interface Hit {
  repo: Repo;
  tip: string;
  path: string;
  content: string;
  pathMatches: Segment[];
  matches?: ReturnType<typeof searchFile>;
}

const resultCache = new WeakMap<BitbucketState, Map<string, Hit[]>>();
/** Lower-cased file contents per materialised tree (trees are immutable once built). */
const lowerCache = new WeakMap<Map<string, string>, Map<string, string>>();

export function search(repos: Repo[], q: ParsedQuery): Hit[] {
  const results: Hit[] = [];
  for (const repo of repos) {
    const tip = repo.branches.get(repo.mainbranch)!;
    const tree = treeAt(repo, tip);
    let lower = lowerCache.get(tree);
    if (!lower) {
      lower = new Map([...tree].map(([p, c]) => [p, c.toLowerCase()]));
      lowerCache.set(tree, lower);
    }
    for (const [path, content] of [...tree].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const lowerPath = path.toLowerCase();
      if (q.exts.length > 0 && !q.exts.some((e) => lowerPath.endsWith(`.${e}`))) continue;
      if (q.paths.length > 0 && !q.paths.some((p) => lowerPath.startsWith(p.replace(/^\//, "")))) continue;
      const lowerContent = lower.get(path)!;
      if (!q.terms.every((t) => lowerContent.includes(t) || lowerPath.includes(t))) continue;
      const pathSegs = segments(path, q.terms);
      results.push({ repo, tip, path, content, pathMatches: pathSegs.count > 0 ? pathSegs.segs : [] });
    }
  }
  return results;
}

export function searchRoutes(router: Router, state: () => BitbucketState): void {
  router.get("/2.0/workspaces/:workspace/search/code", (req) => {
    const s = state();
    const missing = findWorkspace(s, req.params.workspace);
    if (missing) return missing;
    const raw = req.query.get("search_query");
    if (!raw || raw.trim() === "") return bitbucketError(400, "search_query: This field is required.");
    const q = parseQuery(raw);
    if (q.terms.length === 0) return bitbucketError(400, "Search query must contain at least one search term.");
    const repos: Repo[] = visibleRepos(
      req,
      q.repos.length > 0 ? q.repos.map((slug) => s.reposBySlug.get(slug)).filter((r): r is Repo => r !== undefined) : s.repos,
    );
    // Results depend on the query and the main-branch tips only, so they are cached on those.
    const key = `${JSON.stringify(q)}|${repos.map((r) => r.branches.get(r.mainbranch)).join(",")}`;
    let cache = resultCache.get(s);
    if (!cache) {
      cache = new Map();
      resultCache.set(s, cache);
    }
    let results = cache.get(key);
    if (!results) {
      results = search(repos, q);
      if (cache.size >= 100) cache.clear();
      cache.set(key, results);
    }
    const reply = paginate(req, results, (r) => {
      r.matches ??= searchFile(r.content, q.terms);
      const { count, groups } = r.matches;
      return {
        type: "code_search_result",
        content_match_count: count,
        content_matches: groups,
        path_matches: r.pathMatches,
        file: {
          path: r.path,
          type: "commit_file",
          links: { self: { href: `${repoApi(req.origin, s, r.repo.slug)}/src/${r.tip}/${r.path}` } },
          commit: {
            type: "commit",
            hash: r.tip,
            links: { self: { href: `${repoApi(req.origin, s, r.repo.slug)}/commit/${r.tip}` } },
            repository: repoRef(req.origin, s, r.repo),
          },
        },
      };
    });
    if (reply.status !== 200) return reply;
    return { ...reply, body: { ...(reply.body as object), query_substituted: false } };
  });
}
