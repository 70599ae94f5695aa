import { SEED_EPOCH } from "../core/random";
import type { JiraState } from "./model";

/** Jira's timestamp format: `2026-01-05T09:00:00.000+0000`. */
export const jiraTime = (ms: number): string => new Date(ms).toISOString().replace("Z", "+0000");

export const jiraDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The sandbox clock: it reads SEED_EPOCH when the state was seeded and runs in real time from
 * there, so seeded data stays "recent" and relative JQL dates (`-7d`) give stable answers.
 */
export const clock = (state: JiraState): number => SEED_EPOCH + Math.max(0, Date.now() - state.startedAt);

const UNIT_SECONDS: Record<string, number> = { w: 5 * 8 * 3600, d: 8 * 3600, h: 3600, m: 60 };

/** Parses Jira's duration format (`1w 2d 3h 30m`; a bare number is minutes) into seconds, or null. */
export function parseDuration(input: string): number | null {
  const s = input.trim().toLowerCase();
  if (!s) return null;
  if (/^\d+$/.test(s)) return Number(s) * 60;
  let total = 0;
  let rest = s;
  const re = /^(\d+(?:\.\d+)?)\s*([wdhm])\s*/;
  while (rest.length > 0) {
    const m = re.exec(rest);
    if (!m) return null;
    total += Number(m[1]) * UNIT_SECONDS[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return total > 0 ? Math.round(total) : null;
}

/** Seconds as Jira shows them: `1w 2d 3h 30m`. */
export function formatDuration(seconds: number): string {
  let rest = Math.max(0, Math.round(seconds / 60) * 60);
  const parts: string[] = [];
  for (const unit of ["w", "d", "h", "m"]) {
    const size = UNIT_SECONDS[unit]!;
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.length ? parts.join(" ") : "0m";
}

/** A Jira-style offset page: `{startAt, maxResults, total, isLast, values}` (or another list name). */
export function page<T, R>(
  items: readonly T[],
  query: URLSearchParams,
  present: (item: T) => R,
  options: { defaultMax?: number; max?: number; name?: string; isLast?: boolean } = {},
) {
  const startAt = intParamSafe(query.get("startAt"), 0, 0);
  const maxResults = Math.min(options.max ?? 100, intParamSafe(query.get("maxResults"), options.defaultMax ?? 50, 0));
  const slice = items.slice(startAt, startAt + maxResults).map(present);
  const out: Record<string, unknown> = { startAt, maxResults, total: items.length };
  if (options.isLast !== false) out.isLast = startAt + slice.length >= items.length;
  out[options.name ?? "values"] = slice;
  return out;
}

export function intParamSafe(raw: string | null, fallback: number, min: number): number {
  if (raw === null || raw === "") return fallback;
  const n = Number.parseInt(raw, 10);
  return Number.isFinite(n) ? Math.max(min, n) : fallback;
}

/** A small stable hash (FNV-1a) for page tokens. */
export function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Comma-separated or repeated query values: `fields=a,b&fields=c`. */
export const listParam = (query: URLSearchParams, name: string): string[] =>
  query
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
