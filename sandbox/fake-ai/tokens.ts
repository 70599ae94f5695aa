import { randomBytes } from "node:crypto";

/**
 * The fake's tokens are words (with the spaces before them): deterministic, so a test can predict
 * usage and truncation, and close enough to what a reader expects of "tokens".
 * Splitting where a word ends and a space begins keeps every character: joined, they are the text.
 */
export function words(text: string): string[] {
  return text.split(/(?<=\S)(?=\s)/).filter((w) => w !== "");
}

/** Input tokens: the usual rule of thumb of four characters a token, at least one. */
export function countInputTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The text cut to at most `max` tokens, and whether it was cut. */
export function truncateToTokens(text: string, max: number | null): { text: string; truncated: boolean } {
  if (max === null) return { text, truncated: false };
  const all = words(text);
  if (all.length <= max) return { text, truncated: false };
  return { text: all.slice(0, Math.max(0, max)).join(""), truncated: true };
}

/** Splits the text into `count` pieces of about as many words each (default: one a word, at most 64). */
export function splitPieces(text: string, count?: number): string[] {
  const all = words(text);
  if (all.length === 0) return [];
  const n = Math.max(1, Math.min(all.length, count ?? 64));
  const pieces: string[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * all.length) / n);
    const to = Math.floor(((i + 1) * all.length) / n);
    pieces.push(all.slice(from, to).join(""));
  }
  return pieces;
}

/** Splits a string into about `count` pieces by length (tool arguments stream as JSON fragments). */
export function splitEvenly(text: string, count: number): string[] {
  if (text === "") return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random id in the providers' styles: `prefix` then `length` letters and digits (or hex). */
export function randomId(prefix: string, length: number, hex = false): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += hex ? (b % 16).toString(16) : ALPHABET[b % ALPHABET.length];
  return prefix + out;
}

/** Seconds since the epoch, as the OpenAI formats date their objects. */
export const epochSeconds = (): number => Math.floor(Date.now() / 1000);
