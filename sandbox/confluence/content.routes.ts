import { actorId, contentVisible, spaceVisible } from "./access";
import { confluenceError } from "../core/errors";
import { json, noContent } from "../core/http";
import type { Router, SandboxRequest } from "../core/http";
import { parseExpand } from "./links";
import { childPages, commentsOf, presentContent } from "./presenters";
import { createContent, isSelfOrDescendant, movePage, placePage, purgeContent, titleTaken, trashContent, updateContent } from "./store";
import type { ConfluenceState, Content } from "./types";
import { currentVersion } from "./types";
import { badRequest, contentNotFound, findContent, isRecord, offsetPage, spaceNotFound, storageValue, str } from "./v1.common";

/** v1 content: list, read with expansions, create (pages, blog posts, comments), update, trash, children. */

const WRITE_EXPAND = new Set(["space", "history", "version", "ancestors", "container", "body", "body.storage"]);
const DEFAULT_GET_EXPAND = ["space", "history", "version"];
const TITLE_TAKEN = "A page with this title already exists: A page already exists with the same TITLE in this space";

/** The last `ancestors` entry is the parent. */
function parentFrom(body: Record<string, unknown>): string | null | undefined {
  if (body.ancestors === undefined) return undefined;
  if (!Array.isArray(body.ancestors)) return null;
  const last: unknown = body.ancestors[body.ancestors.length - 1];
  return isRecord(last) ? (str(last.id) ?? null) : null;
}

function create(req: SandboxRequest, state: ConfluenceState) {
  const body = req.body;
  if (!isRecord(body)) return badRequest("The request body must be a JSON object describing the content");
  const type = str(body.type) ?? "page";
  if (type !== "page" && type !== "blogpost" && type !== "comment") return badRequest(`Unsupported content type: ${type}`);
  const storage = storageValue(body.body);
  if (typeof storage === "object") return badRequest(storage.error);
  const status = str(body.status) ?? "current";
  if (status !== "current" && status !== "draft") return badRequest(`Cannot create content with status ${status}`);

  if (type === "comment") {
    const containerId = isRecord(body.container) ? str(body.container.id) : undefined;
    if (!containerId) return badRequest("A comment must have a container");
    const container = findContent(state, req, containerId);
    if (!container || container.type === "comment") return contentNotFound(containerId);
    const replyTo = parentFrom(body);
    if (replyTo) {
      const parent = state.content.get(replyTo);
      if (!parent || parent.type !== "comment" || parent.containerId !== container.id)
        return badRequest(`Cannot reply to comment ${replyTo}: it is not a comment on content ${container.id}`);
    }
    if (!storage) return badRequest("A comment must have a body");
    const c = createContent(state, {
      type,
      title: `Re: ${container.title}`,
      spaceKey: container.spaceKey,
      parentId: replyTo ?? null,
      containerId: container.id,
      body: storage,
      status,
      authorId: actorId(req, state),
    });
    return json(presentContent(req, state, c, WRITE_EXPAND));
  }

  const title = str(body.title)?.trim();
  if (!title) return badRequest("Title cannot be empty");
  if (title.length > 255) return badRequest("Title cannot be longer than 255 characters");
  const spaceKey = isRecord(body.space) ? str(body.space.key) : undefined;
  if (!spaceKey) return badRequest("A space key must be given (space.key)");
  const space = state.spaceByKey.get(spaceKey.toUpperCase());
  if (!space) return spaceNotFound(spaceKey);
  if (!spaceVisible(req, space)) return confluenceError(403, `Not permitted to create content in space ${space.key}`);
  let parentId: string | null = null;
  if (type === "page") {
    const ancestor = parentFrom(body);
    if (ancestor === null) return badRequest("ancestors must be a list of {id}");
    if (ancestor) {
      const parent = findContent(state, req, ancestor);
      if (!parent || parent.type !== "page") return badRequest(`Could not find parent page with id ${ancestor}`);
      if (parent.spaceKey !== space.key) return badRequest("The parent page must be in the same space");
      parentId = parent.id;
    }
    if (status === "current" && titleTaken(state, space.key, title)) return badRequest(TITLE_TAKEN);
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
  return json(presentContent(req, state, c, WRITE_EXPAND));
}

function update(req: SandboxRequest, state: ConfluenceState, c: Content) {
  const body = req.body;
  if (!isRecord(body)) return badRequest("The request body must be a JSON object describing the content");
  const version = isRecord(body.version) ? Number(body.version.number) : NaN;
  if (!Number.isInteger(version)) return badRequest("Must supply an incremented version when updating Content. No version supplied.");
  const current = currentVersion(c).number;
  if (version !== current + 1) return confluenceError(409, `Version must be incremented on update. Current version is: ${current}`);
  const type = str(body.type);
  if (!type) return badRequest("The content type must be given when updating content");
  if (type !== c.type) return badRequest(`Cannot change the type of content ${c.id} from ${c.type} to ${type}`);
  const storage = storageValue(body.body);
  if (typeof storage === "object") return badRequest(storage.error);
  let title = c.title;
  if (c.type !== "comment") {
    title = str(body.title)?.trim() ?? "";
    if (!title) return badRequest("Title cannot be empty");
    if (c.type === "page" && title.toLowerCase() !== c.title.toLowerCase() && titleTaken(state, c.spaceKey, title, c.id))
      return badRequest(TITLE_TAKEN);
  }
  const ancestor = c.type === "page" ? parentFrom(body) : undefined;
  if (ancestor === null) return badRequest("ancestors must be a list of {id}");
  if (ancestor && ancestor !== c.parentId) {
    const parent = findContent(state, req, ancestor);
    if (!parent || parent.type !== "page") return badRequest(`Could not find parent page with id ${ancestor}`);
    if (parent.spaceKey !== c.spaceKey) return badRequest("Moving a page to another space is not supported");
    if (isSelfOrDescendant(state, c, parent)) return badRequest("A page cannot be moved under itself or one of its descendants");
    movePage(state, c, parent.id);
  }
  if (c.status === "draft" && str(body.status) === "current") c.status = "current";
  const message = isRecord(body.version) ? str(body.version.message) : undefined;
  const minorEdit = isRecord(body.version) && body.version.minorEdit === true;
  updateContent(c, { title, body: storage, message, minorEdit, authorId: actorId(req, state) });
  return json(presentContent(req, state, c, WRITE_EXPAND));
}

const MOVE_POSITIONS = ["before", "after", "append"];

/**
 * `PUT content/{id}/move/{position}/{targetId}`: `append` makes the page the target's last child,
 * `before`/`after` its sibling there. A move to another space takes the page's subtree along.
 * Answers `{pageId}`; no new version is made.
 */
function move(req: SandboxRequest, state: ConfluenceState) {
  const { id, position, targetId } = req.params as { id: string; position: string; targetId: string };
  if (!MOVE_POSITIONS.includes(position))
    return badRequest(`Invalid position: ${position}. Position must be one of: before, after, append`);
  const page = state.content.get(id);
  if (!page || page.type !== "page" || page.status !== "current" || !contentVisible(req, page)) return contentNotFound(id);
  const target = state.content.get(targetId);
  if (!target || target.type !== "page" || target.status !== "current" || !contentVisible(req, target)) return contentNotFound(targetId);
  if (isSelfOrDescendant(state, page, target)) return badRequest("Cannot move a page relative to itself or one of its descendants");
  if (target.spaceKey !== page.spaceKey && titleTaken(state, target.spaceKey, page.title)) return badRequest(TITLE_TAKEN);
  if (position === "append") {
    placePage(state, page, target.id, Number.MAX_SAFE_INTEGER, target.spaceKey);
  } else {
    // Where the target sits once the page has left its old place.
    const parentKey = target.parentId;
    placePage(state, page, parentKey, 0, target.spaceKey);
    const siblings = (parentKey ? state.children.get(parentKey) : state.rootPages.get(target.spaceKey)) ?? [];
    siblings.splice(siblings.indexOf(page.id), 1);
    siblings.splice(siblings.indexOf(target.id) + (position === "after" ? 1 : 0), 0, page.id);
    siblings.forEach((sid, i) => {
      const sibling = state.content.get(sid);
      if (sibling) sibling.position = i;
    });
  }
  return json({ pageId: page.id });
}

export function contentRoutes(router: Router, state: () => ConfluenceState): void {
  router.get("/wiki/rest/api/content", (req) => {
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
    return offsetPage(req, items, (c) => presentContent(req, st, c, expand));
  });

  router.post("/wiki/rest/api/content", (req) => create(req, state()));

  router.get("/wiki/rest/api/content/:id", (req) => {
    const st = state();
    const c = findContent(st, req, req.params.id!);
    if (!c) return contentNotFound(req.params.id!);
    const expand = req.query.has("expand") ? parseExpand(req.query) : new Set(DEFAULT_GET_EXPAND);
    return json(presentContent(req, st, c, expand));
  });

  router.put("/wiki/rest/api/content/:id", (req) => {
    const st = state();
    const c = st.content.get(req.params.id!);
    if (!c || c.status === "trashed" || !contentVisible(req, c)) return contentNotFound(req.params.id!);
    return update(req, st, c);
  });

  router.delete("/wiki/rest/api/content/:id", (req) => {
    const st = state();
    const c = st.content.get(req.params.id!);
    if (!c || !contentVisible(req, c)) return contentNotFound(req.params.id!);
    if (c.status === "trashed") {
      if (req.query.get("status") !== "trashed") return contentNotFound(c.id);
      purgeContent(st, c);
    } else if (c.type === "comment") {
      purgeContent(st, c);
    } else {
      trashContent(st, c);
    }
    return noContent();
  });

  router.put("/wiki/rest/api/content/:id/move/:position/:targetId", (req) => move(req, state()));

  router.get("/wiki/rest/api/content/:id/child/page", (req) => {
    const st = state();
    const c = findContent(st, req, req.params.id!);
    if (!c) return contentNotFound(req.params.id!);
    const expand = parseExpand(req.query);
    return offsetPage(req, childPages(st, c), (x) => presentContent(req, st, x, expand));
  });

  router.get("/wiki/rest/api/content/:id/child/comment", (req) => {
    const st = state();
    const c = findContent(st, req, req.params.id!);
    if (!c) return contentNotFound(req.params.id!);
    const location = req.query.getAll("location");
    const all = req.query.get("depth") === "all";
    const items =
      location.length === 0
        ? commentsOf(st, c, all, "any")
        : commentsOf(st, c, all, "any").filter((x) => location.includes(x.inline ? "inline" : "footer"));
    const expand = parseExpand(req.query);
    return offsetPage(req, items, (x) => presentContent(req, st, x, expand));
  });

  router.get("/wiki/rest/api/content/:id/descendant/page", (req) => {
    const st = state();
    const c = findContent(st, req, req.params.id!);
    if (!c) return contentNotFound(req.params.id!);
    const out: Content[] = [];
    const walk = (p: Content) => {
      for (const child of childPages(st, p)) {
        out.push(child);
        walk(child);
      }
    };
    walk(c);
    const expand = parseExpand(req.query);
    return offsetPage(req, out, (x) => presentContent(req, st, x, expand));
  });
}
