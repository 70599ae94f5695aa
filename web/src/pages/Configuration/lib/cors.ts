/** The defaults, labelled "Default" and never removable (docs/decisions.md#cors-origins). */
export const DEFAULT_CORS_ORIGINS = ["http://localhost:3000", "http://localhost:5000"] as const;

/** What an origin is compared by: trimmed, without trailing slashes, case-insensitive. */
const comparable = (origin: string): string => origin.trim().replace(/\/+$/, "").toLowerCase();

export type AddOriginResult =
  { kind: "added"; origins: string[]; origin: string } | { kind: "empty" } | { kind: "duplicate"; origin: string };

/**
 * Spec section 5: an empty or duplicate origin is ignored. `added` holds the page's own
 * origins (the defaults are always in the list and are not part of it).
 */
export function addOrigin(added: readonly string[], input: string): AddOriginResult {
  const origin = input.trim().replace(/\/+$/, "");
  if (origin === "") return { kind: "empty" };
  const key = comparable(origin);
  if ([...DEFAULT_CORS_ORIGINS, ...added].some((o) => comparable(o) === key)) return { kind: "duplicate", origin };
  return { kind: "added", origins: [...added, origin], origin };
}
