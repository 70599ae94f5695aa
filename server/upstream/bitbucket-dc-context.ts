import type { TargetProvider, UpstreamCall, UpstreamHttp, UpstreamResponse } from "./http";
import { UpstreamError } from "./errors";
import { paginateStartLimit } from "./paginate";
import type { DcPage } from "./bitbucket-dc-shapes";

/** What the parts of the Bitbucket Data Center client share: calls, DC's pages, paths and the server's web address. */

export const enc = encodeURIComponent;
export const API = "/rest/api/1.0";

/** `/rest/api/1.0/projects/{key}/repos/{slug}` (a personal project's key is `~USERNAME`). */
export const repoPath = (key: string, slug: string): string => `${API}/projects/${enc(key)}/repos/${enc(slug)}`;
export const prPath = (key: string, slug: string, id: number): string => `${repoPath(key, slug)}/pull-requests/${id}`;

export function createDcContext(http: UpstreamHttp, target: TargetProvider) {
  const raw = async <T>(c: UpstreamCall): Promise<UpstreamResponse<T>> => http.request<T>("bitbucket", await target(), c);
  const call = async <T>(c: UpstreamCall): Promise<T> => (await raw<T>(c)).data;

  /** Every item of a DC listing, page after page (`limit` per page, as many as DC allows). */
  const pages = <T>(path: string, query: UpstreamCall["query"] = {}, maxItems?: number, limit = 100) =>
    paginateStartLimit<T>((start) => call<DcPage<T>>({ path, query: { ...query, start, limit } }), maxItems);

  /** The server's address: DC's REST base is its web base too (the context path included). */
  const web = async (): Promise<string> => (await target()).baseUrl.replace(/\/+$/, "");

  /**
   * Who the credentials are: DC has no `/user`, but names the authenticated user in every answer's
   * `X-AUSERNAME` header; application-properties is the cheapest answer that carries it.
   */
  async function whoAmI(timeoutMs?: number): Promise<string> {
    const res = await raw<unknown>({ path: `${API}/application-properties`, timeoutMs });
    const name = res.headers["x-ausername"];
    const value = Array.isArray(name) ? name[0] : name;
    if (!value)
      throw new UpstreamError("bitbucket", "unauthorized", "Bitbucket answered as an anonymous user: check the username or token", {
        status: 401,
      });
    return value;
  }

  return { raw, call, pages, web, whoAmI };
}
export type DcContext = ReturnType<typeof createDcContext>;

/**
 * DC has no BBQL. The repository listing tool sends only `slug = "…"`, `full_name = "…"` and
 * `project.key = "…"` clauses joined by OR (a client's allow-list) and `name ~ "…"`; they are
 * read back here and applied as DC's own filters, or on the answer. `slugs` is null without an
 * allow-list.
 */
export function readRepositoryQuery(q: string | undefined): {
  slugs: string[] | null;
  fullNames: string[];
  projects: string[];
  name: string | null;
} {
  if (!q) return { slugs: null, fullNames: [], projects: [], name: null };
  const values = (field: string) =>
    [...q.matchAll(new RegExp(`(?<![\\w.])${field.replace(".", "\\.")}\\s*=\\s*"([^"]*)"`, "g"))].map((m) => m[1]!);
  const slugs = values("slug").map((v) => v.toLowerCase());
  const fullNames = values("full_name").map((v) => v.toLowerCase());
  const projects = values("project.key");
  const name = /(?<![\w.])name\s*~\s*"([^"]*)"/.exec(q)?.[1] ?? null;
  return { slugs: slugs.length || fullNames.length || projects.length ? slugs : null, fullNames, projects, name };
}
