/**
 * The CSV's file name as the server gives it (`Content-Disposition: attachment;
 * filename="mcp-server-logs-2026-11-25.csv"`); null when there is none, or when it is not a
 * plain file name (a path or a control character is never offered to the browser as a name).
 */
export function fileNameFromDisposition(header: string | null): string | null {
  const match = header ? /filename="?([^";]+)"?/i.exec(header) : null;
  const name = match?.[1]?.trim();
  if (!name || /[/\\]/.test(name) || [...name].some((c) => c.charCodeAt(0) < 0x20)) return null;
  return name;
}
