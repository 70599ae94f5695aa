import { plainText } from "./render";
import type { ConfluenceState, Content, ContentType, Label } from "./types";
import { ancestorsOf, currentVersion } from "./types";

/** State changes shared by the seed, the v1 routes and the v2 routes (every index kept in step). */

export const titleKey = (spaceKey: string, title: string) => `${spaceKey}\u0000${title.trim().toLowerCase()}`;

/** The derived text fields, recomputed whenever the title or body changes. */
export function textFields(title: string, body: string): { plain: string; searchText: string } {
  const plain = plainText(body);
  return { plain, searchText: `${title}\n${plain}`.toLowerCase() };
}

function siblingsOf(state: ConfluenceState, c: Pick<Content, "parentId" | "spaceKey">): string[] {
  const map = c.parentId ? state.children : state.rootPages;
  const mapKey = c.parentId ?? c.spaceKey;
  let list = map.get(mapKey);
  if (!list) {
    list = [];
    map.set(mapKey, list);
  }
  return list;
}

/** Adds a content item (its id must be above every existing id) and indexes it. */
export function insertContent(state: ConfluenceState, c: Content): Content {
  state.content.set(c.id, c);
  state.ordered.push(c);
  if (c.type === "page") {
    const siblings = siblingsOf(state, c);
    c.position = siblings.length;
    siblings.push(c.id);
  } else if (c.type === "comment" && c.containerId) {
    const list = state.comments.get(c.containerId);
    if (list) list.push(c.id);
    else state.comments.set(c.containerId, [c.id]);
  }
  return c;
}

export const newId = (state: ConfluenceState): string => String((state.nextId += 1));

export function makeLabel(state: ConfluenceState, name: string, prefix = "global"): Label {
  state.nextLabelId += 1;
  return { id: String(state.nextLabelId), prefix, name };
}

export interface NewContent {
  type: ContentType;
  title: string;
  spaceKey: string;
  parentId: string | null;
  containerId: string | null;
  body: string;
  status: "current" | "draft";
  authorId: string;
  message?: string;
}

export function createContent(state: ConfluenceState, input: NewContent): Content {
  const when = new Date().toISOString();
  return insertContent(state, {
    id: newId(state),
    type: input.type,
    status: input.status,
    title: input.title,
    spaceKey: input.spaceKey,
    parentId: input.parentId,
    containerId: input.containerId,
    position: 0,
    body: input.body,
    ...textFields(input.title, input.body),
    createdAt: when,
    authorId: input.authorId,
    versions: [
      { number: 1, when, by: input.authorId, message: input.message ?? "", minorEdit: false, title: input.title, body: input.body },
    ],
    labels: [],
  });
}

/** Moves a page under another parent (or to the top of its space), appended after its new siblings. */
export function movePage(state: ConfluenceState, page: Content, parentId: string | null): void {
  if (page.parentId === parentId) return;
  const old = siblingsOf(state, page);
  const at = old.indexOf(page.id);
  if (at >= 0) old.splice(at, 1);
  page.parentId = parentId;
  const siblings = siblingsOf(state, page);
  page.position = siblings.length;
  siblings.push(page.id);
}

/**
 * Puts a page at `index` among the children of `parentId` (null: the top of its space), moving it
 * from where it was; every sibling's position is renumbered, as Confluence's move does.
 */
export function placePage(state: ConfluenceState, page: Content, parentId: string | null, index: number, spaceKey = page.spaceKey): void {
  const old = siblingsOf(state, page);
  const at = old.indexOf(page.id);
  if (at >= 0) old.splice(at, 1);
  old.forEach((id, i) => {
    const sibling = state.content.get(id);
    if (sibling) sibling.position = i;
  });
  page.parentId = parentId;
  if (spaceKey !== page.spaceKey) {
    // Another space: the page takes its subtree (and their comments) along.
    const move = (c: Content) => {
      c.spaceKey = spaceKey;
      for (const id of state.comments.get(c.id) ?? []) {
        const comment = state.content.get(id);
        if (comment) comment.spaceKey = spaceKey;
      }
      for (const id of state.children.get(c.id) ?? []) {
        const child = state.content.get(id);
        if (child) move(child);
      }
    };
    move(page);
  }
  const siblings = siblingsOf(state, page);
  siblings.splice(Math.max(0, Math.min(index, siblings.length)), 0, page.id);
  siblings.forEach((id, i) => {
    const sibling = state.content.get(id);
    if (sibling) sibling.position = i;
  });
}

/** True when `candidate` is `page` itself or one of its descendants (a move there would make a cycle). */
export function isSelfOrDescendant(state: ConfluenceState, page: Content, candidate: Content): boolean {
  return candidate.id === page.id || ancestorsOf(state, candidate).some((a) => a.id === page.id);
}

export interface ContentUpdate {
  title?: string;
  body?: string;
  message?: string;
  minorEdit?: boolean;
  authorId: string;
}

export function updateContent(c: Content, update: ContentUpdate): Content {
  // The version being replaced keeps its text, so it can still be read and compared.
  const previous = currentVersion(c);
  previous.title ??= c.title;
  previous.body ??= c.body;
  if (update.title !== undefined) c.title = update.title;
  if (update.body !== undefined) c.body = update.body;
  Object.assign(c, textFields(c.title, c.body));
  c.versions.push({
    number: currentVersion(c).number + 1,
    when: new Date().toISOString(),
    by: update.authorId,
    message: update.message ?? "",
    minorEdit: update.minorEdit ?? false,
    title: c.title,
    body: c.body,
  });
  return c;
}

/** Trashes a page: its child pages move up to its parent, as Confluence does. */
export function trashContent(state: ConfluenceState, c: Content): void {
  c.status = "trashed";
  if (c.type !== "page") return;
  for (const childId of [...(state.children.get(c.id) ?? [])]) {
    const child = state.content.get(childId);
    if (child) movePage(state, child, c.parentId);
  }
  const siblings = siblingsOf(state, c);
  const at = siblings.indexOf(c.id);
  if (at >= 0) siblings.splice(at, 1);
}

/** Removes content for good, with its comments (a comment: with the replies under it). */
export function purgeContent(state: ConfluenceState, c: Content): void {
  const ids = new Set([c.id, ...(state.comments.get(c.id) ?? [])]);
  if (c.type === "comment" && c.containerId) {
    for (const id of state.comments.get(c.containerId) ?? []) {
      const reply = state.content.get(id);
      if (reply && ancestorsOf(state, reply).some((a) => a.id === c.id)) ids.add(id);
    }
  }
  for (const id of ids) state.content.delete(id);
  state.comments.delete(c.id);
  state.children.delete(c.id);
  if (c.type === "comment" && c.containerId) {
    const list = state.comments.get(c.containerId);
    if (list)
      state.comments.set(
        c.containerId,
        list.filter((id) => !ids.has(id)),
      );
  }
  state.ordered = state.ordered.filter((x) => !ids.has(x.id));
}

/** Whether the title is free for a page in the space (Confluence keeps page titles unique per space). */
export function titleTaken(state: ConfluenceState, spaceKey: string, title: string, exceptId?: string): boolean {
  const key = titleKey(spaceKey, title);
  for (const c of state.ordered) {
    if (c.type === "page" && c.status === "current" && c.id !== exceptId && titleKey(c.spaceKey, c.title) === key) return true;
  }
  return false;
}
