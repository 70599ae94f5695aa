import { CONFIG_KEYS, type ConfigEntry } from "@contract/integrations";
import { RATE_LIMIT_DEFAULTS } from "@contract/limits";

/** Default port when the config names none (spec section 2 and 9). */
export const DEFAULT_PORT = "5000";

/** Looks an entry up by key; `undefined` when the server did not send it or sent it blank. */
export function entryOf(entries: readonly ConfigEntry[] | null | undefined, key: string): ConfigEntry | undefined {
  const entry = entries?.find((e) => e.key === key);
  return entry && entry.value.trim() !== "" ? entry : undefined;
}

/** A non-negative number from the entry, or the fallback when absent or not a number. */
export function numberOf(entries: readonly ConfigEntry[] | null | undefined, key: string, fallback: number): number {
  const value = Number(entryOf(entries, key)?.value);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

export type RateLimits = { [K in keyof typeof RATE_LIMIT_DEFAULTS]: number };

/**
 * The rate limits in force (docs/decisions.md#rate-limits), each falling back to the default while
 * loading or when absent.
 */
export function rateLimitsOf(entries: readonly ConfigEntry[] | null | undefined): RateLimits {
  const d = RATE_LIMIT_DEFAULTS;
  return {
    apiRequestsPerMinute: numberOf(entries, CONFIG_KEYS.apiRequestsPerMinute, d.apiRequestsPerMinute),
    apiBurst: numberOf(entries, CONFIG_KEYS.apiBurst, d.apiBurst),
    oauthRequests: numberOf(entries, CONFIG_KEYS.oauthRequests, d.oauthRequests),
    oauthWindowMinutes: numberOf(entries, CONFIG_KEYS.oauthWindowMinutes, d.oauthWindowMinutes),
    sseStreamsPerMinute: numberOf(entries, CONFIG_KEYS.sseStreamsPerMinute, d.sseStreamsPerMinute),
    sseMaxConcurrent: numberOf(entries, CONFIG_KEYS.sseMaxConcurrent, d.sseMaxConcurrent),
  };
}

/** The server's own allowed origins (comma-separated in the config), trimmed, blanks dropped. */
export function corsOriginsOf(entries: readonly ConfigEntry[] | null | undefined): string[] {
  return (entryOf(entries, CONFIG_KEYS.corsOrigins)?.value ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
}
