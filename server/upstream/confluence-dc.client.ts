import { UpstreamError, isUpstreamError } from "./errors";
import type { TargetProvider, UpstreamCall, UpstreamHttp } from "./http";
import type { ConfluenceClient, ConfluencePage, ConfluenceSpace, Links } from "./confluence.client";
import { confluenceNextUrl } from "./confluence-cloud.client";
import { createConfluenceDataCenterThreads } from "./confluence-dc-threads";
import { dcCalls, enc, notAPage, toPage, toSpace, unhighlight, type DcContent, type DcList, type DcSpace } from "./confluence-dc-shapes";

/**
 * Confluence Data Center: its own server and base URL (a context path such as `/confluence`), REST
 * v1 only (`/rest/api/…`; DC has no v2). The same methods as the Cloud client, answering the same
 * (Cloud) shapes: spaces and pages here, comments, attachments, labels and history in
 * confluence-dc-threads.ts. Content is read with `expand=space,version,ancestors` (and
 * `body.storage`), so one read gives a page's space, parent and version.
 */

const PAGE_EXPAND = "space,version,ancestors";
/** Most spaces remembered by id (DC's v1 has no space-by-id read, and the Cloud shape names a page's space by id). */
const SPACE_MEMORY = 2000;

export function createConfluenceDataCenterClient(http: UpstreamHttp, target: TargetProvider): ConfluenceClient {
  const { call, follow } = dcCalls(http, target);

  // Space ids never change on an instance; keyed by base URL so two instances never mix.
  const spaceKeys = new Map<string, string>();
  const remember = async (s: DcSpace): Promise<void> => {
    if (spaceKeys.size >= SPACE_MEMORY) spaceKeys.clear();
    spaceKeys.set(`${(await target()).baseUrl} ${s.id}`, s.key);
  };
  const space = async (s: DcSpace): Promise<ConfluenceSpace & { _links?: { webui?: string } }> => {
    await remember(s);
    return toSpace(s);
  };
  const page = async (c: DcContent, known: { parentId?: string } = {}): Promise<ConfluencePage> => {
    if (c.space) await remember(c.space);
    return toPage(c, known);
  };

  /** The key of the space with this id: remembered from an answer that named it, else found in the space listing. */
  async function spaceKeyOf(spaceId: string): Promise<string> {
    const at = `${(await target()).baseUrl} ${spaceId}`;
    const known = spaceKeys.get(at);
    if (known) return known;
    for await (const s of follow<DcSpace, DcSpace>({ path: "/rest/api/space", query: { limit: 200 } }, (x) => x)) {
      await remember(s);
      if (String(s.id) === spaceId) return s.key;
    }
    throw new UpstreamError("confluence", "not_found", `Confluence found nothing there (404): no space has the id ${spaceId}`, {
      status: 404,
    });
  }

  /** The content with this id, expanded; a page tool's content that is not a page is not found. */
  const readPage = async (id: string, expand: string): Promise<DcContent> => {
    const c = await call<DcContent>({ path: `/rest/api/content/${enc(id)}`, query: { expand } });
    if (c.type !== "page") throw notAPage(id, c.type);
    return c;
  };

  const children = (pageId: string, maxItems?: number) =>
    follow<DcContent, Promise<ConfluencePage>>(
      { path: `/rest/api/content/${enc(pageId)}/child/page`, query: { expand: "space,version", limit: 100 } },
      (c) => page(c, { parentId: pageId }),
      maxItems,
    );

  /** A page's subtree to `depth` levels: DC lists every descendant, so each one's depth is read from its ancestors. */
  async function* descendants(pageId: string, depth: number, maxItems = 10_000) {
    let yielded = 0;
    if (depth === 1) {
      for await (const c of children(pageId, maxItems)) {
        const p = await c;
        yield { id: p.id, title: p.title, parentId: pageId, depth: 1, status: p.status ?? "current" };
      }
      return;
    }
    const root = await readPage(pageId, "ancestors");
    const rootDepth = root.ancestors?.length ?? 0;
    const all = follow<DcContent, DcContent>(
      { path: `/rest/api/content/${enc(pageId)}/descendant/page`, query: { expand: "ancestors", limit: 200 } },
      (x) => x,
    );
    for await (const d of all) {
      const level = (d.ancestors?.length ?? rootDepth) - rootDepth;
      if (level < 1 || level > depth) continue;
      if (yielded++ >= maxItems) return;
      const parent = d.ancestors?.[d.ancestors.length - 1];
      yield { id: String(d.id), title: d.title, parentId: parent ? String(parent.id) : null, depth: level, status: d.status ?? "current" };
    }
  }

  /** One page of `/rest/api/search` results, DC's highlight marks taken out of titles and excerpts. */
  const searchPage = (results: Record<string, unknown>[]) =>
    results.map((r) => ({ ...r, title: unhighlight(r.title), excerpt: unhighlight(r.excerpt) }));

  const spaceListing = (limit: number, timeoutMs?: number): UpstreamCall => ({ path: "/rest/api/space", query: { limit }, timeoutMs });

  return {
    /** One page of spaces: the connection test's call. */
    async spacesPage(limit = 25, timeoutMs?: number) {
      const listed = await call<DcList<DcSpace> & Links>(spaceListing(limit, timeoutMs));
      return { results: await Promise.all(listed.results.map(space)), _links: listed._links };
    },
    space: async (id: string) => space(await call<DcSpace>({ path: `/rest/api/space/${enc(await spaceKeyOf(id))}` })),
    async spaceByKey(key: string) {
      try {
        return await space(await call<DcSpace>({ path: `/rest/api/space/${enc(key)}` }));
      } catch (err) {
        if (isUpstreamError(err) && err.kind === "not_found") return undefined;
        throw err;
      }
    },
    async *spaces(maxItems?: number) {
      for await (const s of follow<DcSpace, Promise<ConfluenceSpace>>({ path: "/rest/api/space", query: { limit: 100 } }, space, maxItems))
        yield await s;
    },

    /** How many spaces the account can see, page by page (DC's listing has no total) up to `cap`. */
    async spaceCount(cap: number, timeoutMs?: number): Promise<{ count: number; capped: boolean }> {
      const t = await target();
      let count = 0;
      let next: string | undefined;
      for (;;) {
        const listed = (
          await http.request<DcList<unknown>>(
            "confluence",
            t,
            next ? { path: next, timeoutMs } : spaceListing(Math.min(250, cap), timeoutMs),
          )
        ).data;
        count += listed.results?.length ?? 0;
        next = confluenceNextUrl(t, listed._links?.next);
        if (!next || (listed.results?.length ?? 0) === 0) return count > cap ? { count: cap, capped: true } : { count, capped: false };
        if (count >= cap) return { count: cap, capped: true };
      }
    },

    /** `bodyFormat` null: the page's facts without its body. DC has no Atlassian Document Format: any other format reads storage. */
    getPage: async (id: string, bodyFormat: "storage" | "atlas_doc_format" | "view" | null = "storage") =>
      page(await readPage(id, bodyFormat === null ? PAGE_EXPAND : `${PAGE_EXPAND},body.storage`)),

    async *pagesInSpace(spaceId: string, maxItems?: number) {
      const spaceKey = await spaceKeyOf(spaceId);
      const query = { spaceKey, type: "page", expand: PAGE_EXPAND, limit: 100 };
      for await (const p of follow<DcContent, Promise<ConfluencePage>>({ path: "/rest/api/content", query }, (c) => page(c), maxItems))
        yield await p;
    },

    /** The page's ancestors, the root first (from `expand=ancestors`). */
    async *ancestors(pageId: string) {
      for (const a of (await readPage(pageId, "ancestors")).ancestors ?? []) yield { id: String(a.id), type: a.type ?? "page" };
    },

    async *children(pageId: string, maxItems?: number) {
      for await (const p of children(pageId, maxItems)) yield await p;
    },

    /** CQL search with excerpts (`/rest/api/search`, which DC serves since 5.9), one page; `expand` such as "content.space". */
    async search(cql: string, options: { limit?: number; start?: number; expand?: string } = {}) {
      const found = await call<Links & { results: Record<string, unknown>[]; totalSize?: number; size: number }>({
        path: "/rest/api/search",
        query: { cql, limit: options.limit ?? 25, start: options.start, expand: options.expand },
      });
      return { ...found, results: searchPage(found.results ?? []) };
    },

    searchAll: (cql: string, maxItems?: number) =>
      follow<Record<string, unknown>, Record<string, unknown>>(
        { path: "/rest/api/search", query: { cql, limit: 50 } },
        (r) => searchPage([r])[0]!,
        maxItems,
      ),

    createPage: async (p: { spaceId: string; title: string; body: string; parentId?: string }) =>
      page(
        await call<DcContent>({
          method: "POST",
          path: "/rest/api/content",
          body: {
            type: "page",
            title: p.title,
            space: { key: await spaceKeyOf(p.spaceId) },
            ...(p.parentId ? { ancestors: [{ id: p.parentId }] } : {}),
            body: { storage: { value: p.body, representation: "storage" } },
          },
        }),
      ),

    /** `version` is the new version number (the current one + 1); a stale one gets DC's 409 ("Version must be incremented …"). */
    updatePage: async (id: string, p: { title: string; body: string; version: number; message?: string }) =>
      page(
        await call<DcContent>({
          method: "PUT",
          path: `/rest/api/content/${enc(id)}`,
          body: {
            id,
            type: "page",
            title: p.title,
            body: { storage: { value: p.body, representation: "storage" } },
            version: { number: p.version, ...(p.message ? { message: p.message } : {}) },
          },
        }),
      ),

    /** The current page of this title in the space, with its storage body; undefined when there is none. */
    async pageByTitle(spaceId: string, title: string) {
      const found = await call<DcList<DcContent>>({
        path: "/rest/api/content",
        query: {
          spaceKey: await spaceKeyOf(spaceId),
          title,
          type: "page",
          status: "current",
          expand: `${PAGE_EXPAND},body.storage`,
          limit: 1,
        },
      });
      return found.results[0] ? page(found.results[0]) : undefined;
    },

    /** The space with this key, its plain description and homepage (DC names it in `_expandable` unless expanded), or undefined. */
    async spaceDetails(key: string) {
      try {
        const s = await call<DcSpace>({ path: `/rest/api/space/${enc(key)}`, query: { expand: "description.plain" } });
        const homepageId = s.homepage?.id ?? /\/content\/(\d+)$/.exec(s._expandable?.homepage ?? "")?.[1];
        return {
          ...(await space(s)),
          homepageId: homepageId === undefined ? null : String(homepageId),
          description: s.description?.plain ? { plain: { value: s.description.plain.value } } : null,
        };
      } catch (err) {
        if (isUpstreamError(err) && err.kind === "not_found") return undefined;
        throw err;
      }
    },

    descendants,

    /**
     * DC has no move resource (Cloud's `content/{id}/move/…` is Cloud's): the page gets a new
     * parent by an update with new `ancestors` (its next version, body and title unchanged).
     * `append` puts it under the target; `before`/`after` under the target's parent, where DC
     * places it among its new siblings itself: REST cannot order siblings, nor move a page to the
     * top level of a space (an empty `ancestors` changes nothing) or into another space.
     */
    async movePage(id: string, position: "append" | "before" | "after", targetId: string) {
      const [moving, target] = await Promise.all([readPage(id, `${PAGE_EXPAND},body.storage`), readPage(targetId, PAGE_EXPAND)]);
      const parent = position === "append" ? String(target.id) : target.ancestors?.length ? String(target.ancestors.at(-1)!.id) : null;
      const refuse = (why: string) => new UpstreamError("confluence", "bad_request", `Confluence Data Center cannot do this move: ${why}`);
      if (parent === null)
        throw refuse(`page ${targetId} is at the top of its space, and DC's REST API cannot move a page to the top level`);
      if (moving.space && target.space && moving.space.key !== target.space.key)
        throw refuse(`page ${targetId} is in space ${target.space.key}, and DC's REST API moves a page within its space only`);
      await call<DcContent>({
        method: "PUT",
        path: `/rest/api/content/${enc(id)}`,
        body: {
          id,
          type: "page",
          title: moving.title,
          ancestors: [{ id: parent }],
          body: { storage: { value: moving.body?.storage?.value ?? "", representation: "storage" } },
          version: { number: (moving.version?.number ?? 1) + 1, minorEdit: true },
        },
      });
      return { pageId: id };
    },

    /** Moves the page to the trash (its child pages move up to its parent, as in Cloud). */
    deletePage: (id: string) => call<void>({ method: "DELETE", path: `/rest/api/content/${enc(id)}` }),

    ...createConfluenceDataCenterThreads({ call, follow }),
  };
}
