import { actorId, contentVisible, spaceVisible, visibleSpaces } from "./access";
import { intParam, json, noContent } from "../core/http";
import type { Reply, Router, SandboxRequest } from "../core/http";
import { childPages, commentsOf } from "./presenters";
import { createContent, isSelfOrDescendant, movePage, purgeContent, titleTaken, trashContent, updateContent } from "./store";
import type { ConfluenceState, Content } from "./types";
import { ancestorsOf, contentAt, currentVersion, lastModified } from "./types";
import {
  BODY_FORMATS_LIST,
  BODY_FORMATS_SINGLE,
  bodyFormat,
  cursorPage,
  listParam,
  notFound,
  presentCommentV2,
  presentPageV2,
  presentSpaceV2,
  presentVersionV2,
  storageFromV2,
  v2Error,
} from "./v2.common";

/** v2 spaces, pages (CRUD, children, ancestors, labels, versions, footer comments) and blog posts. */

const V2 = "/wiki/api/v2";
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const SORTS: Record<string, (a: Content, b: Content) => number> = {
  id: (a, b) => Number(a.id) - Number(b.id),
  "created-date": (a, b) => cmp(a.createdAt, b.createdAt) || Number(a.id) - Number(b.id),
  "modified-date": (a, b) => cmp(lastModified(a), lastModified(b)) || Number(a.id) - Number(b.id),
  title: (a, b) => a.title.localeCompare(b.title) || Number(a.id) - Number(b.id),
};

/** Filters shared by /pages, /spaces/{id}/pages and /blogposts; null when the sort is unknown. */
function listContent(
  req: SandboxRequest,
  state: ConfluenceState,
  type: "page" | "blogpost",
  spaceKeys: string[] | null,
): Content[] | Reply {
  const ids = new Set(listParam(req.query, "id"));
  const statuses = listParam(req.query, "status");
  const wanted = statuses.length > 0 ? statuses : ["current"];
  const title = req.query.get("title")?.toLowerCase();
  const rootOnly = req.query.get("depth") === "root";
  const sortParam = req.query.get("sort") ?? "id";
  const sort = SORTS[sortParam.replace(/^-/, "")];
  if (!sort) return v2Error(400, `Invalid value for sort: ${sortParam}`);
  const items = state.ordered.filter(
    (c) =>
      c.type === type &&
      contentVisible(req, c) &&
      wanted.includes(c.status) &&
      (spaceKeys === null || spaceKeys.includes(c.spaceKey)) &&
      (ids.size === 0 || ids.has(c.id)) &&
      (title === undefined || c.title.toLowerCase() === title) &&
      (!rootOnly || c.parentId === null),
  );
  if (sortParam !== "id") items.sort(sort);
  if (sortParam.startsWith("-")) items.reverse();
  return items;
}

function spaceKeysFor(req: SandboxRequest, state: ConfluenceState): string[] | null {
  const ids = listParam(req.query, "space-id");
  return ids.length === 0 ? null : ids.flatMap((id) => state.spaceById.get(id)?.key ?? []);
}

function getVisible(req: SandboxRequest, state: ConfluenceState, id: string, type: Content["type"]): Content | undefined {
  const c = state.content.get(id);
  if (!c || c.type !== type || !contentVisible(req, c)) return undefined;
  if (c.status !== "trashed") return c;
  return listParam(req.query, "status").includes("trashed") ? c : undefined;
}

function createPage(req: SandboxRequest, state: ConfluenceState): Reply {
  const b = req.body;
  if (!isRecord(b)) return v2Error(400, "The request body must be a JSON object");
  const space = state.spaceById.get(String(b.spaceId ?? ""));
  if (!space) return v2Error(400, "Invalid spaceId", `No space with id ${String(b.spaceId ?? "")}`);
  if (!spaceVisible(req, space)) return v2Error(403, "Forbidden", `Not permitted to create content in space ${space.key}`);
  const status = b.status === undefined ? "current" : b.status;
  if (status !== "current" && status !== "draft") return v2Error(400, `Invalid status: ${String(status)}`);
  const title = typeof b.title === "string" ? b.title.trim() : "";
  if (!title && status === "current") return v2Error(400, "Title is required for a published page");
  const body = storageFromV2(b.body);
  if (typeof body === "object") return v2Error(400, body.error);
  let parentId: string | null = null;
  if (b.parentId !== undefined && b.parentId !== null) {
    const parent = state.content.get(String(b.parentId));
    if (!parent || parent.type !== "page" || parent.status === "trashed") return v2Error(400, `Invalid parentId: ${String(b.parentId)}`);
    if (parent.spaceKey !== space.key) return v2Error(400, "The parent page must be in the same space");
    parentId = parent.id;
  }
  if (status === "current" && titleTaken(state, space.key, title))
    return v2Error(400, "A page with this title already exists", `A page already exists with the same TITLE in this space`);
  const page = createContent(state, {
    type: "page",
    title,
    spaceKey: space.key,
    parentId,
    containerId: null,
    body: body ?? "",
    status,
    authorId: actorId(req, state),
  });
  return json(presentPageV2(state, page, "storage"));
}

function updatePage(req: SandboxRequest, state: ConfluenceState, page: Content): Reply {
  const b = req.body;
  if (!isRecord(b)) return v2Error(400, "The request body must be a JSON object");
  if (b.id !== undefined && String(b.id) !== page.id) return v2Error(400, "The id in the body does not match the page id in the path");
  if (b.status !== "current" && b.status !== "draft") return v2Error(400, "status is required (current or draft)");
  const title = typeof b.title === "string" ? b.title.trim() : "";
  if (!title) return v2Error(400, "title is required");
  const version = isRecord(b.version) ? Number(b.version.number) : NaN;
  if (!Number.isInteger(version)) return v2Error(400, "version.number is required");
  const current = currentVersion(page).number;
  if (version !== current + 1) return v2Error(409, `Version must be incremented on update. Current version is: ${current}`);
  if (b.body === undefined) return v2Error(400, "body is required");
  const body = storageFromV2(b.body);
  if (typeof body === "object") return v2Error(400, body.error);
  if (title.toLowerCase() !== page.title.toLowerCase() && titleTaken(state, page.spaceKey, title, page.id))
    return v2Error(400, "A page with this title already exists");
  if (b.parentId !== undefined && b.parentId !== null && String(b.parentId) !== page.parentId) {
    const parent = state.content.get(String(b.parentId));
    if (!parent || parent.type !== "page" || parent.status === "trashed" || parent.spaceKey !== page.spaceKey)
      return v2Error(400, `Invalid parentId: ${String(b.parentId)}`);
    if (isSelfOrDescendant(state, page, parent)) return v2Error(400, "A page cannot be moved under itself or one of its descendants");
    movePage(state, page, parent.id);
  }
  if (page.status === "draft" && b.status === "current") page.status = "current";
  const message = isRecord(b.version) && typeof b.version.message === "string" ? b.version.message : "";
  updateContent(page, { title, body, message, authorId: actorId(req, state) });
  return json(presentPageV2(state, page, "storage"));
}

export function v2Routes(router: Router, state: () => ConfluenceState): void {
  router.get(`${V2}/spaces`, (req) => {
    const st = state();
    const keys = listParam(req.query, "keys").map((k) => k.toUpperCase());
    const ids = listParam(req.query, "ids");
    const type = req.query.get("type");
    const status = req.query.get("status");
    const spaces = [...visibleSpaces(req, st.spaces)]
      .sort((a, b) => a.id - b.id)
      .filter(
        (s) =>
          (keys.length === 0 || keys.includes(s.key)) &&
          (ids.length === 0 || ids.includes(String(s.id))) &&
          (!type || type === "global") &&
          (!status || status === "current"),
      );
    const format = req.query.get("description-format");
    return cursorPage(
      req,
      spaces.map((s) => ({ id: String(s.id), s })),
      (x) => presentSpaceV2(x.s, format),
    );
  });

  router.get(`${V2}/spaces/:id`, (req) => {
    const space = state().spaceById.get(req.params.id!);
    return space && spaceVisible(req, space) ? json(presentSpaceV2(space, req.query.get("description-format"))) : notFound();
  });

  router.get(`${V2}/spaces/:id/pages`, (req) => {
    const st = state();
    const space = st.spaceById.get(req.params.id!);
    if (!space || !spaceVisible(req, space)) return notFound();
    const format = bodyFormat(req, BODY_FORMATS_LIST);
    if (format !== null && typeof format === "object") return format;
    const items = listContent(req, st, "page", [space.key]);
    return Array.isArray(items) ? cursorPage(req, items, (c) => presentPageV2(st, c, format)) : items;
  });

  for (const [path, type] of [
    ["pages", "page"],
    ["blogposts", "blogpost"],
  ] as const) {
    router.get(`${V2}/${path}`, (req) => {
      const st = state();
      const format = bodyFormat(req, BODY_FORMATS_LIST);
      if (format !== null && typeof format === "object") return format;
      const items = listContent(req, st, type, spaceKeysFor(req, st));
      return Array.isArray(items) ? cursorPage(req, items, (c) => presentPageV2(st, c, format)) : items;
    });
    router.get(`${V2}/${path}/:id`, (req) => {
      const st = state();
      const c = getVisible(req, st, req.params.id!, type);
      if (!c) return notFound();
      const format = bodyFormat(req, BODY_FORMATS_SINGLE);
      if (format !== null && typeof format === "object") return format;
      const version = req.query.get("version");
      if (version !== null) {
        // An earlier version: its title, body and version facts; the rest as the page is now.
        const old = /^\d+$/.test(version) ? contentAt(c, Number(version)) : undefined;
        if (!old) return notFound();
        return json(presentPageV2(st, { ...c, title: old.title, body: old.body, versions: [old.version] }, format));
      }
      return json(presentPageV2(st, c, format));
    });
    router.get(`${V2}/${path}/:id/labels`, (req) => {
      const c = getVisible(req, state(), req.params.id!, type);
      if (!c) return notFound();
      const prefix = req.query.get("prefix");
      const labels = c.labels.filter((l) => !prefix || l.prefix === prefix);
      return cursorPage(req, labels, (l) => ({ id: l.id, name: l.name, prefix: l.prefix }));
    });
    router.get(`${V2}/${path}/:id/footer-comments`, (req) => {
      const st = state();
      const c = getVisible(req, st, req.params.id!, type);
      if (!c) return notFound();
      const format = bodyFormat(req, BODY_FORMATS_LIST);
      if (format !== null && typeof format === "object") return format;
      return cursorPage(req, commentsOf(st, c, false), (x) => presentCommentV2(st, x, format));
    });
    router.get(`${V2}/${path}/:id/versions`, (req) => {
      const c = getVisible(req, state(), req.params.id!, type);
      if (!c) return notFound();
      const versions = c.versions.map((v) => ({ id: String(v.number), v }));
      if (req.query.get("sort") !== "modified-date") versions.reverse();
      return cursorPage(req, versions, (x) => ({ ...presentVersionV2(x.v), page: { id: c.id, title: c.title } }));
    });
  }

  router.post(`${V2}/pages`, (req) => createPage(req, state()));

  router.put(`${V2}/pages/:id`, (req) => {
    const st = state();
    const page = st.content.get(req.params.id!);
    if (!page || page.type !== "page" || page.status === "trashed" || !contentVisible(req, page)) return notFound();
    return updatePage(req, st, page);
  });

  router.delete(`${V2}/pages/:id`, (req) => {
    const st = state();
    const page = st.content.get(req.params.id!);
    if (!page || page.type !== "page" || !contentVisible(req, page)) return notFound();
    const purge = req.query.get("purge") === "true";
    if (page.status === "trashed") {
      if (!purge) return notFound();
      purgeContent(st, page);
    } else {
      if (purge) return v2Error(400, "Only a trashed page can be purged: delete it first, then purge it");
      trashContent(st, page);
    }
    return noContent();
  });

  router.get(`${V2}/pages/:id/children`, (req) => {
    const st = state();
    const page = getVisible(req, st, req.params.id!, "page");
    if (!page) return notFound();
    const spaceId = String(st.spaceByKey.get(page.spaceKey)?.id ?? "");
    return cursorPage(req, childPages(st, page), (c) => ({
      id: c.id,
      status: c.status,
      title: c.title,
      spaceId,
      childPosition: c.position,
    }));
  });

  router.get(`${V2}/pages/:id/direct-children`, (req) => {
    const st = state();
    const page = getVisible(req, st, req.params.id!, "page");
    if (!page) return notFound();
    const spaceId = String(st.spaceByKey.get(page.spaceKey)?.id ?? "");
    return cursorPage(req, childPages(st, page), (c) => ({
      id: c.id,
      status: c.status,
      title: c.title,
      type: "page",
      spaceId,
      childPosition: c.position,
    }));
  });

  // Descendant pages to `depth` levels (1-5, default 5), each level's pages in tree order under their parents.
  router.get(`${V2}/pages/:id/descendants`, (req) => {
    const st = state();
    const page = getVisible(req, st, req.params.id!, "page");
    if (!page) return notFound();
    const depth = intParam(req.query, "depth", 5, 1, 5);
    const out: { id: string; c: Content; depth: number }[] = [];
    const walk = (p: Content, level: number) => {
      for (const child of childPages(st, p)) {
        out.push({ id: child.id, c: child, depth: level });
        if (level < depth) walk(child, level + 1);
      }
    };
    walk(page, 1);
    return cursorPage(req, out, (x) => ({
      id: x.c.id,
      status: x.c.status,
      title: x.c.title,
      type: "page",
      parentId: x.c.parentId,
      depth: x.depth,
      childPosition: x.c.position,
    }));
  });

  router.get(`${V2}/pages/:id/ancestors`, (req) => {
    const st = state();
    const page = getVisible(req, st, req.params.id!, "page");
    if (!page) return notFound();
    return cursorPage(req, ancestorsOf(st, page), (a) => ({ id: a.id, type: "page" }));
  });

  router.get(`${V2}/footer-comments/:id/children`, (req) => {
    const st = state();
    const comment = getVisible(req, st, req.params.id!, "comment");
    if (!comment?.containerId) return notFound();
    const format = bodyFormat(req, BODY_FORMATS_LIST);
    if (format !== null && typeof format === "object") return format;
    if (comment.inline) return notFound();
    const replies = commentsOf(st, st.content.get(comment.containerId)!, true).filter((c) => c.parentId === comment.id);
    return cursorPage(req, replies, (c) => presentCommentV2(st, c, format));
  });
}
