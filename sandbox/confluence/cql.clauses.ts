import type { ConfluenceState, Content } from "./types";
import { ancestorsOf, lastModified } from "./types";

/** CQL clauses: each field and operator compiled to a predicate over content records. */

export class CqlError extends Error {}

export interface CqlContext {
  state: ConfluenceState;
  currentUserId: string;
  now: number;
}

export type Predicate = (c: Content, ctx: CqlContext) => boolean;
export type Value = { kind: "literal"; value: string } | { kind: "fn"; name: string; args: string[] };

/** Predicates that scan body text (evaluated last within an AND). */
export const COSTLY = new WeakSet<Predicate>();

export const sortKey = (field: string): ((c: Content) => string | number) => {
  switch (field) {
    case "title":
      return (c) => c.title.toLowerCase();
    case "created":
      return (c) => c.createdAt;
    case "id":
      return numericId;
    case "type":
      return (c) => c.type;
    case "space":
      return (c) => c.spaceKey;
    default:
      return lastModified;
  }
};

export const numericId = (c: Content) => Number(c.id);

export const compareKeys = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

const wordsOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/\*/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

function literal(v: Value, field: string): string {
  if (v.kind === "fn") throw new CqlError(`the function ${v.name}() cannot be used with '${field}'`);
  return v.value;
}

function userOf(v: Value, ctx: Pick<CqlContext, "currentUserId">): string {
  if (v.kind === "fn") {
    if (v.name !== "currentuser") throw new CqlError(`unknown function ${v.name}()`);
    return ctx.currentUserId;
  }
  return v.value;
}

const DURATION = /^([+-]?)(\d+)([yMwdhm])$/;
const UNIT_MS: Record<string, number> = {
  y: 365 * 86_400_000,
  M: 30 * 86_400_000,
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
};

/** A date value as [from, to) in epoch ms. */
function dateRange(v: Value, now: number): [number, number] {
  if (v.kind === "fn") {
    const offsetArg = v.args[0] ?? "";
    let offset = 0;
    if (offsetArg) {
      const m = DURATION.exec(offsetArg.trim());
      if (!m) throw new CqlError(`invalid duration '${offsetArg}' in ${v.name}()`);
      offset = (m[1] === "-" ? -1 : 1) * Number(m[2]) * UNIT_MS[m[3]!]!;
    }
    const at = now + offset;
    const day = Math.floor(at / 86_400_000) * 86_400_000;
    switch (v.name) {
      case "now":
        return [at, at + 1];
      case "startofday":
        return [day, day + 1];
      case "endofday":
        return [day + 86_400_000 - 1, day + 86_400_000];
      case "startofweek": {
        const d = new Date(day);
        const start = day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
        return [start, start + 1];
      }
      case "startofmonth": {
        const d = new Date(at);
        const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
        return [start, start + 1];
      }
      case "startofyear": {
        const start = Date.UTC(new Date(at).getUTCFullYear(), 0, 1);
        return [start, start + 1];
      }
      default:
        throw new CqlError(`unknown function ${v.name}()`);
    }
  }
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(v.value.trim());
  if (!m) throw new CqlError(`invalid date '${v.value}': use "yyyy-MM-dd" or "yyyy-MM-dd HH:mm"`);
  const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0));
  return [start, start + (m[4] ? 60_000 : 86_400_000)];
}

export function buildClause(field: string, op: string, values: Value[], words: string[]): Predicate {
  const unsupported = () => new CqlError(`the operator '${op}' is not supported for the field '${field}'`);
  const setOp = (get: (c: Content, ctx: CqlContext) => string[], norm: (v: Value, ctx: CqlContext) => string): Predicate => {
    if (!["=", "!=", "in", "not in"].includes(op)) throw unsupported();
    const negate = op === "!=" || op === "not in";
    return (c, ctx) => {
      const have = get(c, ctx);
      const hit = values.some((v) => have.includes(norm(v, ctx)));
      return negate ? !hit : hit;
    };
  };
  const lower = (v: Value) => literal(v, field).toLowerCase();
  // Functions are checked here, at parse time, so evaluating a clause never fails.
  for (const v of values) {
    if (v.kind !== "fn") continue;
    if (field === "creator" || field === "contributor") userOf(v, { currentUserId: "" });
    else if (field === "created" || field === "lastmodified") dateRange(v, 0);
    else literal(v, field);
  }
  switch (field) {
    case "type":
      return setOp((c) => [c.type], lower);
    case "space":
    case "space.key":
      return setOp((c) => [c.spaceKey.toLowerCase()], lower);
    case "label":
      return setOp((c) => c.labels.map((l) => l.name), lower);
    case "id":
    case "content":
      return setOp(
        (c) => [c.id],
        (v) => literal(v, field),
      );
    case "parent":
      return setOp(
        (c) => (c.type === "page" && c.parentId ? [c.parentId] : []),
        (v) => literal(v, field),
      );
    case "ancestor":
      return setOp(
        (c, ctx) => (c.type === "page" ? ancestorsOf(ctx.state, c).map((a) => a.id) : []),
        (v) => literal(v, field),
      );
    case "creator":
      return setOp((c) => [c.authorId], userOf);
    case "contributor":
      return setOp((c) => c.versions.map((v) => v.by), userOf);
    case "title":
    case "text": {
      if (op === "~" || op === "!~") {
        const needles = values.flatMap((v) => wordsOf(literal(v, field)));
        words.push(...needles);
        const negate = op === "!~";
        const inTitle = field === "title";
        const p: Predicate = (c) => {
          const hay = inTitle ? c.searchText.slice(0, c.title.length) : c.searchText;
          const hit = needles.length > 0 && needles.every((w) => hay.includes(w));
          return negate ? !hit : hit;
        };
        if (!inTitle) COSTLY.add(p);
        return p;
      }
      if (field === "text") throw unsupported();
      return setOp((c) => [c.title.toLowerCase()], lower);
    }
    default: {
      if (!["=", "!=", ">", ">=", "<", "<="].includes(op) || values.length !== 1) throw unsupported();
      const v = values[0]!;
      dateRange(v, 0); // validates the literal or function at parse time
      const get = field === "created" ? (c: Content) => Date.parse(c.createdAt) : (c: Content) => Date.parse(lastModified(c));
      return (c, ctx) => {
        const [from, to] = dateRange(v, ctx.now);
        const t = get(c);
        switch (op) {
          case "=":
            return t >= from && t < to;
          case "!=":
            return t < from || t >= to;
          case ">":
            return t >= to;
          case ">=":
            return t >= from;
          case "<":
            return t < from;
          default:
            return t < to;
        }
      };
    }
  }
}
