import type { BitbucketBranch, BitbucketPage, BitbucketRepository, BitbucketWorkspace } from "./bitbucket.client";
import { API, enc, readRepositoryQuery, repoPath, type DcContext } from "./bitbucket-dc-context";
import {
  commitOf,
  repositoryOf,
  repoWeb,
  selfHref,
  type DcChange,
  type DcCommit,
  type DcDiff,
  type DcPage,
  type DcPath,
  type DcProject,
  type DcRef,
  type DcRepository,
  type DcUser,
} from "./bitbucket-dc-shapes";
import { diffstatOf, lineCounts, unifiedDiff } from "./bitbucket-dc-diff";
import { UpstreamError, isUpstreamError } from "./errors";
import { collect, paginateStartLimit } from "./paginate";

/**
 * Bitbucket DC: who is calling, projects (a Cloud workspace is a project key; `*` is every
 * project), repositories, branches, commits, files and code search, answered in the Cloud shapes.
 */

/** Every project (`*`): a listing across projects rather than within one. */
export const ALL_PROJECTS = "*";
const path = (p: string) => p.split("/").map(enc).join("/");

/** The default branch's name: `/default-branch` (DC 7.5+), else the older `/branches/default`; none in an empty repository. */
export const dcDefaultBranch =
  ({ call }: DcContext) =>
  async (key: string, slug: string): Promise<string | undefined> => {
    try {
      return (await call<{ displayId?: string } | undefined>({ path: `${repoPath(key, slug)}/default-branch` }))?.displayId;
    } catch (err) {
      if (!(isUpstreamError(err) && err.kind === "not_found")) throw err;
      return (await call<{ displayId?: string } | undefined>({ path: `${repoPath(key, slug)}/branches/default` }))?.displayId;
    }
  };

export function dcRepositoryCalls(dc: DcContext) {
  const { call, pages, web } = dc;
  const listPath = (key: string) => (key === ALL_PROJECTS ? `${API}/repos` : `${API}/projects/${enc(key)}/repos`);
  const commitsWeb = async (key: string, slug: string) => repoWeb(await web(), key, slug);
  const defaultBranch = dcDefaultBranch(dc);

  /**
   * The repositories a listing asks for. Under an allow-list (`slug = …`/`full_name = …`) each is
   * read by name; else a project's whole list (DC filters it by nothing but the caller's rights),
   * or across projects DC's `/repos` with its `name` filter. `name ~` keeps names containing it.
   */
  async function selected(key: string, q: string | undefined, maxItems = 2000): Promise<DcRepository[]> {
    const { slugs, fullNames, projects, name } = readRepositoryQuery(q);
    const named = (r: DcRepository) => !name || r.name.toLowerCase().includes(name.toLowerCase());
    if (slugs === null) {
      const query = key === ALL_PROJECTS && name ? { name } : {};
      return (await collect(pages<DcRepository>(listPath(key), query, maxItems, 1000))).filter(named);
    }
    const wanted = [
      ...fullNames.map((f) => f.split("/") as [string, string]),
      ...(key === ALL_PROJECTS ? [] : slugs.map((s) => [key, s] as [string, string])),
    ];
    const found = await Promise.all(
      wanted.map(([k, s]) =>
        call<DcRepository>({ path: repoPath(k, s) }).catch((err) =>
          isUpstreamError(err) && err.kind === "not_found" ? null : Promise.reject(err),
        ),
      ),
    );
    // Across projects a bare slug may be in any of them: DC's name filter finds the candidates.
    const anywhere =
      key === ALL_PROJECTS
        ? (await Promise.all(slugs.map((s) => collect(pages<DcRepository>(`${API}/repos`, { name: s }, 200)))))
            .flat()
            .filter((r) => slugs.includes(r.slug.toLowerCase()))
        : [];
    // A whole project allowed (`PROJECT/*`): its every repository.
    const whole = (await Promise.all(projects.map((p) => collect(pages<DcRepository>(listPath(p), {}, maxItems, 1000))))).flat();
    const unique = new Map<string, DcRepository>();
    for (const r of [...found, ...anywhere, ...whole]) if (r) unique.set(`${r.project.key}/${r.slug}`.toLowerCase(), r);
    return [...unique.values()]
      .filter(named)
      .sort((a, b) => (a.project.key === b.project.key ? a.name.localeCompare(b.name) : a.project.key < b.project.key ? -1 : 1));
  }

  return {
    async user(timeoutMs?: number) {
      const name = await dc.whoAmI(timeoutMs);
      const u = await call<DcUser>({ path: `${API}/users/${enc(name)}`, timeoutMs });
      return {
        username: u.name,
        nickname: u.name,
        display_name: u.displayName ?? u.name,
        uuid: String(u.id ?? u.slug ?? u.name),
        account_id: u.name,
      };
    },
    async workspace(key: string, timeoutMs?: number) {
      const p = await call<DcProject>({ path: `${API}/projects/${enc(key)}`, timeoutMs });
      return { slug: p.key, name: p.name, uuid: String(p.id ?? p.key) };
    },
    /** DC's pages carry no total: the listing is counted (1,000 a page). */
    async repositoryCount(key: string, timeoutMs?: number): Promise<number> {
      let count = 0;
      for (let start = 0; ;) {
        const page = await call<DcPage<unknown>>({ path: listPath(key), query: { start, limit: 1000 }, timeoutMs });
        count += page.values?.length ?? 0;
        if (page.isLastPage !== false || typeof page.nextPageStart !== "number" || page.nextPageStart <= start) return count;
        start = page.nextPageStart;
      }
    },
    async *repositories(key: string, options: { q?: string; pageSize?: number; maxItems?: number } = {}) {
      for (const r of await selected(key, options.q, options.maxItems)) yield repositoryOf(r) as BitbucketRepository;
    },
    /**
     * One page of repositories (`page` from 1), by name (DC keeps no last-change time to sort by),
     * with the total when the whole list was read. The main branch is left out: DC answers it one
     * repository at a time.
     */
    async repositoriesPage(
      key: string,
      options: { q?: string | undefined; pagelen?: number; page?: number; sort?: string } = {},
    ): Promise<BitbucketPage<BitbucketRepository>> {
      const pagelen = options.pagelen ?? 25;
      const page = options.page ?? 1;
      if (key === ALL_PROJECTS && readRepositoryQuery(options.q).slugs === null) {
        const name = readRepositoryQuery(options.q).name;
        const answer = await call<DcPage<DcRepository>>({
          path: listPath(key),
          query: { start: (page - 1) * pagelen, limit: pagelen, ...(name ? { name } : {}) },
        });
        return {
          values: (answer.values ?? []).map((r) => repositoryOf(r)),
          page,
          pagelen,
          ...(answer.isLastPage === false ? { next: String(page + 1) } : {}),
        };
      }
      const all = await selected(key, options.q);
      const values = all.slice((page - 1) * pagelen, page * pagelen).map((r) => repositoryOf(r));
      return { values, page, pagelen, size: all.length, ...(page * pagelen < all.length ? { next: String(page + 1) } : {}) };
    },
    /** The projects the account sees (DC lists no permission with them; personal projects are not listed). */
    async *workspaceMemberships(maxItems?: number) {
      for await (const p of pages<DcProject>(`${API}/projects`, {}, maxItems)) {
        const workspace: BitbucketWorkspace = {
          slug: p.key,
          name: p.name,
          uuid: String(p.id ?? p.key),
          links: { html: { href: selfHref(p.links) } },
        };
        yield { permission: undefined as string | undefined, workspace };
      }
    },
    async repository(key: string, slug: string) {
      const [r, main] = await Promise.all([call<DcRepository>({ path: repoPath(key, slug) }), defaultBranch(key, slug)]);
      return repositoryOf(r, main) as BitbucketRepository;
    },
    async commit(key: string, slug: string, hash: string) {
      return commitOf(await call<DcCommit>({ path: `${repoPath(key, slug)}/commits/${enc(hash)}` }), await commitsWeb(key, slug));
    },
    /** The files a commit changes (DC's `/changes`), with line counts from its diff (the changes carry none). */
    async *commitDiffstat(key: string, slug: string, hash: string, maxItems?: number) {
      const at = `${repoPath(key, slug)}/commits/${enc(hash)}`;
      const counts = lineCounts(await call<DcDiff>({ path: `${at}/diff`, query: { contextLines: 0, withComments: false } }));
      for await (const c of pages<DcChange>(`${at}/changes`, {}, maxItems, 500)) yield diffstatOf(c, counts);
    },
    /** DC answers a commit's diff as JSON hunks: rendered as the unified text the Cloud API gives. */
    async commitDiff(key: string, slug: string, hash: string) {
      return unifiedDiff(
        await call<DcDiff>({ path: `${repoPath(key, slug)}/commits/${enc(hash)}/diff`, query: { contextLines: 3, withComments: false } }),
      );
    },
    /** Branches, latest changed first, each with its tip commit (DC's latest-commit metadata, asked for with `details`). */
    async *branches(key: string, slug: string, maxItems?: number) {
      const base = await commitsWeb(key, slug);
      for await (const b of pages<DcRef>(`${repoPath(key, slug)}/branches`, { details: true, orderBy: "MODIFICATION" }, maxItems)) {
        const meta = b.metadata?.["com.atlassian.bitbucket.server.bitbucket-branch:latest-commit-metadata"] as DcCommit | undefined;
        const branch: BitbucketBranch = { name: b.displayId, target: commitOf(meta ?? { id: b.latestCommit ?? "" }, base) };
        yield branch;
      }
    },
    async *commits(key: string, slug: string, revision?: string, maxItems?: number) {
      const base = await commitsWeb(key, slug);
      for await (const c of pages<DcCommit>(`${repoPath(key, slug)}/commits`, revision ? { until: revision } : {}, maxItems, 50))
        yield commitOf(c, base);
    },
    /**
     * A file's text (DC's `/raw`), or a directory's listing in the Cloud's JSON (`values` of
     * `commit_file`/`commit_directory`, `pagelen`), as the Cloud's `src` answers both.
     */
    async fileContent(key: string, slug: string, commit: string, filePath: string): Promise<string> {
      const at = { at: commit };
      const kind = filePath
        ? (await call<{ type?: string }>({ path: `${repoPath(key, slug)}/browse/${path(filePath)}`, query: { ...at, type: true } })).type
        : "DIRECTORY";
      if (kind !== "DIRECTORY") return call<string>({ path: `${repoPath(key, slug)}/raw/${path(filePath)}`, query: at, accept: "text" });
      const browse = `${repoPath(key, slug)}/browse${filePath ? `/${path(filePath)}` : ""}`;
      const children = await collect(
        paginateStartLimit<{ path: DcPath; type?: string }>(
          async (start) =>
            (await call<{ children?: DcPage<{ path: DcPath; type?: string }> }>({ path: browse, query: { ...at, start, limit: 1000 } }))
              .children ?? {},
          5000,
        ),
      );
      const values = children.map((c) => ({
        path: `${filePath ? `${filePath}/` : ""}${c.path.toString ?? c.path.name ?? ""}`,
        type: c.type === "DIRECTORY" ? "commit_directory" : "commit_file",
      }));
      return JSON.stringify({ values, pagelen: values.length });
    },
    async createBranch(key: string, slug: string, name: string, commitHash: string): Promise<BitbucketBranch> {
      const b = await call<DcRef>({ method: "POST", path: `${repoPath(key, slug)}/branches`, body: { name, startPoint: commitHash } });
      const base = await commitsWeb(key, slug);
      const tip = await call<DcCommit>({ path: `${repoPath(key, slug)}/commits/${enc(b.latestCommit ?? commitHash)}` });
      return { name: b.displayId, target: commitOf(tip, base), links: { html: { href: `${base}/browse?at=${enc(b.id)}` } } };
    },
    /**
     * Code search (DC's search server, `/rest/search/latest/search`), in the Cloud's result shape.
     * `project:KEY` keeps it to the project (none for `*`); 25 a page.
     */
    async searchCode(key: string, query: string, page = 1): Promise<BitbucketPage<Record<string, unknown>>> {
      const start = (page - 1) * 25;
      const answer = await call<{ code?: { values?: DcSearchHit[]; isLastPage?: boolean; count?: number } }>({
        method: "POST",
        path: "/rest/search/latest/search",
        body: {
          query: key === ALL_PROJECTS ? query : `project:${key} ${query}`,
          entities: { code: { start, limit: 25 } },
          limits: { primary: 25, secondary: 10 },
        },
      }).catch((err: unknown) => {
        if (isUpstreamError(err) && err.kind === "not_found")
          throw new UpstreamError("bitbucket", "not_found", "Bitbucket has no code search here (its search API answered 404)", {
            status: 404,
          });
        throw err;
      });
      const code = answer.code ?? {};
      return {
        values: (code.values ?? []).map(searchHitOf),
        page,
        pagelen: 25,
        ...(code.count !== undefined ? { size: code.count } : {}),
        ...(code.isLastPage === false ? { next: String(page + 1) } : {}),
      };
    },
  };
}

interface DcSearchHit {
  repository: DcRepository;
  file: string;
  hitContexts?: { line: number; text: string }[][];
}

/** DC's hit text is HTML: matches in `<em>`, the rest escaped. */
const plain = (html: string) =>
  html
    .replace(/<\/?em>/g, "")
    .replace(/&#x2F;/g, "/")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

const searchHitOf = (h: DcSearchHit): Record<string, unknown> => ({
  file: {
    path: h.file,
    commit: { repository: { full_name: `${h.repository.project.key}/${h.repository.slug}`, name: h.repository.name } },
  },
  content_matches: (h.hitContexts ?? []).map((lines) => ({
    lines: lines.map((l) => ({ line: l.line, segments: [{ text: plain(l.text) }] })),
  })),
});
