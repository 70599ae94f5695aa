import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Caller } from "../identity/caller";

/**
 * The sandbox's own tiny HTTP layer: a router over node:http with no framework, so a small GET
 * costs a few microseconds (the sandbox must never be the bottleneck of a benchmark).
 */

export type Credentials = { kind: "basic"; user: string; secret: string } | { kind: "bearer"; token: string } | { kind: "none" };

export interface SandboxRequest {
  method: string;
  /** The path without the query string, percent-decoded per segment by the router. */
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when there is none), the raw bytes of a multipart body (multipart.ts), or the raw text for other content types. */
  body: unknown;
  credentials: Credentials;
  /** The origin the sandbox is reached at, for `self` links: `http://127.0.0.1:5100`. */
  origin: string;
  /** Who the request acts as (identity/caller.ts): the service account, or a person the modules filter for. */
  caller: Caller;
}

export interface Reply {
  status: number;
  /** JSON-serialised unless `text` is given. */
  body?: unknown;
  /** A text body (diffs, raw files), sent as-is with `contentType`. */
  text?: string;
  /** A binary body (attachment content, downloads), sent as-is with `contentType`. */
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Handler = (req: SandboxRequest) => Reply | Promise<Reply>;

interface CompiledRoute {
  method: string;
  pattern: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

/**
 * Patterns are paths with `:name` segments (one segment) and an optional trailing `*rest`
 * (the remainder, slashes included): `/2.0/repositories/:workspace/:repo/src/:commit/*path`.
 */
export class Router {
  /** Parameterised routes, bucketed by their first two (literal) segments: "/wiki/api", "/2.0/repositories". */
  private readonly buckets = new Map<string, CompiledRoute[]>();
  /** Routes with a parameter in their first two segments: tried for every path. */
  private readonly loose: CompiledRoute[] = [];
  /** Exact-path routes (no parameters) are looked up in O(1). */
  private readonly exact = new Map<string, Handler>();

  add(method: string, pattern: string, handler: Handler): this {
    const names: string[] = [];
    if (!pattern.includes(":") && !pattern.includes("*")) {
      this.exact.set(`${method} ${pattern}`, handler);
      return this;
    }
    const source = pattern
      .split("/")
      .map((segment) => {
        if (segment.startsWith(":")) {
          names.push(segment.slice(1));
          return "([^/]+)";
        }
        if (segment.startsWith("*")) {
          names.push(segment.slice(1));
          return "(.*)";
        }
        return segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    const route = { method, pattern, regex: new RegExp(`^${source}/?$`), names, handler };
    const key = bucketKey(pattern);
    if (key === null || key.includes(":") || key.includes("*")) this.loose.push(route);
    else this.buckets.set(key, [...(this.buckets.get(key) ?? []), route]);
    return this;
  }

  get = (pattern: string, handler: Handler) => this.add("GET", pattern, handler);
  post = (pattern: string, handler: Handler) => this.add("POST", pattern, handler);
  put = (pattern: string, handler: Handler) => this.add("PUT", pattern, handler);
  delete = (pattern: string, handler: Handler) => this.add("DELETE", pattern, handler);

  /** The handler for a request, or "method" when the path exists under another method. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | "method" | null {
    const exact =
      this.exact.get(`${method} ${path}`) ?? (path.endsWith("/") ? this.exact.get(`${method} ${path.slice(0, -1)}`) : undefined);
    if (exact) return { handler: exact, params: {} };
    let otherMethod = false;
    const key = bucketKey(path);
    const candidates = key === null ? this.loose : [...(this.buckets.get(key) ?? []), ...this.loose];
    for (const route of candidates) {
      const m = route.regex.exec(path);
      if (!m) continue;
      if (route.method !== method) {
        otherMethod = true;
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = safeDecode(m[i + 1] ?? "");
      });
      return { handler: route.handler, params };
    }
    if (otherMethod) return "method";
    for (const key of this.exact.keys()) if (key.endsWith(` ${path}`)) return "method";
    return null;
  }
}

/** "/wiki/api/v2/pages/1" -> "/wiki/api"; null for a path of fewer than two segments. */
function bucketKey(path: string): string | null {
  const second = path.indexOf("/", 1);
  if (second === -1) return null;
  const third = path.indexOf("/", second + 1);
  return third === -1 ? path : path.slice(0, third);
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export function parseCredentials(header: string | undefined): Credentials {
  if (!header) return { kind: "none" };
  const space = header.indexOf(" ");
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === "bearer" && value) return { kind: "bearer", token: value };
  if (scheme === "basic" && value) {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) return { kind: "basic", user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  return { kind: "none" };
}

export const MAX_REQUEST_BODY_BYTES = 2 * 1024 * 1024;

export class BodyTooLarge extends Error {}

/** Reads the request body (bounded); JSON is parsed, anything else is returned as text. */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const type = req.headers["content-type"] ?? "";
  if (type.includes("multipart/")) return Buffer.concat(chunks);
  const text = Buffer.concat(chunks).toString("utf8");
  if (type.includes("json")) return JSON.parse(text) as unknown;
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  return text;
}

export function send(res: ServerResponse, reply: Reply): void {
  const payload = reply.bytes ?? reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
  const headers: Record<string, string | number> = { ...reply.headers };
  if (payload.length > 0 || reply.text !== undefined || reply.bytes !== undefined) {
    headers["content-type"] =
      reply.contentType ??
      (reply.bytes !== undefined
        ? "application/octet-stream"
        : reply.text !== undefined
          ? "text/plain; charset=utf-8"
          : "application/json;charset=UTF-8");
  }
  headers["content-length"] = Buffer.byteLength(payload);
  res.writeHead(reply.status, headers);
  res.end(payload);
}

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({ status, body, headers });
export const noContent = (): Reply => ({ status: 204 });

/** Integer query parameter with a default and bounds (Atlassian APIs clamp rather than fail). */
export function intParam(query: URLSearchParams, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  const n = Number.parseInt(raw, 10);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, n));
}
