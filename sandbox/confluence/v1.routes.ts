import { actorId, spaceVisible, visibleContent, visibleSpaces } from "./access";
import { confluenceError } from "../core/errors";
import { intParam, json, noContent } from "../core/http";
import type { Reply, Router, SandboxRequest } from "../core/http";
import { CqlError, parseCql, runCql } from "./cql";
import type { CqlQuery } from "./cql";
import { decodeCursor, encodeCursor, friendlyDate, parseExpand, webui, wikiBase, withQuery } from "./links";
import { labelList, presentContent, presentSpace, presentUser } from "./presenters";
import { excerptOf } from "./render";
import { makeLabel } from "./store";
import type { ConfluenceState, Content } from "./types";
import { lastModified } from "./types";
import { badRequest, contentNotFound, DEFAULT_LIMIT, findContent, isRecord, offsetPage, spaceNotFound, str } from "./v1.common";

/** v1 spaces, users, labels and CQL search. */

const SEARCH_MAX_LIMIT = 100;

function cqlOf(req: SandboxRequest): CqlQuery | Reply {
  const cql = req.query.get("cql");
  if (cql === null || cql.trim() === "") return badRequest("CQL query parameter is required but was not supplied");
  try {
    return parseCql(cql);
  } catch (err) {
    if (err instanceof CqlError) return badRequest(`Could not parse cql : ${cql} (${err.message})`);
    throw err;
  }
}

/** Search pages: `cursor` (as the real next links use) or `start`, and `_links.next` with a cursor. */
function searchPage(req: SandboxRequest, state: ConfluenceState, present: (c: Content, q: CqlQuery) => unknown): Reply {
  const query = cqlOf(req);
  if (!("matches" in query)) return query;
  let all: Content[];
  try {
    all = visibleContent(req, runCql(query, { state, currentUserId: actorId(req, state), now: Date.now() }));
  } catch (err) {
    if (err instanceof CqlError) return badRequest(`Could not parse cql : ${req.query.get("cql") ?? ""} (${err.message})`);
    throw err;
  }
  const limit = intParam(req.query, "limit", DEFAULT_LIMIT, 0, SEARCH_MAX_LIMIT);
  let start = intParam(req.query, "start", 0, 0);
  const cursor = req.query.get("cursor");
  if (cursor) {
    const decoded = decodeCursor(cursor);
    if (!decoded) return badRequest("Invalid cursor");
    start = decoded.offset;
  }
  const slice = all.slice(start, start + limit);
  const path = req.path.replace(/^\/wiki/, "");
  const links: Record<string, string> = { base: wikiBase(req), context: "/wiki" };
  const last = slice[slice.length - 1];
  if (start + limit < all.length && last)
    links.next = withQuery(path, req.query, { start: null, limit: String(limit), cursor: encodeCursor(start + limit, last.id) });
  if (start > 0)
    links.prev = withQuery(path, req.query, {
      start: null,
      limit: String(limit),
      cursor: encodeCursor(Math.max(0, start - limit), "prev"),
    });
  links.self = `${wikiBase(req)}${withQuery(path, req.query, {})}`;
  return json({
    results: slice.map((c) => present(c, query)),
    start,
    limit,
    size: slice.length,
    totalSize: all.length,
    cqlQuery: req.query.get("cql"),
    searchDuration: 3,
    _links: links,
  });
}

function searchResult(req: SandboxRequest, state: ConfluenceState, c: Content, q: CqlQuery, expand: Set<string>): unknown {
  const space = state.spaceByKey.get(c.spaceKey);
  const modified = lastModified(c);
  return {
    content: presentContent(req, state, c, expand),
    title: c.title,
    excerpt: excerptOf(c.plain, q.words),
    url: webui(state, c),
    resultGlobalContainer: space ? { title: space.name, displayUrl: `/spaces/${space.key}` } : undefined,
    breadcrumbs: [],
    entityType: "content",
    iconCssClass: `aui-icon content-type-${c.type}`,
    lastModified: modified,
    friendlyLastModified: friendlyDate(modified),
    score: 0,
  };
}

export function v1Routes(router: Router, state: () => ConfluenceState): void {
  router.get("/wiki/rest/api/space", (req) => {
    const st = state();
    const keys = req.query
      .getAll("spaceKey")
      .flatMap((k) => k.split(","))
      .map((k) => k.trim().toUpperCase())
      .filter(Boolean);
    const type = req.query.get("type");
    const status = req.query.get("status");
    const spaces = visibleSpaces(req, st.spaces).filter(
      (s) => (keys.length === 0 || keys.includes(s.key)) && (!type || type === "global") && (!status || status === "current"),
    );
    const expand = parseExpand(req.query);
    return offsetPage(req, spaces, (s) => presentSpace(req, st, s, expand));
  });

  router.get("/wiki/rest/api/space/:spaceKey", (req) => {
    const st = state();
    const space = st.spaceByKey.get(req.params.spaceKey!.toUpperCase());
    if (!space || !spaceVisible(req, space)) return spaceNotFound(req.params.spaceKey!);
    return json(presentSpace(req, st, space, parseExpand(req.query)));
  });

  router.get("/wiki/rest/api/space/:spaceKey/content/:type", (req) => {
    const st = state();
    const space = st.spaceByKey.get(req.params.spaceKey!.toUpperCase());
    if (!space || !spaceVisible(req, space)) return spaceNotFound(req.params.spaceKey!);
    const type = req.params.type!;
    const depth = req.query.get("depth");
    const roots = new Set(st.rootPages.get(space.key) ?? []);
    const items = st.ordered.filter(
      (c) => c.spaceKey === space.key && c.type === type && c.status === "current" && (depth !== "root" || roots.has(c.id)),
    );
    const expand = parseExpand(req.query);
    return offsetPage(req, items, (c) => presentContent(req, st, c, expand));
  });

  router.get("/wiki/rest/api/user/current", (req) => json(presentUser(req, state(), actorId(req, state()))));

  router.get("/wiki/rest/api/user", (req) => {
    const st = state();
    const accountId = req.query.get("accountId");
    if (!accountId || !st.userById.has(accountId)) return confluenceError(404, `No user found with accountId: ${accountId ?? ""}`);
    return json(presentUser(req, st, accountId));
  });

  router.get("/wiki/rest/api/search", (req) => {
    const st = state();
    const expand = new Set([...parseExpand(req.query)].flatMap((e) => (e.startsWith("content.") ? [e.slice(8)] : [])));
    return searchPage(req, st, (c, q) => searchResult(req, st, c, q, expand));
  });

  router.get("/wiki/rest/api/content/search", (req) => {
    const st = state();
    const expand = parseExpand(req.query);
    return searchPage(req, st, (c) => presentContent(req, st, c, expand));
  });

  router.get("/wiki/rest/api/content/:id/label", (req) => {
    const c = findContent(state(), req, req.params.id!);
    if (!c) return contentNotFound(req.params.id!);
    const prefix = req.query.get("prefix");
    const view = prefix ? { ...c, labels: c.labels.filter((l) => l.prefix === prefix) } : c;
    return json(labelList(req, view, intParam(req.query, "start", 0, 0), intParam(req.query, "limit", 200, 0, 500)));
  });

  router.post("/wiki/rest/api/content/:id/label", (req) => {
    const st = state();
    const c = findContent(st, req, req.params.id!);
    if (!c) return contentNotFound(req.params.id!);
    const items: unknown[] = Array.isArray(req.body) ? req.body : [req.body];
    const wanted: { prefix: string; name: string }[] = [];
    for (const item of items) {
      const name = isRecord(item) ? str(item.name)?.trim().toLowerCase() : undefined;
      const prefix = (isRecord(item) ? str(item.prefix) : undefined) ?? "global";
      if (!name) return badRequest("A label must have a name");
      if (/\s/.test(name) || /[:;,.?&[\]()#^*@!]/.test(name))
        return badRequest(`Label '${name}' contains invalid characters: labels cannot contain spaces or any of :;,.?&[]()#^*@!`);
      if (name.length > 255) return badRequest("Labels cannot be longer than 255 characters");
      if (!["global", "my", "team"].includes(prefix)) return badRequest(`Invalid label prefix: ${prefix}`);
      wanted.push({ prefix, name });
    }
    for (const w of wanted)
      if (!c.labels.some((l) => l.name === w.name && l.prefix === w.prefix)) c.labels.push(makeLabel(st, w.name, w.prefix));
    return json(labelList(req, c, 0, 200));
  });

  const removeLabel = (req: SandboxRequest, name: string | null): Reply => {
    const c = findContent(state(), req, req.params.id!);
    if (!c) return contentNotFound(req.params.id!);
    const at = name ? c.labels.findIndex((l) => l.name === name.toLowerCase()) : -1;
    if (at < 0) return confluenceError(404, `Label '${name ?? ""}' is not on content ${c.id}`);
    c.labels.splice(at, 1);
    return noContent();
  };
  router.delete("/wiki/rest/api/content/:id/label/:label", (req) => removeLabel(req, req.params.label ?? null));
  router.delete("/wiki/rest/api/content/:id/label", (req) => removeLabel(req, req.query.get("name")));
}
