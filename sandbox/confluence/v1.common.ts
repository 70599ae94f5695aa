import { contentVisible } from "./access";
import { confluenceError } from "../core/errors";
import { intParam, json } from "../core/http";
import type { Reply, SandboxRequest } from "../core/http";
import { wikiBase, withQuery } from "./links";
import type { ConfluenceState, Content } from "./types";

/** Helpers the v1 routes share: offset pages with `_links.next`, lookups with Confluence's 404s. */

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 250;

/** `{results,start,limit,size,_links}` for items[start, start+limit), `next` relative to /wiki. */
export function offsetPage<T>(
  req: SandboxRequest,
  items: readonly T[],
  present: (item: T) => unknown,
  extra: Record<string, unknown> = {},
  maxLimit = MAX_LIMIT,
): Reply {
  const start = intParam(req.query, "start", 0, 0);
  const limit = intParam(req.query, "limit", DEFAULT_LIMIT, 0, maxLimit);
  const slice = items.slice(start, start + limit);
  const path = req.path.replace(/^\/wiki/, "").replace(/\/$/, "");
  const links: Record<string, string> = { base: wikiBase(req), context: "/wiki" };
  if (start + limit < items.length && limit > 0)
    links.next = withQuery(path, req.query, { limit: String(limit), start: String(start + limit) });
  if (start > 0) links.prev = withQuery(path, req.query, { limit: String(limit), start: String(Math.max(0, start - limit)) });
  links.self = `${wikiBase(req)}${withQuery(path, req.query, {})}`;
  return json({ results: slice.map(present), start, limit, size: slice.length, ...extra, _links: links });
}

/** The content with that id, if the request may see it (trashed content only with `status=trashed|any`). */
export function findContent(state: ConfluenceState, req: SandboxRequest, id: string): Content | undefined {
  const c = state.content.get(id);
  if (!c || !contentVisible(req, c)) return undefined;
  if (c.status === "current" || c.status === "draft") return c;
  const statuses = (req.query.get("status") ?? "").split(",");
  return statuses.includes("trashed") || statuses.includes("any") ? c : undefined;
}

export const contentNotFound = (id: string) => confluenceError(404, `No content found with id: ContentId{id=${id}}`);
export const spaceNotFound = (key: string) => confluenceError(404, `No space with key : ${key}`);
export const badRequest = (message: string) => confluenceError(400, message);

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);

/** `{storage:{value,representation}}` from a v1 body; an error message when it is unusable. */
export function storageValue(body: unknown): string | { error: string } | undefined {
  if (body === undefined) return undefined;
  if (!isRecord(body)) return { error: "body must be an object with a storage representation" };
  const rep = body.storage ?? body.editor;
  if (rep === undefined) return { error: "Unsupported body representation: use body.storage" };
  if (!isRecord(rep) || typeof rep.value !== "string") return { error: "body.storage.value must be a string" };
  if (rep.representation !== undefined && rep.representation !== "storage" && rep.representation !== "editor") {
    return { error: `Unsupported representation: ${String(rep.representation)}` };
  }
  return rep.value;
}
