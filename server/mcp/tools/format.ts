/** Small helpers the tools share to turn upstream JSON into compact fields and text. */

/** The readable name of a Jira/Bitbucket value object (a user, status, priority, option ...). */
export function nameOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const names = value.map(nameOf).filter((v): v is string => v !== null);
    return names.length ? names.join(", ") : null;
  }
  const v = value as Record<string, unknown>;
  for (const key of ["displayName", "display_name", "name", "value", "key", "title"])
    if (typeof v[key] === "string") return v[key] as string;
  return null;
}

/** A compact, bounded rendering of any field value for the text answer. */
export function brief(value: unknown, max = 200): string {
  const name = nameOf(value);
  const text = name ?? (value === null || value === undefined ? "—" : JSON.stringify(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `2026-01-05T07:52:10.103+0000` → `2026-01-05 07:52` (UTC as given). */
export const shortDate = (value: unknown): string | null =>
  typeof value === "string" && value.length >= 16 ? `${value.slice(0, 10)} ${value.slice(11, 16)}` : null;

/** Cuts long text at a line or word boundary and says how much was left out. */
export function clip(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const cut = text.lastIndexOf("\n", max) > max * 0.6 ? text.lastIndexOf("\n", max) : text.lastIndexOf(" ", max);
  const at = cut > max * 0.5 ? cut : max;
  return { text: `${text.slice(0, at)}\n\n[… ${text.length - at} more characters]`, truncated: true };
}

/** Edit distance (Levenshtein, with a swap of two neighbours counted once), for "did you mean" hints. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate nearest to `word` (case-insensitive), if it is near enough to be a typo of it. */
export function closest(word: string, candidates: Iterable<string>): string | null {
  const w = word.toLowerCase();
  const limit = w.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | null = null;
  for (const name of candidates) {
    const distance = editDistance(w, name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}
