/**
 * Text PostgreSQL can store. It refuses NUL in `text` and `jsonb` ("invalid byte sequence for
 * encoding UTF8: 0x00", "unsupported Unicode escape sequence": SQLSTATE 22021, 22P05) and an
 * unpaired surrogate in `jsonb` (JSON.stringify writes it as a `\udXXX` escape, which jsonb
 * rejects; a driver encoding `text` as UTF-8 replaces it silently). A client choosing the text of
 * a log row must not be able to make the database refuse the rows of others written with it, so
 * both become U+FFFD, the replacement character (`String.prototype.toWellFormed` for surrogates):
 * one UTF-16 unit for one, so lengths and cuts made before stay as they were. Native checks: every
 * request's log row passes here, and a clean string is returned itself.
 */
export const storableText = (text: string): string =>
  text.isWellFormed() && !text.includes("\0") ? text : text.toWellFormed().replaceAll("\0", "\ufffd");

/**
 * A row with every string in it storable: its text columns, and the keys and values at any depth
 * of its JSON ones. Other values (numbers, dates, null) are kept as they are, and a value with
 * nothing to change is returned itself, so the common case allocates nothing.
 */
export function storable<T>(value: T): T {
  return fix(value) as T;
}

function fix(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = fix(value[i]);
      if (item !== value[i]) (out ??= value.slice())[i] = item;
    }
    return out ?? value;
  }
  // Every request's log row passes here: a loop over the keys, and a copy only once something changes.
  const keys = Object.keys(value);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = (value as Record<string, unknown>)[key];
    const k = storableText(key);
    const v = fix(item);
    if (!out && (k !== key || v !== item)) {
      out = {};
      for (let j = 0; j < i; j++) define(out, keys[j]!, (value as Record<string, unknown>)[keys[j]!]);
    }
    if (out) define(out, k, v);
  }
  return out ?? value;
}

/** An own property even for a key such as `__proto__` (JSON.parse makes those own properties too). */
const define = (target: Record<string, unknown>, key: string, value: unknown): void =>
  void Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
