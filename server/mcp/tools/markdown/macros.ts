/**
 * Confluence macros that Markdown cannot express (a Jira chart, a table of contents, a status
 * lozenge, an app's macro) are shown to a model as a marker, `[macro: name]`, and put back exactly
 * as they were when the model writes the page again (issue 11: unknown macros kept, not dropped).
 *
 * Code macros and panels are not markers: Markdown shows them (a fenced block; a quote holding the
 * panel's body), so the macros found inside a panel's body are markers of their own.
 */

/** Macros the Markdown view renders itself (storage-to-markdown.ts) rather than as a marker. */
const CODE = "code";
const PANELS = new Set(["info", "note", "warning", "tip", "panel", "expand"]);

export interface MacroSpan {
  name: string;
  /** Where the macro's XML starts and ends in the storage it was found in. */
  start: number;
  end: number;
}

// An opening or self-closing macro tag, its end tag, or a CDATA section (whose text is never markup).
const TOKENS = /<ac:structured-macro\b[^>]*?(\/?)>|<\/ac:structured-macro\s*>|<!\[CDATA\[[\s\S]*?\]\]>/gi;
const nameOf = (tag: string): string => /\bac:name="([^"]*)"/i.exec(tag)?.[1] ?? "unknown";

/** The outermost macros of `storage` in document order, nesting respected (an unclosed one runs to the end). */
function outermost(storage: string): (MacroSpan & { innerStart: number; innerEnd: number })[] {
  const spans: (MacroSpan & { innerStart: number; innerEnd: number })[] = [];
  let depth = 0;
  let open: { name: string; start: number; innerStart: number } | null = null;
  for (const match of storage.matchAll(TOKENS)) {
    const token = match[0];
    const at = match.index;
    if (token.startsWith("<![")) continue;
    if (token.startsWith("</")) {
      if (depth === 0) continue; // a stray end tag
      depth -= 1;
      if (depth === 0 && open) {
        spans.push({ name: open.name, start: open.start, end: at + token.length, innerStart: open.innerStart, innerEnd: at });
        open = null;
      }
    } else if (match[1] === "/") {
      if (depth === 0) spans.push({ name: nameOf(token), start: at, end: at + token.length, innerStart: at, innerEnd: at });
    } else {
      if (depth === 0) open = { name: nameOf(token), start: at, innerStart: at + token.length };
      depth += 1;
    }
  }
  if (open) spans.push({ name: open.name, start: open.start, end: storage.length, innerStart: open.innerStart, innerEnd: storage.length });
  return spans;
}

/** Where the outermost macros of `storage` start and end (code macros included). */
export const macroSpans = (storage: string): { start: number; end: number }[] =>
  outermost(storage).map(({ start, end }) => ({ start, end }));

/** The macros the Markdown view shows as markers, in document order (those inside panels included). */
export function markedMacros(storage: string, offset = 0): MacroSpan[] {
  const found: MacroSpan[] = [];
  for (const span of outermost(storage)) {
    if (span.name === CODE) continue;
    if (PANELS.has(span.name)) found.push(...markedMacros(storage.slice(span.innerStart, span.innerEnd), offset + span.innerStart));
    else found.push({ name: span.name, start: offset + span.start, end: offset + span.end });
  }
  return found;
}

export const marker = (name: string): string => `[macro: ${name}]`;

/** `storage` with every marked macro replaced by its marker. */
export function replaceMacrosWithMarkers(storage: string): string {
  let out = "";
  let last = 0;
  for (const span of markedMacros(storage)) {
    out += storage.slice(last, span.start) + marker(span.name);
    last = span.end;
  }
  return out + storage.slice(last);
}

/**
 * Puts the macros of the page's previous storage back where the new storage (written from a
 * model's Markdown) has their markers: the n-th `[macro: jira-chart]` becomes the n-th jira-chart
 * macro of the old page, verbatim. A marker standing alone in a paragraph replaces the paragraph
 * (block macros are not paragraph content); one inside text is replaced in place. A marker with
 * no macro left to match stays text. CDATA (code blocks) is never touched.
 */
export function restoreMacros(storage: string, previous: string): string {
  const queues = new Map<string, string[]>();
  for (const span of markedMacros(previous)) {
    const queue = queues.get(span.name) ?? [];
    queue.push(previous.slice(span.start, span.end));
    queues.set(span.name, queue);
  }
  if (queues.size === 0) return storage;
  const take = (name: string): string | undefined => queues.get(name)?.shift();
  return storage
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) =>
      part.startsWith("<![CDATA[")
        ? part
        : part
            .replace(/<p>\[macro: ([\w.:-]+)\]<\/p>/g, (whole, name: string) => take(name) ?? whole)
            .replace(/\[macro: ([\w.:-]+)\]/g, (whole, name: string) => take(name) ?? whole),
    )
    .join("");
}
