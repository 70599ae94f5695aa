import type { SandboxRequest } from "../core/http";
import type { ConfluenceState, Content } from "./types";

/** Links the way Confluence Cloud writes them: `webui` relative to /wiki, `self` absolute. */

export const wikiBase = (req: SandboxRequest) => `${req.origin}/wiki`;

const slug = (title: string) => encodeURIComponent(title).replace(/%20/g, "+");

export function webui(state: ConfluenceState, c: Content): string {
  if (c.type === "blogpost") {
    const d = c.createdAt.slice(0, 10).replace(/-/g, "/");
    return `/spaces/${c.spaceKey}/blog/${d}/${c.id}/${slug(c.title)}`;
  }
  if (c.type === "comment") {
    const container = c.containerId ? state.content.get(c.containerId) : undefined;
    const base = container ? webui(state, container) : `/spaces/${c.spaceKey}`;
    return `${base}?focusedCommentId=${c.id}#comment-${c.id}`;
  }
  return `/spaces/${c.spaceKey}/pages/${c.id}/${slug(c.title)}`;
}

/** Confluence's short link: the id's little-endian bytes in URL-safe base64. */
export function tinyui(id: string): string {
  let n = BigInt(id);
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.push(Number(n & 0xffn));
    n >>= 8n;
  }
  return `/x/${Buffer.from(bytes).toString("base64url")}`;
}

/** The content id a short link's code stands for (`tinyui` reversed), or null. */
export function tinyuiId(code: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(code)) return null;
  let n = 0n;
  for (const byte of [...Buffer.from(code, "base64url")].reverse()) n = (n << 8n) | BigInt(byte);
  return n > 0n ? String(n) : null;
}

export const editui = (id: string) => `/pages/resumedraft.action?draftId=${id}`;

/** `path?query` with `overrides` applied (null removes a parameter), for `next`/`prev`/`self` links. */
export function withQuery(path: string, query: URLSearchParams, overrides: Record<string, string | null>): string {
  const q = new URLSearchParams(query);
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) q.delete(k);
    else q.set(k, v);
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Comma-separated (and repeated) `expand` values, with every parent path implied: `body.storage` → `body`. */
export function parseExpand(query: URLSearchParams): Set<string> {
  const out = new Set<string>();
  for (const raw of query.getAll("expand")) {
    for (const item of raw.split(",")) {
      const parts = item.trim().split(".").filter(Boolean);
      for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join("."));
    }
  }
  return out;
}

/** The expansions under `prefix`: `children.page.body.storage` under `children.page` is `body.storage`. */
export function subExpand(expand: Set<string>, prefix: string): Set<string> {
  const out = new Set<string>();
  const p = `${prefix}.`;
  for (const e of expand) if (e.startsWith(p)) out.add(e.slice(p.length));
  return out;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Dec 01, 2025", as `friendlyWhen` and `friendlyLastModified` show older dates. */
export function friendlyDate(iso: string): string {
  const d = new Date(iso);
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, "0")}, ${d.getUTCFullYear()}`;
}

/** Opaque, stable cursors for v2 lists: the offset reached and the id last returned. */
export function encodeCursor(offset: number, lastId: string): string {
  return Buffer.from(`${offset}:${lastId}`).toString("base64url");
}

export function decodeCursor(cursor: string): { offset: number; lastId: string } | null {
  const m = /^(\d+):(.+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return m ? { offset: Number(m[1]), lastId: m[2]! } : null;
}
