import { z } from "zod";

/**
 * Control characters (C0 and DEL) have no place in names, ids, URLs or any other one-line value,
 * and U+0000 cannot even be stored (PostgreSQL text refuses it). Text that may run over several
 * lines keeps tab, line feed and carriage return.
 */
/* eslint-disable no-control-regex -- matching control characters is the point */
const C0_ANY = /[\u0000-\u001F\u007F]/;
const C0_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/* eslint-enable no-control-regex */
/** Half of a UTF-16 surrogate pair on its own: not a character, and not storable as UTF-8 JSON. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Bidirectional overrides and isolates: they make a name read differently from what it is (Trojan Source). */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

export const TEXT_MESSAGES = {
  control: "Must not contain control characters or broken Unicode",
  bidi: "Must not contain bidirectional control characters",
} as const;

/** Control characters, or a lone surrogate (text that is not well-formed Unicode). */
export const hasControlCharacters = (value: string, options: { multiline?: boolean } = {}): boolean =>
  (options.multiline ? C0_EXCEPT_LINE_BREAKS : C0_ANY).test(value) || LONE_SURROGATE.test(value);
export const hasBidiControls = (value: string): boolean => BIDI_CONTROLS.test(value);

/** A string of one line: no control characters at all. */
export const line = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((v) => !hasControlCharacters(v), TEXT_MESSAGES.control);

/** A string that may hold line breaks and tabs, but no other control character. */
export const multiline = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((v) => !hasControlCharacters(v, { multiline: true }), TEXT_MESSAGES.control);

/**
 * Where a request's input (a JSON body, a query, a form) holds a string with a control character
 * other than a line break or tab, or nests deeper than `maxDepth`: the path of the first one, or
 * null. The backstop under every schema: nothing with U+0000 reaches a handler.
 */
export function findUnsafeText(input: unknown, maxDepth = 32): { path: string; problem: "control" | "depth" } | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: input, path: "", depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      if (hasControlCharacters(value, { multiline: true })) return { path: path || "_", problem: "control" };
    } else if (value !== null && typeof value === "object") {
      if (depth >= maxDepth) return { path: path || "_", problem: "depth" };
      for (const [key, child] of Object.entries(value)) {
        if (hasControlCharacters(key)) return { path: path || "_", problem: "control" };
        stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
      }
    }
  }
  return null;
}

/**
 * Unicode compatibility forms fold to one spelling (NFKC: "ｆｕｌｌ" and "full" are one name), so a
 * username cannot be registered twice in two disguises; applied before any rule sees the value.
 */
export const nfkc = <S extends z.ZodType<unknown, string>>(schema: S, params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .transform((v) => v.normalize("NFKC"))
    .pipe(schema);

/**
 * An http(s) address of a site, nothing more: no user:password, query or fragment (they would
 * travel with every call made to it, or confuse what is appended). `message` for anything else.
 */
export const siteUrl = (message: string) =>
  line({ error: message })
    .trim()
    .max(2048, "Must be at most 2048 characters")
    .refine((v) => {
      try {
        const url = new URL(v);
        return (
          (url.protocol === "https:" || url.protocol === "http:") &&
          url.hostname !== "" &&
          !url.search &&
          !url.hash &&
          !v.includes("#") &&
          !url.username &&
          !url.password
        );
      } catch {
        return false;
      }
    }, message);
