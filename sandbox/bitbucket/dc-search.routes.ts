import { json } from "../core/http";
import { dcBody, dcError, dcVisibleRepos, isReply, type DcRoutes } from "./dc-common";
import { dcRepo } from "./dc-present";
import type { BitbucketState } from "./model";
import { parseQuery, search, searchFile } from "./search.routes";

/**
 * Bitbucket DC's code search (`POST /rest/search/latest/search`, served by its bundled search
 * server): `{query, entities: {code: {start, limit}}, limits: {primary, secondary}}`, answered with
 * `{scope, code: {category, isLastPage, count, start, nextStart, values}, query}`, each hit
 * `{repository, file, hitContexts: [[{line, text}]], pathMatches, hitCount}` with matches in `<em>`
 * and the text HTML-escaped (as cdancy/bitbucket-rest's search fixture shows). The query takes the
 * Cloud module's terms and `repo:`, `lang:`, `ext:`, `path:`, and DC's `project:KEY`.
 */

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\//g, "&#x2F;");

export function dcSearchRoutes(api: DcRoutes, state: () => BitbucketState): void {
  api.at("post", "/rest/search/latest/search", (req) => {
    const s = state();
    const body = dcBody(req);
    if (isReply(body)) return body;
    const raw = typeof body.query === "string" ? body.query : "";
    const code = (body.entities as { code?: { start?: unknown; limit?: unknown } } | undefined)?.code;
    if (!code) return dcError(400, "entities: only code search is supported; ask for entities.code.", { entities: "code" });
    const start = Number(code.start ?? 0);
    const limit = Math.min(Number(code.limit ?? 25), 100);
    if (!Number.isInteger(start) || start < 0 || !Number.isInteger(limit) || limit < 1)
      return dcError(400, "entities.code.start and limit must be whole numbers.", { code: "invalid" });
    // `project:KEY` narrows to a project (DC's own qualifier); the rest is the Cloud module's query language.
    const projects = [...raw.matchAll(/\bproject:(\S+)/gi)].map((m) => m[1]!.toUpperCase());
    const q = parseQuery(raw.replace(/\bproject:\S+/gi, " "));
    if (q.terms.length === 0) return dcError(400, "The search query must contain at least one search term.", { query: "empty" });
    const repos = dcVisibleRepos(req, s).filter(
      (r) => (projects.length === 0 || projects.includes(r.projectKey.toUpperCase())) && (q.repos.length === 0 || q.repos.includes(r.slug)),
    );
    const hits = search(repos, q);
    const values = hits.slice(start, start + limit).map((h) => {
      h.matches ??= searchFile(h.content, q.terms);
      const hitContexts = h.matches.groups.map((g) =>
        g.lines.map((l) => ({
          line: l.line,
          text: l.segments.map((seg) => (seg.match ? `<em>${escapeHtml(seg.text)}</em>` : escapeHtml(seg.text))).join(""),
        })),
      );
      return { repository: dcRepo(req, s, h.repo), file: h.path, hitContexts, pathMatches: [], hitCount: h.matches.count };
    });
    const isLastPage = start + values.length >= hits.length;
    return json({
      scope: { type: q.repos.length === 1 ? "REPOSITORY" : projects.length === 1 ? "PROJECT" : "GLOBAL" },
      code: {
        category: "primary",
        isLastPage,
        count: hits.length,
        start,
        ...(isLastPage ? {} : { nextStart: start + values.length }),
        values,
      },
      query: { substituted: false },
    });
  });
}
