import { macroSpans } from "./macros";

/**
 * A page's sections in Confluence storage format: each heading (h1-h6, not inside a macro such as
 * a panel or a code block) opens one, which runs to the next heading of the same or a higher level.
 * Replacing a section's body touches nothing else of the page, byte for byte.
 */
export interface Section {
  level: number;
  /** The heading's text as a reader sees it (tags dropped, entities decoded, spaces collapsed). */
  heading: string;
  /** The heading element's start and end, and where the section's body ends. */
  start: number;
  bodyStart: number;
  end: number;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export const headingText = (html: string): string =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, " ")
    .trim();

export function sectionsOf(storage: string): Section[] {
  const macros = macroSpans(storage);
  const inMacro = (at: number) => macros.some((m) => at >= m.start && at < m.end);
  const headings = [...storage.matchAll(/<h([1-6])(?:\s[^>]*)?>([\s\S]*?)<\/h\1\s*>/gi)]
    .filter((m) => !inMacro(m.index))
    .map((m) => ({ level: Number(m[1]), heading: headingText(m[2]!), start: m.index, bodyStart: m.index + m[0].length }));
  return headings.map((h, i) => {
    const next = headings.slice(i + 1).find((later) => later.level <= h.level);
    return { ...h, end: next ? next.start : storage.length };
  });
}

/** `storage` with the body of `section` (what follows its heading) replaced by `body`. */
export const replaceSectionBody = (storage: string, section: Section, body: string): string =>
  storage.slice(0, section.bodyStart) + body + storage.slice(section.end);

/** Whether a heading matches what a model named: the same words, case and spacing aside. */
export const sameHeading = (a: string, b: string): boolean => headingText(a).toLowerCase() === headingText(b).toLowerCase();
