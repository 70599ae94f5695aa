import { json, noContent } from "../core/http";
import type { Reply, Router, SandboxRequest } from "../core/http";
import { actorId, contentVisible, spaceVisible } from "./access";
import {
  dcBadRequest,
  dcBase,
  dcError,
  dcFind,
  dcLimitCap,
  dcNotFound,
  dcPage,
  dcSpaceNotFound,
  isRecord,
  presentDcUser,
  str,
} from "./dc-common";
import { presentDcContent, presentDcVersion } from "./dc-presenters";
import { parseExpand } from "./links";
import { childPages, commentsOf } from "./presenters";
import { createContent, isSelfOrDescendant, movePage, purgeContent, titleTaken, trashContent, updateContent } from "./store";
import type { ConfluenceState, Content } from "./types";
import { contentAt, currentVersion } from "./types";
import { storageValue } from "./v1.common";

/**
 * Confluence Data Center's content resource (REST v1 `/rest/api/content`): read with expansions (a
 * page at an older version with `status=historical&version=N`), create pages and comments (a reply
 * names its parent in `ancestors`), update with the next version number (a new parent in
 * `ancestors` moves the page: DC has no move resource), trash, children, descendants, history, and
 * the experimental version listing DC 7+ serves (`/rest/experimental/content/{id}/version`).
 */

const DEFAULT_GET_EXPAND = ["history", "space", "version"];
const WRITE_EXPAND = new Set(["space", "history", "version", "ancestors", "container", "body", "body.storage"]);
const TITLE_TAKEN = "A page with this title already exists: A page already exists with the same TITLE in this space";

/**
 * The last of `ancestors` is the parent. DC reads an empty list as "no change" (a page cannot be
 * moved to the top of its space this way): undefined, as when it is left out.
 */
function parentFrom(body: Record<string, unknown>): string | null | undefined {
  if (body.ancestors === undefined) return undefined;
  if (!Array.isArray(body.ancestors)) return null;
  if (body.ancestors.length === 0) return undefined;
  const last: unknown = body.ancestors[body.ancestors.length - 1];
  return isRecord(last) ? (str(last.id) ?? null) : null;
}

function createComment(req: SandboxRequest, state: ConfluenceState, body: Record<string, unknown>, storage: string | undefined): Reply {
  const containerId = isRecord(body.container) ? str(body.container.id) : undefined;
  if (!containerId) return dcBadRequest("A comment must have a container");
  const container = dcFind(state, req, containerId);
  if (!container || container.type === "comment") return dcNotFound(containerId);
  const replyTo = parentFrom(body);
  if (replyTo === null) return dcBadRequest("ancestors must be a list of {id}");
  const parent = replyTo ? state.content.get(replyTo) : undefined;
  if (replyTo && (!parent || parent.type !== "comment" || parent.containerId !== container.id))
    return dcBadRequest(`Cannot reply to comment ${replyTo}: it is not a comment on content ${container.id}`);
  if (!storage) return dcBadRequest("A comment must have a body");
  const c = createContent(state, {
    type: "comment",
    title: `Re: ${container.title}`,
    spaceKey: container.spaceKey,
    parentId: parent?.id ?? null,
    containerId: container.id,
    body: storage,
    status: "current",
    authorId: actorId(req, state),
  });
  // A reply to an inline comment is in its thread, on the same anchor.
  if (parent?.inline) c.inline = { ...parent.inline };
  return json(presentDcContent(req, state, c, WRITE_EXPAND, { top: true }));
}

function create(req: SandboxRequest, state: ConfluenceState): Reply {
  const body = req.body;
  if (!isRecord(body)) return dcBadRequest("The request body must be a JSON object describing the content");
  const type = str(body.type) ?? "page";
  if (type !== "page" && type !== "blogpost" && type !== "comment") return dcBadRequest(`Unsupported content type: ${type}`);
  const storage = storageValue(body.body);
  if (typeof storage === "object") return dcBadRequest(storage.error);
  const status = str(body.status) ?? "current";
  if (status !== "current" && status !== "draft") return dcBadRequest(`Cannot create content with status ${status}`);
  if (type === "comment") return createComment(req, state, body, storage);

  const title = str(body.title)?.trim();
  if (!title) return dcBadRequest("Title cannot be empty");
  if (title.length > 255) return dcBadRequest("Title cannot be longer than 255 characters");
  const spaceKey = isRecord(body.space) ? str(body.space.key) : undefined;
  if (!spaceKey) return dcBadRequest("A space key must be given (space.key)");
  const space = state.spaceByKey.get(spaceKey.toUpperCase());
  if (!space) return dcSpaceNotFound(spaceKey);
  if (!spaceVisible(req, space)) return dcError(403, `Not permitted to create content in space ${space.key}`);
  let parentId: string | null = null;
  if (type === "page") {
    const ancestor = parentFrom(body);
    if (ancestor === null) return dcBadRequest("ancestors must be a list of {id}");
    if (ancestor) {
      const parent = dcFind(state, req, ancestor);
      if (!parent || parent.type !== "page") return dcBadRequest(`Could not find parent page with id ${ancestor}`);
      if (parent.spaceKey !== space.key) return dcBadRequest("The parent page must be in the same space");
      parentId = parent.id;
    }
    if (status === "current" && titleTaken(state, space.key, title)) return dcBadRequest(TITLE_TAKEN);
  }
  const c = createContent(state, {
    type,
    title,
    spaceKey: space.key,
    parentId,
    containerId: null,
    body: storage ?? "",
    status,
    authorId: actorId(req, state),
  });
  return json(presentDcContent(req, state, c, WRITE_EXPAND, { top: true }));
}

function update(req: SandboxRequest, state: ConfluenceState, c: Content): Reply {
  const body = req.body;
  if (!isRecord(body)) return dcBadRequest("The request body must be a JSON object describing the content");
  const version = isRecord(body.version) ? Number(body.version.number) : NaN;
  if (!Number.isInteger(version)) return dcBadRequest("Must supply an incremented version when updating Content. No version supplied.");
  const current = currentVersion(c).number;
  if (version !== current + 1) return dcError(409, `Version must be incremented on update. Current version is: ${current}`);
  const type = str(body.type);
  if (!type) return dcBadRequest("The content type must be given when updating content");
  if (type !== c.type) return dcBadRequest(`Cannot change the type of content ${c.id} from ${c.type} to ${type}`);
  const storage = storageValue(body.body);
  if (typeof storage === "object") return dcBadRequest(storage.error);
  let title = c.title;
  if (c.type !== "comment") {
    title = str(body.title)?.trim() ?? "";
    if (!title) return dcBadRequest("Title cannot be empty");
    if (c.type === "page" && title.toLowerCase() !== c.title.toLowerCase() && titleTaken(state, c.spaceKey, title, c.id))
      return dcBadRequest(TITLE_TAKEN);
  }
  const ancestor = c.type === "page" ? parentFrom(body) : undefined;
  if (ancestor === null) return dcBadRequest("ancestors must be a list of {id}");
  if (ancestor && ancestor !== c.parentId) {
    const parent = dcFind(state, req, ancestor);
    if (!parent || parent.type !== "page") return dcBadRequest(`Could not find parent page with id ${ancestor}`);
    if (parent.spaceKey !== c.spaceKey) return dcBadRequest("Moving a page to another space is not supported");
    if (isSelfOrDescendant(state, c, parent)) return dcBadRequest("A page cannot be moved under itself or one of its descendants");
    // The page becomes the new parent's last child: DC's REST API has no say over the order among siblings.
    movePage(state, c, parent.id);
  }
  if (c.status === "draft" && str(body.status) === "current") c.status = "current";
  const message = isRecord(body.version) ? str(body.version.message) : undefined;
  const minorEdit = isRecord(body.version) && body.version.minorEdit === true;
  updateContent(c, { title, body: storage, message, minorEdit, authorId: actorId(req, state) });
  return json(presentDcContent(req, state, c, WRITE_EXPAND, { top: true }));
}

/** GET content/{id}: the current content, or with `version=N` the content as of that version (404 when there is none). */
function read(req: SandboxRequest, state: ConfluenceState): Reply {
  const id = req.params.id!;
  const c = dcFind(state, req, id);
  if (!c) return dcNotFound(id);
  const expand = req.query.has("expand") ? parseExpand(req.query) : new Set(DEFAULT_GET_EXPAND);
  const wanted = req.query.get("version");
  if (wanted === null) return json(presentDcContent(req, state, c, expand, { top: true }));
  const at = contentAt(c, Number(wanted));
  if (!/^\d+$/.test(wanted) || !at) return dcError(404, `No content found with id: ContentId{id=${id}} and version: ${wanted}`);
  return json(presentDcContent(req, state, c, expand, { top: true, at }));
}

/** Comments on a page (top-level, or every one with `depth=all`), or a comment's direct replies. */
function commentsUnder(state: ConfluenceState, c: Content, req: SandboxRequest): Content[] {
  if (c.type === "comment") {
    const container = c.containerId ? state.content.get(c.containerId) : undefined;
    return container ? commentsOf(state, container, true, "any").filter((x) => x.parentId === c.id) : [];
  }
  const locations = req.query.getAll("location").flatMap((l) => l.split(","));
  const all = commentsOf(state, c, req.query.get("depth") === "all", "any");
  return locations.length === 0 ? all : all.filter((x) => locations.includes(x.inline ? "inline" : "footer"));
}

export function dcContentRoutes(router: Router, state: () => ConfluenceState): void {
  router.get("/rest/api/content", (req) => {
    const st = state();
    const type = req.query.get("type") ?? "page";
    const spaceKey = req.query.get("spaceKey")?.toUpperCase();
    const title = req.query.get("title")?.toLowerCase();
    const statuses = (req.query.get("status") ?? "current").split(",");
    const items = st.ordered.filter(
      (c) =>
        c.type === type &&
        contentVisible(req, c) &&
        (statuses.includes("any") || statuses.includes(c.status)) &&
        (!spaceKey || c.spaceKey === spaceKey) &&
        (title === undefined || c.title.toLowerCase() === title),
    );
    const expand = parseExpand(req.query);
    return dcPage(req, items, (c) => presentDcContent(req, st, c, expand), { maxLimit: dcLimitCap(expand, 1000) });
  });

  router.post("/rest/api/content", (req) => create(req, state()));
  router.get("/rest/api/content/:id", (req) => read(req, state()));

  router.put("/rest/api/content/:id", (req) => {
    const st = state();
    const c = st.content.get(req.params.id!);
    if (!c || c.status === "trashed" || !contentVisible(req, c)) return dcNotFound(req.params.id!);
    return update(req, st, c);
  });

  router.delete("/rest/api/content/:id", (req) => {
    const st = state();
    const c = st.content.get(req.params.id!);
    if (!c || !contentVisible(req, c)) return dcNotFound(req.params.id!);
    if (c.status === "trashed") {
      if (req.query.get("status") !== "trashed") return dcNotFound(c.id);
      purgeContent(st, c);
    } else if (c.type === "comment") {
      purgeContent(st, c);
    } else {
      trashContent(st, c);
    }
    return noContent();
  });

  router.get("/rest/api/content/:id/child/page", (req) => {
    const st = state();
    const c = dcFind(st, req, req.params.id!);
    if (!c) return dcNotFound(req.params.id!);
    const expand = parseExpand(req.query);
    return dcPage(req, childPages(st, c), (x) => presentDcContent(req, st, x, expand), { maxLimit: dcLimitCap(expand, 200) });
  });

  router.get("/rest/api/content/:id/child/comment", (req) => {
    const st = state();
    const c = dcFind(st, req, req.params.id!);
    if (!c) return dcNotFound(req.params.id!);
    const expand = parseExpand(req.query);
    return dcPage(req, commentsUnder(st, c, req), (x) => presentDcContent(req, st, x, expand), { maxLimit: dcLimitCap(expand, 200) });
  });

  router.get("/rest/api/content/:id/descendant/page", (req) => {
    const st = state();
    const c = dcFind(st, req, req.params.id!);
    if (!c) return dcNotFound(req.params.id!);
    const out: Content[] = [];
    const walk = (p: Content) => {
      for (const child of childPages(st, p)) {
        out.push(child);
        walk(child);
      }
    };
    walk(c);
    const expand = parseExpand(req.query);
    return dcPage(req, out, (x) => presentDcContent(req, st, x, expand), { maxLimit: dcLimitCap(expand, 200) });
  });

  router.get("/rest/api/content/:id/history", (req) => {
    const st = state();
    const c = dcFind(st, req, req.params.id!);
    if (!c) return dcNotFound(req.params.id!);
    const expand = parseExpand(req.query);
    const versions = c.versions;
    const out: Record<string, unknown> = { latest: true, createdBy: presentDcUser(req, st, c.authorId), createdDate: c.createdAt };
    const expandable: Record<string, string> = { lastUpdated: "", previousVersion: "", contributors: "", nextVersion: "" };
    if (expand.has("lastUpdated")) {
      out.lastUpdated = presentDcVersion(req, st, c, currentVersion(c));
      delete expandable.lastUpdated;
    }
    if (expand.has("previousVersion") && versions.length > 1) {
      out.previousVersion = presentDcVersion(req, st, c, versions[versions.length - 2]!);
      delete expandable.previousVersion;
    }
    out._links = { self: `${dcBase(req)}/rest/api/content/${c.id}/history` };
    out._expandable = expandable;
    return json(out);
  });

  // DC 7+: the page's versions, newest first (`/rest/api/content/{id}/version` is Cloud's).
  router.get("/rest/experimental/content/:id/version", (req) => {
    const st = state();
    const c = dcFind(st, req, req.params.id!);
    if (!c) return dcNotFound(req.params.id!);
    return dcPage(req, [...c.versions].reverse(), (v) => presentDcVersion(req, st, c, v), { maxLimit: 200 });
  });

  router.get("/rest/experimental/content/:id/version/:number", (req) => {
    const st = state();
    const c = dcFind(st, req, req.params.id!);
    if (!c) return dcNotFound(req.params.id!);
    const v = c.versions.find((x) => String(x.number) === req.params.number);
    if (!v) return dcError(404, `No version ${req.params.number ?? ""} of content ${c.id}`);
    return json(presentDcVersion(req, st, c, v));
  });
}
