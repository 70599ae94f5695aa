/** Loose readers for request bodies: the fake accepts what the real APIs accept and reads it defensively. */

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const asString = (v: unknown): string | null => (typeof v === "string" ? v : null);

export const asNumber = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * The text of a content value: a string, or an array of parts whose text is in `text` (every
 * format's text parts: {type:"text"|"input_text"|"output_text", text} or Google's {text}).
 */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : typeof part === "string" ? part : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/** A JSON value as the text the model would read (strings unquoted). */
export const asText = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v ?? null));

/** Arguments sent as a JSON string (the OpenAI formats): parsed when they parse. */
export function parseArgs(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** An API key shown the way OpenAI shows one in its 401 message: the start and the last four characters. */
export function maskKey(key: string): string {
  if (key.length <= 8) return "*".repeat(key.length);
  return `${key.slice(0, 3)}${"*".repeat(Math.min(20, key.length - 7))}${key.slice(-4)}`;
}
