/** The Confluence imitation's in-memory model: plain records plus the indexes the routes look up. */

export type ContentType = "page" | "blogpost" | "comment";
export type ContentStatus = "current" | "trashed" | "draft";

export interface User {
  accountId: string;
  displayName: string;
  email: string;
}

export interface Space {
  /** Numeric in v1, a string in v2. */
  id: number;
  key: string;
  name: string;
  description: string;
  homepageId: string;
  createdAt: string;
  authorId: string;
}

export interface VersionInfo {
  number: number;
  when: string;
  by: string;
  message: string;
  minorEdit: boolean;
  /** The title and storage body as of this version; kept from the first change on (the seed keeps only the current text). */
  title?: string;
  body?: string;
}

export interface Label {
  id: string;
  prefix: string;
  name: string;
}

export interface Content {
  id: string;
  type: ContentType;
  status: ContentStatus;
  title: string;
  spaceKey: string;
  /** Pages: the parent page (null at the top of the space). Comments: the comment replied to. */
  parentId: string | null;
  /** Comments: the page or blog post they are on. */
  containerId: string | null;
  position: number;
  /** Storage-format XHTML. */
  body: string;
  /** The body's text (for excerpts) and the lower-cased title and text (for `text ~` and `title ~`). */
  plain: string;
  searchText: string;
  createdAt: string;
  authorId: string;
  /** Oldest first; the last one is the current version. */
  versions: VersionInfo[];
  labels: Label[];
  /** Inline comments (and their replies): the marker in the page and the text it highlights. */
  inline?: InlineAnchor;
}

export type InlineResolution = "open" | "reopened" | "resolved" | "dangling";

export interface InlineAnchor {
  markerRef: string;
  selection: string;
  resolution: InlineResolution;
}

export interface Attachment {
  /** "att" and a number, as Confluence names them. */
  id: string;
  pageId: string;
  title: string;
  mediaType: string;
  comment: string;
  createdAt: string;
  authorId: string;
  data: Buffer;
}

export interface ConfluenceState {
  users: User[];
  userById: Map<string, User>;
  currentUserId: string;
  /** Sorted by key. */
  spaces: Space[];
  spaceByKey: Map<string, Space>;
  spaceById: Map<string, Space>;
  content: Map<string, Content>;
  /** Every content item in ascending id order (ids only grow, so appends keep it sorted). */
  ordered: Content[];
  /** Parent page id → child page ids in position order. */
  children: Map<string, string[]>;
  /** Space key → ids of the pages at the top of the space (no parent). */
  rootPages: Map<string, string[]>;
  /** Page or blog post id → ids of its comments (replies included), oldest first. */
  comments: Map<string, string[]>;
  nextId: number;
  nextLabelId: number;
  /** Page id → its attachments, oldest first (the seed has none). */
  attachments: Map<string, Attachment[]>;
}

export const currentVersion = (c: Content): VersionInfo => c.versions[c.versions.length - 1]!;

/**
 * The title and body of version `n`: its own snapshot, else the next later one's (the seed did not
 * keep the text of older versions), else the current text. Undefined when there is no version n.
 */
export function contentAt(c: Content, n: number): { version: VersionInfo; title: string; body: string } | undefined {
  const at = c.versions.findIndex((v) => v.number === n);
  if (at < 0) return undefined;
  const known = c.versions.slice(at).find((v) => v.body !== undefined);
  return { version: c.versions[at]!, title: known?.title ?? c.title, body: known?.body ?? c.body };
}

export const lastModified = (c: Content): string => currentVersion(c).when;

/** A page's ancestor pages from the top of the space down to its parent (a reply's: the comments above it). */
export function ancestorsOf(state: ConfluenceState, c: Content): Content[] {
  const out: Content[] = [];
  let parentId = c.parentId;
  while (parentId) {
    const parent = state.content.get(parentId);
    if (!parent) break;
    out.push(parent);
    parentId = parent.parentId;
  }
  return out.reverse();
}
