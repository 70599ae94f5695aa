import type { TargetProvider, UpstreamCall, UpstreamHttp, UpstreamTarget } from "./http";
import { paginateNextLink } from "./paginate";

const enc = encodeURIComponent;

export interface ConfluenceSpace {
  id: string | number;
  key: string;
  name: string;
}

export interface ConfluencePage {
  id: string;
  title: string;
  spaceId?: string;
  parentId?: string | null;
  status?: string;
  version?: { number: number };
  body?: { storage?: { value: string; representation: string } };
}

interface Links {
  _links?: { next?: string; base?: string };
}

/**
 * Confluence's `_links.next` is relative: v1 to the site context (`/rest/api/...`), v2 to the host
 * (`/wiki/api/v2/...`). Resolved against the target's base URL (`https://site/wiki`).
 */
export function confluenceNextUrl(target: UpstreamTarget, next: string | undefined): string | undefined {
  if (!next) return undefined;
  if (/^https?:\/\//i.test(next)) return next;
  const base = new URL(target.baseUrl);
  const context = base.pathname.replace(/\/+$/, "");
  return `${base.origin}${context && next.startsWith(`${context}/`) ? "" : context}${next}`;
}

/** Confluence Cloud: v2 for spaces and pages, v1 for CQL search, comments and labels. Base URL: `<instance>/wiki`. */
export function createConfluenceClient(http: UpstreamHttp, target: TargetProvider) {
  const call = async <T>(c: UpstreamCall): Promise<T> => (await http.request<T>("confluence", await target(), c)).data;

  /** Pages of a listing that links to its next page. */
  const follow = <T>(first: UpstreamCall, maxItems?: number) =>
    paginateNextLink<T>(async (next) => {
      const t = await target();
      const page = (await http.request<Links & { results: T[] }>("confluence", t, next ? { path: next } : first)).data;
      return { items: page.results ?? [], next: confluenceNextUrl(t, page._links?.next) };
    }, maxItems);

  return {
    /** One page of spaces: the connection test's call. */
    spacesPage: (limit = 25, timeoutMs?: number) => call<Links & { results: ConfluenceSpace[] }>({ path: "/api/v2/spaces", query: { limit }, timeoutMs }),
    space: (id: string) => call<ConfluenceSpace>({ path: `/api/v2/spaces/${enc(id)}` }),
    /** The space with this key, or undefined. */
    spaceByKey: async (key: string): Promise<ConfluenceSpace | undefined> => (await call<{ results: ConfluenceSpace[] }>({ path: "/api/v2/spaces", query: { keys: key, limit: 1 } })).results[0],
    spaces: (maxItems?: number) => follow<ConfluenceSpace>({ path: "/api/v2/spaces", query: { limit: 100 } }, maxItems),

    getPage: (id: string, bodyFormat: "storage" | "atlas_doc_format" | "view" = "storage") =>
      call<ConfluencePage>({ path: `/api/v2/pages/${enc(id)}`, query: { "body-format": bodyFormat } }),

    pagesInSpace: (spaceId: string, maxItems?: number) => follow<ConfluencePage>({ path: `/api/v2/spaces/${enc(spaceId)}/pages`, query: { limit: 100 } }, maxItems),

    /** The page's ancestors, the root first (ids only, as Confluence gives them). */
    ancestors: (pageId: string) => follow<{ id: string; type?: string }>({ path: `/api/v2/pages/${enc(pageId)}/ancestors`, query: { limit: 50 } }, 50),

    children: (pageId: string, maxItems?: number) => follow<ConfluencePage>({ path: `/api/v2/pages/${enc(pageId)}/children`, query: { limit: 100 } }, maxItems),

    /** CQL search (v1), one page. */
    search: (cql: string, options: { limit?: number; start?: number } = {}) =>
      call<Links & { results: Record<string, unknown>[]; totalSize?: number; size: number }>({ path: "/rest/api/search", query: { cql, limit: options.limit ?? 25, start: options.start } }),

    searchAll: (cql: string, maxItems?: number) => follow<Record<string, unknown>>({ path: "/rest/api/search", query: { cql, limit: 50 } }, maxItems),

    createPage: (page: { spaceId: string; title: string; body: string; parentId?: string }) =>
      call<ConfluencePage>({
        method: "POST",
        path: "/api/v2/pages",
        body: { spaceId: page.spaceId, status: "current", title: page.title, parentId: page.parentId, body: { representation: "storage", value: page.body } },
      }),

    /** `version` is the new version number (the current one + 1); a stale one gets 409. */
    updatePage: (id: string, page: { title: string; body: string; version: number; message?: string }) =>
      call<ConfluencePage>({
        method: "PUT",
        path: `/api/v2/pages/${enc(id)}`,
        body: { id, status: "current", title: page.title, body: { representation: "storage", value: page.body }, version: { number: page.version, message: page.message } },
      }),

    labels: (id: string) => call<{ results: { name: string; prefix?: string }[] }>({ path: `/rest/api/content/${enc(id)}/label`, query: { limit: 200 } }),

    removeLabel: (id: string, label: string) => call<void>({ method: "DELETE", path: `/rest/api/content/${enc(id)}/label/${enc(label)}` }),

    addLabels: (id: string, labels: string[]) =>
      call<{ results: { name: string }[] }>({ method: "POST", path: `/rest/api/content/${enc(id)}/label`, body: labels.map((name) => ({ prefix: "global", name })) }),

    addComment: (pageId: string, storageBody: string) =>
      call<{ id: string }>({
        method: "POST",
        path: "/rest/api/content",
        body: { type: "comment", container: { id: pageId, type: "page" }, body: { storage: { value: storageBody, representation: "storage" } } },
      }),
  };
}

export type ConfluenceClient = ReturnType<typeof createConfluenceClient>;
