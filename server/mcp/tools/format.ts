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
  for (const key of ["displayName", "display_name", "name", "value", "key", "title"]) if (typeof v[key] === "string") return v[key] as string;
  return null;
}

/** A compact, bounded rendering of any field value for the text answer. */
export function brief(value: unknown, max = 200): string {
  const name = nameOf(value);
  const text = name ?? (value === null || value === undefined ? "—" : JSON.stringify(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `2026-01-05T07:52:10.103+0000` → `2026-01-05 07:52` (UTC as given). */
export const shortDate = (value: unknown): string | null => (typeof value === "string" && value.length >= 16 ? `${value.slice(0, 10)} ${value.slice(11, 16)}` : null);

/** Cuts long text at a line or word boundary and says how much was left out. */
export function clip(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const cut = text.lastIndexOf("\n", max) > max * 0.6 ? text.lastIndexOf("\n", max) : text.lastIndexOf(" ", max);
  const at = cut > max * 0.5 ? cut : max;
  return { text: `${text.slice(0, at)}\n\n[… ${text.length - at} more characters]`, truncated: true };
}
