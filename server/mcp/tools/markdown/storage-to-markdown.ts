import { replaceMacrosWithMarkers } from "./macros";

/**
 * Confluence storage format (XHTML with ac:/ri: elements) to Markdown for a model to read (docs/decisions.md#tools-and-client-policy).
 * A small tag walker, not a full HTML parser: it handles what Confluence writes (headings,
 * paragraphs, lists, tables, code macros, links, emphasis) and keeps other macros as a marker.
 */
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
};

const decode = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

const attr = (tag: string, name: string): string | undefined => new RegExp(`${name}="([^"]*)"`, "i").exec(tag)?.[1];

export function storageToMarkdown(xhtml: string): string {
  // Macros Markdown cannot express become markers first (nesting respected); a write puts them back (macros.ts).
  let s = replaceMacrosWithMarkers(xhtml);
  // Code macros: their CDATA body verbatim, fenced; held aside so no later step touches it.
  const code: string[] = [];
  const hold = (block: string) => `\n\n@@code${code.push(block) - 1}@@\n\n`;
  s = s.replace(/<ac:structured-macro[^>]*ac:name="code"[^>]*>([\s\S]*?)<\/ac:structured-macro>/gi, (_m, inner: string) => {
    const language = /<ac:parameter ac:name="language">([^<]*)<\/ac:parameter>/i.exec(inner)?.[1] ?? "";
    const body = /<!\[CDATA\[([\s\S]*?)\]\]>/.exec(inner)?.[1] ?? "";
    return hold(`\`\`\`${language}\n${body}\n\`\`\``);
  });
  // Panels and the like keep their body.
  s = s.replace(
    /<ac:structured-macro[^>]*ac:name="(info|note|warning|tip|panel|expand)"[^>]*>([\s\S]*?)<\/ac:structured-macro>/gi,
    (_m, name: string, inner: string) => {
      const body = storageToMarkdown(/<ac:rich-text-body>([\s\S]*?)<\/ac:rich-text-body>/i.exec(inner)?.[1] ?? "");
      return hold(`> **${name}:** ${body.split("\n").join("\n> ")}`);
    },
  );
  // Links to pages and users.
  s = s.replace(
    /<ac:link[^>]*>[\s\S]*?<ri:page[^>]*ri:content-title="([^"]*)"[^>]*\/>[\s\S]*?<\/ac:link>/gi,
    (_m, title: string) => `[[${title}]]`,
  );
  s = s.replace(/<ac:link[^>]*>[\s\S]*?<ri:user[^>]*\/>[\s\S]*?<\/ac:link>/gi, "@user");
  s = s.replace(/<ac:image[\s\S]*?<\/ac:image>/gi, "[image]");
  s = s.replace(/<ac:[^>]*>|<\/ac:[^>]*>|<ri:[^>]*\/?>/gi, "");

  // Tables: rows of cells.
  s = s.replace(/<table[^>]*>([\s\S]*?)<\/table>/gi, (_m, inner: string) => {
    const rows = [...inner.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)].map((r) =>
      [...r[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/gi)].map((c) => inlineText(c[1]!).replace(/\|/g, "\\|")),
    );
    if (rows.length === 0) return "";
    const width = Math.max(...rows.map((r) => r.length));
    const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
    return `\n\n${[line(rows[0]!), line(Array(width).fill("---")), ...rows.slice(1).map(line)].join("\n")}\n\n`;
  });
  // Lists (one level deep is what pages mostly hold; nested ones flatten with indentation).
  s = s.replace(/<(ul|ol)[^>]*>([\s\S]*?)<\/\1>/gi, (_m, kind: string, inner: string) => {
    const items = [...inner.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/gi)].map(
      (item, i) => `${kind.toLowerCase() === "ol" ? `${i + 1}.` : "-"} ${inlineText(item[1]!)}`,
    );
    return `\n\n${items.join("\n")}\n\n`;
  });
  s = s.replace(
    /<h([1-6])[^>]*>([\s\S]*?)<\/h\1>/gi,
    (_m, level: string, inner: string) => `\n\n${"#".repeat(Number(level))} ${inlineText(inner)}\n\n`,
  );
  s = s.replace(/<pre[^>]*>([\s\S]*?)<\/pre>/gi, (_m, inner: string) => hold(`\`\`\`\n${decode(inner.replace(/<[^>]+>/g, ""))}\n\`\`\``));
  s = s.replace(/<blockquote[^>]*>([\s\S]*?)<\/blockquote>/gi, (_m, inner: string) => `\n\n> ${inlineText(inner)}\n\n`);
  s = s.replace(/<hr\s*\/?>/gi, "\n\n---\n\n");
  s = s.replace(/<p[^>]*>([\s\S]*?)<\/p>/gi, (_m, inner: string) => `\n\n${inlineText(inner)}\n\n`);
  return inlineText(s, true)
    .replace(/\n{3,}/g, "\n\n")
    .replace(/@@code(\d+)@@/g, (_m, i: string) => code[Number(i)] ?? "")
    .trim();
}

/** Emphasis, code, links and line breaks; every other tag dropped; entities decoded. */
function inlineText(html: string, keepNewlines = false): string {
  let s = html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<(strong|b)>([\s\S]*?)<\/\1>/gi, "**$2**")
    .replace(/<(em|i)>([\s\S]*?)<\/\1>/gi, "_$2_")
    .replace(/<code>([\s\S]*?)<\/code>/gi, "`$1`")
    .replace(/<(s|del)>([\s\S]*?)<\/\1>/gi, "~~$2~~")
    .replace(/<a\s[^>]*>([\s\S]*?)<\/a>/gi, (tag: string, text: string) => {
      const href = attr(tag, "href");
      return href ? `[${text}](${href})` : text;
    })
    .replace(/<[^>]+>/g, "");
  s = decode(s);
  return keepNewlines ? s : s.replace(/\s*\n\s*/g, " ").trim();
}
