import { bitbucketError } from "../core/errors";
import type { Reply, SandboxRequest } from "../core/http";

/**
 * Bitbucket's pagination and query language (BBQL), applied to presented JSON objects:
 * `q=name ~ "api" AND project.key = "PLAT"`, `sort=-updated_on`, `page`, `pagelen`.
 */

type Value = string | number | boolean | null;
type Expr =
  { kind: "and" | "or"; left: Expr; right: Expr } | { kind: "not"; expr: Expr } | { kind: "cmp"; field: string; op: string; value: Value };

export class QueryError extends Error {}

function tokenize(q: string): string[] {
  const tokens: string[] = [];
  const re = /\s*(?:("(?:[^"\\]|\\.)*")|('(?:[^'\\]|\\.)*')|(!=|>=|<=|!~|=|~|>|<|\(|\))|([^\s()=~<>!"']+))/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = re.exec(q)) !== null) {
    tokens.push(m[0].trim());
    last = re.lastIndex;
  }
  if (q.slice(last).trim() !== "") throw new QueryError(`Invalid query: unexpected input at "${q.slice(last).trim()}"`);
  return tokens;
}

function parse(q: string): Expr {
  const tokens = tokenize(q);
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => {
    const t = tokens[pos++];
    if (t === undefined) throw new QueryError("Invalid query: unexpected end of query");
    return t;
  };
  const literal = (t: string): Value => {
    if (t.startsWith('"') || t.startsWith("'")) return t.slice(1, -1).replace(/\\(.)/g, "$1");
    if (t === "null") return null;
    if (t === "true" || t === "false") return t === "true";
    if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
    return t; // unquoted dates such as 2025-01-01
  };
  const primary = (): Expr => {
    const t = next();
    if (t === "(") {
      const e = or();
      if (next() !== ")") throw new QueryError("Invalid query: missing )");
      return e;
    }
    if (t.toUpperCase() === "NOT") return { kind: "not", expr: primary() };
    if (!/^[a-z_][\w.]*$/i.test(t)) throw new QueryError(`Invalid query: expected a field name, got "${t}"`);
    const op = next();
    if (!["=", "!=", "~", "!~", ">", ">=", "<", "<="].includes(op)) throw new QueryError(`Invalid query: unknown operator "${op}"`);
    return { kind: "cmp", field: t, op, value: literal(next()) };
  };
  const and = (): Expr => {
    let left = primary();
    while (peek()?.toUpperCase() === "AND") {
      pos++;
      left = { kind: "and", left, right: primary() };
    }
    return left;
  };
  const or = (): Expr => {
    let left = and();
    while (peek()?.toUpperCase() === "OR") {
      pos++;
      left = { kind: "or", left, right: and() };
    }
    return left;
  };
  const expr = or();
  if (pos !== tokens.length) throw new QueryError(`Invalid query: unexpected "${tokens[pos]}"`);
  return expr;
}

/** The value at a dotted path: undefined when a key is absent, null when the walk meets null. */
export function pathValue(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split(".")) {
    if (cur === null) return null;
    if (typeof cur !== "object" || !(key in (cur as object))) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function compare(actual: unknown, op: string, expected: Value): boolean {
  if (op === "~" || op === "!~") {
    const hit = String(actual ?? "")
      .toLowerCase()
      .includes(String(expected ?? "").toLowerCase());
    return op === "~" ? hit : !hit;
  }
  if (op === "=") return actual === expected || (typeof actual === "number" && actual === Number(expected));
  if (op === "!=") return !(actual === expected || (typeof actual === "number" && actual === Number(expected)));
  if (actual === null || actual === undefined || expected === null) return false;
  const a = typeof actual === "number" ? actual : String(actual);
  const b = typeof actual === "number" ? Number(expected) : String(expected);
  return op === ">" ? a > b : op === ">=" ? a >= b : op === "<" ? a < b : a <= b;
}

function evaluate(e: Expr, item: unknown): boolean {
  switch (e.kind) {
    case "and":
      return evaluate(e.left, item) && evaluate(e.right, item);
    case "or":
      return evaluate(e.left, item) || evaluate(e.right, item);
    case "not":
      return !evaluate(e.expr, item);
    case "cmp":
      return compare(pathValue(item, e.field), e.op, e.value);
  }
}

function fields(e: Expr, out: string[] = []): string[] {
  if (e.kind === "cmp") out.push(e.field);
  else if (e.kind === "not") fields(e.expr, out);
  else {
    fields(e.left, out);
    fields(e.right, out);
  }
  return out;
}

/** Applies `q` and `sort` to presented items; throws QueryError for a bad query or field. */
export function filterAndSort<T>(items: T[], q: string | null, sort: string | null): T[] {
  let out = items;
  if (q && q.trim() !== "") {
    const expr = parse(q);
    const sample = items[0];
    if (sample !== undefined) {
      for (const f of fields(expr)) if (pathValue(sample, f) === undefined) throw new QueryError(`Invalid field name: ${f}`);
    }
    out = items.filter((item) => evaluate(expr, item));
  }
  if (sort && sort.trim() !== "") {
    const desc = sort.startsWith("-");
    const field = desc ? sort.slice(1) : sort;
    const sample = out[0];
    if (sample !== undefined && pathValue(sample, field) === undefined) throw new QueryError(`Invalid sort field: ${field}`);
    out = [...out].sort((x, y) => {
      const a = pathValue(x, field) as string | number | null;
      const b = pathValue(y, field) as string | number | null;
      const c = a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
      return desc ? -c : c;
    });
  }
  return out;
}

export interface PageOptions {
  defaultPagelen?: number;
  maxPagelen?: number;
  /** Commits lists have no `size` on Bitbucket. */
  withSize?: boolean;
}

/** A Bitbucket page: `{pagelen, size, page, next, previous, values}`, `next`/`previous` absolute. */
export function paginate<T, R = T>(req: SandboxRequest, items: T[], present: (item: T) => R, options: PageOptions = {}): Reply {
  const pagelenRaw = req.query.get("pagelen");
  const maxPagelen = options.maxPagelen ?? 100;
  const pagelen = Number.parseInt(pagelenRaw ?? "", 10);
  if (pagelenRaw !== null && (!Number.isFinite(pagelen) || pagelen < 1 || pagelen > maxPagelen)) {
    return bitbucketError(400, `Invalid pagelen: must be between 1 and ${maxPagelen}`);
  }
  const size = pagelenRaw === null ? (options.defaultPagelen ?? 10) : pagelen;
  const pageRaw = req.query.get("page");
  const page = pageRaw === null ? 1 : Number.parseInt(pageRaw, 10);
  if (!Number.isFinite(page) || page < 1) return bitbucketError(400, "Invalid page");
  const lastPage = Math.max(1, Math.ceil(items.length / size));
  if (page > lastPage) return bitbucketError(404, "Invalid page");
  const link = (p: number) => {
    const params = new URLSearchParams(req.query);
    params.set("page", String(p));
    return `${req.origin}${req.path}?${params.toString()}`;
  };
  const body: Record<string, unknown> = { pagelen: size };
  if (options.withSize !== false) body.size = items.length;
  body.values = items.slice((page - 1) * size, page * size).map(present);
  body.page = page;
  if (page < lastPage) body.next = link(page + 1);
  if (page > 1) body.previous = link(page - 1);
  return { status: 200, body };
}

/** Runs filterAndSort, turning a QueryError into Bitbucket's 400. */
export function queried<T>(req: SandboxRequest, items: T[]): T[] | Reply {
  try {
    return filterAndSort(items, req.query.get("q"), req.query.get("sort"));
  } catch (err) {
    if (err instanceof QueryError) return bitbucketError(400, err.message);
    throw err;
  }
}

export const isReply = (x: unknown): x is Reply => !Array.isArray(x) && typeof x === "object" && x !== null && "status" in x;
