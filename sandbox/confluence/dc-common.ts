import { createHash } from "node:crypto";
import { DEFAULT_CREDENTIALS } from "../credentials";
import { DC_CONTEXT } from "../core/datacenter";
import { intParam, json } from "../core/http";
import type { Reply, SandboxRequest } from "../core/http";
import { contentVisible } from "./access";
import { withQuery } from "./links";
import type { ConfluenceState, Content, User } from "./types";

/**
 * What the Data Center flavour's routes share: its links (relative to the context path, which
 * `_links.context` names), its error body, its users (username and userKey, no account ids) and its
 * offset pages with their silent limit caps. Confluence Data Center REST API (8.9 / 9.x reference),
 * checked against DC answers quoted in public client code (e.g. a space listing's
 * `_links: {self, base, context: "/confluence"}` and a 404's `reason: "Not Found"`).
 */

type Json = Record<string, unknown>;

export const CONTEXT = DC_CONTEXT.confluence;

/** The product's base URL: origin and context path, as `_links.base` gives it. */
export const dcBase = (req: SandboxRequest): string => `${req.origin}${CONTEXT}`;

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Request Entity Too Large",
  500: "Internal Server Error",
};

/** Confluence DC's error body: v1's, with `allowedInReadOnlyMode` and the status `reason`. */
export function dcError(status: number, message: string): Reply {
  return json(
    {
      statusCode: status,
      data: {
        authorized: status !== 401 && status !== 403,
        valid: status < 500,
        allowedInReadOnlyMode: true,
        errors: [],
        successful: false,
      },
      message,
      reason: REASONS[status] ?? "Error",
    },
    status,
  );
}

export const dcNotFound = (id: string) => dcError(404, `No content found with id: ContentId{id=${id}}`);
export const dcSpaceNotFound = (key: string) => dcError(404, `No space with key : ${key}`);
export const dcBadRequest = (message: string) => dcError(400, message);

/** A DC user key: 32 hex digits, fixed for an account (DC's keys look like `2c9680f7405147ee0140514c26120003`). */
export const userKeyOf = (accountId: string): string => createHash("md5").update(accountId).digest("hex");

/** A DC username: the service account's `demo`, a person's nickname (their e-mail's local part). */
export const usernameOf = (u: User): string =>
  u.accountId === DEFAULT_CREDENTIALS.atlassian.accountId ? DEFAULT_CREDENTIALS.dataCenter.username : u.email.split("@")[0]!;

/** The seeded user by key or by username (case-insensitive, as DC's directories compare names). */
export function findUser(state: ConfluenceState, by: { key?: string | null; username?: string | null }): User | undefined {
  const name = by.username?.toLowerCase();
  return state.users.find((u) => (by.key ? userKeyOf(u.accountId) === by.key : usernameOf(u).toLowerCase() === name));
}

/** A DC user: `username`, `userKey`, `displayName` (DC has no account ids), with its profile picture and links. */
export function presentDcUser(req: SandboxRequest, state: ConfluenceState, accountId: string): Json {
  const u = state.userById.get(accountId) ?? { accountId, displayName: "Unknown user", email: "unknown@bridgekeeper.test" };
  const key = userKeyOf(u.accountId);
  return {
    type: "known",
    username: usernameOf(u),
    userKey: key,
    profilePicture: { path: `${CONTEXT}/images/icons/profilepics/default.svg`, width: 48, height: 48, isDefault: true },
    displayName: u.displayName,
    _links: { self: `${dcBase(req)}/rest/api/user?key=${key}` },
    _expandable: { status: "" },
  };
}

const slug = (title: string) => encodeURIComponent(title).replace(/%20/g, "+");
/** Titles DC writes as a `/display/…` link; others (with `?`, `/`, `&`, `+`, `#`, `%`, `:`, `;` …) get `viewpage.action`. */
const DISPLAYABLE = /^[\p{L}\p{N} ._,'()-]+$/u;

/** DC's web links, relative to the context path: `/display/ENG/Title`, else `/pages/viewpage.action?pageId=`. */
export function dcWebui(state: ConfluenceState, c: Content): string {
  if (c.type === "comment") {
    const container = c.containerId ? state.content.get(c.containerId) : undefined;
    const base = container ? dcWebui(state, container) : `/display/${c.spaceKey}`;
    return `${base}${base.includes("?") ? "&" : "?"}focusedCommentId=${c.id}#comment-${c.id}`;
  }
  if (!DISPLAYABLE.test(c.title)) return `/pages/viewpage.action?pageId=${c.id}`;
  if (c.type === "blogpost") return `/display/${c.spaceKey}/${c.createdAt.slice(0, 10).replace(/-/g, "/")}/${slug(c.title)}`;
  return `/display/${c.spaceKey}/${slug(c.title)}`;
}

/** The content with that id if the caller may see it: current or draft, or trashed with `status=trashed`. */
export function dcFind(state: ConfluenceState, req: SandboxRequest, id: string): Content | undefined {
  const c = state.content.get(id);
  if (!c || !contentVisible(req, c)) return undefined;
  if (c.status !== "trashed") return c;
  return req.query.getAll("status").some((s) => s.split(",").includes("trashed")) ? c : undefined;
}

/**
 * DC's fixed result caps (confkb "Searching for content with the REST API and CQL always limits
 * results to 50"): a listing that expands a body returns at most 50 a page, one with other
 * expansions 200; `limit` above the cap is lowered silently (the answer's `limit` says so).
 */
export function dcLimitCap(expand: Set<string>, withoutExpansions: number): number {
  if ([...expand].some((e) => e === "body" || e.startsWith("body.") || e === "content.body" || e.startsWith("content.body."))) return 50;
  return expand.size > 0 ? 200 : withoutExpansions;
}

/** `{results,start,limit,size,_links:{base,context,next?,prev?,self}}` for items[start, start+limit), `next` relative to the context. */
export function dcPage<T>(
  req: SandboxRequest,
  items: readonly T[],
  present: (item: T) => unknown,
  options: { maxLimit?: number; extra?: Json } = {},
): Reply {
  const start = intParam(req.query, "start", 0, 0);
  const limit = intParam(req.query, "limit", 25, 0, options.maxLimit ?? 200);
  const slice = items.slice(start, start + limit);
  // The route sees the path under the context path, as DC's `next` links give it.
  const path = req.path.replace(/\/$/, "");
  const links: Record<string, string> = {};
  if (start + limit < items.length && limit > 0)
    links.next = withQuery(path, req.query, { limit: String(limit), start: String(start + limit) });
  if (start > 0) links.prev = withQuery(path, req.query, { limit: String(limit), start: String(Math.max(0, start - limit)) });
  links.self = `${dcBase(req)}${withQuery(path, req.query, {})}`;
  links.base = dcBase(req);
  links.context = CONTEXT;
  return json({ results: slice.map(present), start, limit, size: slice.length, ...options.extra, _links: links });
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);
