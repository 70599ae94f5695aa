/**
 * Building blocks of the HTTP fuzz test (server/http/fuzz.test.ts): hostile strings and JSON
 * values for fast-check, encoders that can say what a well-behaved client never would (lone
 * surrogates, broken percent escapes, duplicate keys), one request sender, the checks every answer
 * must pass, and a snapshot of the database rows.
 */
import fc from "fast-check";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";

// ---------------------------------------------------------------------------------------------
// Characters and strings

const BIDI = ["\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"];
const ODD = [
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u200b",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\ufffe",
  "\uffff",
  "\ufffd",
  "e\u0301",
  "\u{1f600}",
  "\u{10ffff}",
  "İ",
  "ß",
  "Ω",
];
const TRAPS = [
  "",
  " ",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "0",
  "-1",
  "1e309",
  "NaN",
  "true",
  "%00",
  "%",
  "%zz",
  "'; drop table users; --",
  "\\",
  '"',
  "<script>alert(1)</script>",
  "<html>",
  "../../etc/passwd",
  "${7*7}",
  "{{7*7}}",
  "\r\nX-Injected: 1",
];
/** Lengths around the limits the contract names (64, 100, 254, 256, 500, 2048, 4096) and the body limits (20 KB, 100 KB). */
const LONG_LENGTHS = [65, 101, 255, 257, 501, 2049, 4097, 20_500, 60_000, 101_000, 200_000];
const FILLERS = ["a", "\u0000", "é", "\u202e", "\ud800", "\udc00", "\u{1f600}", "ab\u0000", "%", " "];

const c0Char = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.constant("\u0000"),
);
const bidiChar = fc.constantFrom(...BIDI);
const surrogateChar = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const oddChar = fc.constantFrom(...ODD);
const asciiChar = fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 });

/** One character of the kinds that break things: C0 controls (NUL first), bidi controls, lone surrogates, and ordinary ones. */
export const nastyChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: c0Char },
  { weight: 2, arbitrary: bidiChar },
  { weight: 2, arbitrary: surrogateChar },
  { weight: 1, arbitrary: oddChar },
  { weight: 5, arbitrary: asciiChar },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }) },
);

/**
 * Ordinary characters with those of one hostile kind only: once control characters are refused
 * everywhere, a lone surrogate or a bidi control must still reach the handler on its own.
 */
const oneKind = (kind: fc.Arbitrary<string>) =>
  fc
    .array(fc.oneof({ weight: 1, arbitrary: kind }, { weight: 2, arbitrary: asciiChar }), { minLength: 1, maxLength: 12 })
    .map((a) => a.join(""));

/** A long string (up to `max`, ~200 KB by default) made cheaply by repetition; the cut may split a surrogate pair. */
export const longString = (max = Infinity): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...LONG_LENGTHS.filter((n) => n <= max)), fc.constantFrom(...FILLERS))
    .map(([n, s]) => s.repeat(Math.ceil(n / s.length)).slice(0, n));

const nasty = (maxLong: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.array(nastyChar, { maxLength: 24 }).map((a) => a.join("")) },
    { weight: 1, arbitrary: oneKind(c0Char) },
    { weight: 3, arbitrary: oneKind(surrogateChar) },
    { weight: 1, arbitrary: oneKind(bidiChar) },
    { weight: 1, arbitrary: oneKind(oddChar) },
    { weight: 2, arbitrary: fc.constantFrom(...TRAPS) },
    { weight: 1, arbitrary: longString(maxLong) },
  );

/** Hostile strings for bodies: up to ~200 KB. */
export const nastyString: fc.Arbitrary<string> = nasty(Infinity);

/**
 * Hostile strings for URLs and headers: at most ~4 KB, so that the request stays under Node's
 * 16 KB header limit and reaches the app (the 431 Node answers above it is checked on its own).
 */
export const shortNastyString: fc.Arbitrary<string> = nasty(4_100);

/** Object keys: mostly short and hostile, sometimes the prototype's own names. */
export const nastyKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.array(nastyChar, { minLength: 1, maxLength: 8 }).map((a) => a.join("")) },
  { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "prototype", "toString", "valueOf", "", "0", "length") },
);

// ---------------------------------------------------------------------------------------------
// JSON values, written by hand so that "__proto__" stays an own key and keys may repeat

/** Raw JSON text; keeps fast-check from printing (or recursing into) a 5,000-deep value. */
export class Json {
  constructor(readonly text: string) {}
  toString(): string {
    return clip(this.text, 160);
  }
  [fc.toStringMethod](): string {
    return `json(${clip(this.text, 160)})`;
  }
}

export const jsonText = (v: unknown): string => (v instanceof Json ? v.text : (JSON.stringify(v) ?? "null"));

/** An object from entries: duplicate and prototype-named keys are kept as written. */
export const objectJson = (entries: readonly (readonly [string, unknown])[]): Json =>
  new Json(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(",")}}`);

/** Arrays or objects nested `depth` deep (up to 5,000). */
export const deepJson: fc.Arbitrary<Json> = fc
  .tuple(fc.oneof(fc.integer({ min: 2, max: 64 }), fc.integer({ min: 500, max: 5_000 })), fc.constantFrom("array", "object", "mixed"))
  .map(([depth, kind]) => {
    const open = kind === "array" ? "[" : kind === "object" ? '{"a":' : '[{"a":';
    const close = kind === "array" ? "]" : kind === "object" ? "}" : "}]";
    return new Json(open.repeat(depth) + "1" + close.repeat(depth));
  });

export const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, 1e-300) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Any JSON value: scalars, small arrays and objects (hostile keys), and very deep nesting. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 6, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }).map((items) => new Json(`[${items.map(jsonText).join(",")}]`)) },
    { weight: 1, arbitrary: fc.array(fc.tuple(nastyKey, tie("value")), { maxLength: 4 }).map(objectJson) },
    { weight: 1, arbitrary: deepJson },
  ),
})).value;

/**
 * What a field gets: mostly a plausible value (so that the other fields' hostility reaches the
 * handler), a plausible value with something hostile spliced in, or anything at all.
 */
export function fieldValue(plausible: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: plausible },
    { weight: 3, arbitrary: splice(plausible) },
    { weight: 2, arbitrary: nastyString },
    { weight: 2, arbitrary: anyJson },
  );
}

/** A plausible value with a hostile string inserted (strings), or wrapped in a list (anything else). */
export function splice(plausible: fc.Arbitrary<unknown>, hostile: fc.Arbitrary<string> = nastyString): fc.Arbitrary<unknown> {
  return fc.tuple(plausible, hostile, fc.nat()).map(([p, n, i]) => {
    if (typeof p === "string") {
      const at = i % (p.length + 1);
      return p.slice(0, at) + n + p.slice(at);
    }
    if (Array.isArray(p) && p.length > 0 && typeof p[0] === "string") return [...p.slice(1), `${p[0]}${n}`];
    return [p, n];
  });
}

/** `arb` one time in `oneIn`, otherwise null. */
export const sometimes = <T>(arb: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/**
 * Objects with the route's real field names. Mostly every field plausible but one, which gets a
 * hostile value (so the hostility reaches past validation of the others); sometimes all plausible
 * (the success paths); sometimes every field anything. Each field may be left out, and up to
 * three extra fields and a repeated real field may follow.
 */
export function fieldsObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Json> {
  const names = Object.keys(fields);
  const record = (make: (a: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>) =>
    fc.record(Object.fromEntries(names.map((name) => [name, make(fields[name]!)])) as Record<string, fc.Arbitrary<unknown>>);
  const hostile = (a: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 3, arbitrary: splice(a) }, { weight: 3, arbitrary: nastyString }, { weight: 2, arbitrary: anyJson });
  const mode = fc.constantFrom("one hostile", "one hostile", "one hostile", "all plausible", "any");
  const omitted = fc.array(fc.constantFrom(...(names.length > 0 ? names : ["-"])), { maxLength: 2 });
  const extra = fc.array(fc.tuple(nastyKey, anyJson), { maxLength: 3 });
  const repeated = names.length > 0 ? sometimes(fc.tuple(fc.constantFrom(...names), anyJson), 6) : fc.constant(null);
  return fc
    .tuple(
      mode,
      record((a) => a),
      record(hostile),
      record(fieldValue),
      fc.nat(),
      sometimes(omitted, 5),
      sometimes(extra, 4),
      repeated,
    )
    .map(([m, good, bad, any, which, omit, extras, again]) => {
      const target = names[which % Math.max(1, names.length)];
      const value = (n: string) => (m === "any" ? any[n] : m === "one hostile" && n === target ? bad[n] : good[n]);
      const clean = m === "all plausible";
      const entries: [string, unknown][] = names.filter((n) => clean || !omit?.includes(n)).map((n) => [n, value(n)]);
      if (extras) entries.push(...extras);
      if (again && !clean) entries.push(again);
      return objectJson(entries);
    });
}

// ---------------------------------------------------------------------------------------------
// Encoders

const utf8 = (cp: number): number[] => {
  // Generalised UTF-8 ("WTF-8"): a lone surrogate becomes three bytes no decoder accepts.
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
};

/** Percent-encodes everything but unreserved characters; lone surrogates as invalid UTF-8 bytes. */
export function pct(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (/[A-Za-z0-9\-_.~]/.test(ch)) {
      out += ch;
      continue;
    }
    let cp = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (cp >= 0xd800 && cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    out += utf8(cp)
      .map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`)
      .join("");
  }
  return out;
}

/** Raw pieces of a URL or form that no encoder makes: broken escapes, dot segments, encoded slashes. */
export const RAW_PIECES = [
  "%",
  "%z",
  "%zz",
  "%0",
  "%00",
  "%ED%A0%80",
  "%FF",
  "%C0%AE",
  "%2F",
  "%2e%2e",
  "..",
  ".",
  "%E2%80%AE",
  "a%2Fb",
  "%25",
  "+",
  "%2B",
  "&",
  "=",
  ";",
];

export type Pair = readonly [string, string];

/** A form or query string; each pair encoded, or written raw (a broken escape as it stands). */
export const encodePairs = (pairs: readonly Pair[]): string => pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join("&");

/**
 * Form fields with the real names: mostly plausible values, hostile ones, values that are lists
 * (a repeated key), extra fields, and raw fragments with broken escapes.
 */
/**
 * Form fields (or a query) with the real names, chosen like `fieldsObject`'s: one hostile field
 * among plausible ones, all plausible, or all anything; plus values that are lists (a repeated
 * key), extra fields, and raw fragments with broken escapes.
 */
export function formPairs(fields: Record<string, fc.Arbitrary<string>>, options: { inUrl?: boolean } = {}): fc.Arbitrary<string> {
  const names = Object.keys(fields);
  const hostile = options.inUrl ? shortNastyString : nastyString;
  const record = (make: (a: fc.Arbitrary<string>) => fc.Arbitrary<string>) =>
    fc.record(Object.fromEntries(names.map((n) => [n, make(fields[n]!)])) as Record<string, fc.Arbitrary<string>>);
  const bad = (a: fc.Arbitrary<string>) => fc.oneof(splice(a, hostile) as fc.Arbitrary<string>, hostile);
  const any = (a: fc.Arbitrary<string>) => fc.oneof({ weight: 2, arbitrary: a }, { weight: 1, arbitrary: bad(a) });
  const mode = fc.constantFrom("one hostile", "one hostile", "one hostile", "all plausible", "any");
  const omitted = fc.array(fc.constantFrom(...names), { maxLength: 2 });
  const repeated = fc.array(
    fc.tuple(
      fc.constantFrom(...names),
      fc.oneof(
        hostile,
        fc.constantFrom(...names).chain((n) => fields[n]!),
      ),
    ),
    { maxLength: 2 },
  );
  const extra = fc.array(fc.tuple(nastyKey, hostile), { maxLength: 2 });
  const raw = fc.array(fc.constantFrom(...RAW_PIECES), { maxLength: 3 });
  return fc
    .tuple(
      mode,
      record((a) => a),
      record(bad),
      record(any),
      fc.nat(),
      sometimes(omitted, 5),
      sometimes(repeated, 5),
      sometimes(extra, 4),
      sometimes(raw, 5),
    )
    .map(([m, good, worse, anything, which, omit, again, extras, rawBits]) => {
      const target = names[which % names.length];
      const value = (n: string) => (m === "any" ? anything[n]! : m === "one hostile" && n === target ? worse[n]! : good[n]!);
      const clean = m === "all plausible";
      const pairs: Pair[] = names.filter((n) => clean || !omit?.includes(n)).map((n) => [n, value(n)]);
      if (again && !clean) pairs.push(...again);
      if (extras) pairs.push(...extras);
      const parts = encodePairs(pairs).split("&").filter(Boolean);
      for (const bit of clean ? [] : (rawBits ?? [])) {
        const i = (which + bit.length) % (parts.length + 1);
        parts.splice(i, 0, `${names[which % names.length]}=${bit}`);
      }
      return parts.join("&");
    });
}

// ---------------------------------------------------------------------------------------------
// Requests and the checks on their answers

export interface FuzzRequest {
  method: string;
  /** Path and query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Why this request may change rows even when refused (a reused code revokes its grant, by design). */
  mayChangeRows?: string;
}

export const clip = (s: string, n: number): string => {
  const shown = JSON.stringify(s.length > n ? `${s.slice(0, n)}` : s);
  return s.length > n ? `${shown}…(${s.length} chars)` : shown;
};

/** A compact, printable description (fast-check prints counterexamples with it). */
export function describeRequest(r: FuzzRequest): string {
  const headers = Object.entries(r.headers)
    .filter(([k]) => k !== "cookie" && k !== "authorization")
    .map(([k, v]) => `${k}: ${v}`);
  if (r.headers.cookie)
    headers.push(`cookie: ${r.headers.cookie.startsWith("bk_session=") ? "<admin session>" : clip(r.headers.cookie, 40)}`);
  if (r.headers.authorization) headers.push(`authorization: ${clip(r.headers.authorization, 60)}`);
  return `${r.method} ${clip(r.url, 300)} [${headers.join("; ")}]${r.body === undefined ? "" : ` body=${clip(r.body, 300)}`}`;
}

/** Gives a request a printable form for fast-check's reports. */
export const printable = (r: FuzzRequest): FuzzRequest => Object.assign(r, { [fc.toStringMethod]: () => describeRequest(r) });

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
  requestId: string | null;
  location: string | null;
}

export async function send(baseUrl: string, r: FuzzRequest): Promise<FuzzResponse> {
  const res = await fetch(baseUrl + r.url, { method: r.method, headers: r.headers, body: r.body, redirect: "manual" });
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    text,
    requestId: res.headers.get("x-request-id"),
    location: res.headers.get("location"),
  };
}

/**
 * The properties of one answer: no 5xx (save the allowed ones), never an HTML body (a redirect's
 * included), and an error is JSON that parses.
 */
export function answerProblems(res: FuzzResponse, allowed5xx: readonly number[] = []): string[] {
  const problems: string[] = [];
  if (res.status >= 500 && !allowed5xx.includes(res.status)) problems.push(`status ${res.status}`);
  if (/text\/html/i.test(res.contentType) || /^\s*</.test(res.text))
    problems.push(`HTML body (status ${res.status}, ${res.contentType || "no content-type"})`);
  if (res.status >= 400) {
    if (!/^application\/json\b/i.test(res.contentType))
      problems.push(`error body is not JSON (content-type ${JSON.stringify(res.contentType)})`);
    else {
      try {
        JSON.parse(res.text);
      } catch {
        problems.push("error body does not parse as JSON");
      }
    }
  }
  return problems;
}

/** The error lines the server logged for one request (by its X-Request-Id), shortened to their messages. */
export function loggedErrors(logLines: readonly string[], requestId: string | null): string[] {
  if (!requestId) return [];
  const out: string[] = [];
  for (const line of logLines) {
    if (!line.includes(requestId)) continue;
    try {
      const entry = JSON.parse(line) as {
        level?: number;
        msg?: string;
        err?: { type?: string; message?: string; code?: string; kind?: string };
      };
      if ((entry.level ?? 0) < 50) continue;
      const err = entry.err;
      out.push([entry.msg, err?.type ?? err?.kind, err?.code, err?.message].filter(Boolean).join(": "));
    } catch {
      out.push(line.slice(0, 300));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Database snapshot

/** Every row of every table but those named, as text, in a stable order (one query). */
export async function tableSnapshot(database: Database, exclude: readonly string[]): Promise<() => Promise<string[]>> {
  const listed = (await database.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as {
    rows: { table_name: string }[];
  };
  const tables = listed.rows.map((r) => r.table_name).filter((t) => !exclude.includes(t));
  const union = tables.map((t) => `select '${t}' as t, x::text as r from "${t}" x`).join(" union all ");
  const query = sql.raw(`select t, r from (${union}) s order by t, r`);
  return async () => {
    const result = (await database.db.execute(query)) as unknown as { rows: { t: string; r: string }[] };
    return result.rows.map((row) => `${row.t}: ${row.r}`);
  };
}

/** Rows only in `before` and only in `after`. */
export function rowDiff(before: readonly string[], after: readonly string[]): { gone: string[]; added: string[] } {
  const a = new Set(after);
  const b = new Set(before);
  return { gone: before.filter((r) => !a.has(r)), added: after.filter((r) => !b.has(r)) };
}
