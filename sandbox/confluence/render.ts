/**
 * Storage-format XHTML turned into the other representations Confluence serves: plain text (search,
 * excerpts), `view` HTML and a small Atlassian Document Format tree. Good enough for the markup the
 * seed writes and for simple bodies clients send, not a general XHTML engine.
 */

export const escapeXml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const decodeEntities = (s: string): string =>
  s
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, "&");

const CODE_MACRO =
  /<ac:structured-macro ac:name="code"[^>]*>([\s\S]*?)<ac:plain-text-body><!\[CDATA\[([\s\S]*?)\]\]><\/ac:plain-text-body><\/ac:structured-macro>/g;

/** The text a reader sees, whitespace collapsed. */
export function plainText(storage: string): string {
  return decodeEntities(
    storage
      .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, code: string) => ` ${code.replace(/[<>&]/g, " ")} `)
      .replace(/<ac:parameter[^>]*>[\s\S]*?<\/ac:parameter>/g, " ")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}

/** The `view` representation: macros rendered the way Confluence's HTML shows them. */
export function viewHtml(storage: string): string {
  return storage
    .replace(CODE_MACRO, (_, params: string, code: string) => {
      const language = /<ac:parameter ac:name="language">([^<]*)<\/ac:parameter>/.exec(params)?.[1] ?? "text";
      return `<div class="code panel pdl conf-macro output-block" data-hasbody="true" data-macro-name="code"><div class="codeContent panelContent pdl"><pre class="syntaxhighlighter-pre" data-syntaxhighlighter-params="brush: ${escapeXml(language)}; gutter: false; theme: Confluence" data-theme="Confluence">${escapeXml(code)}</pre></div></div>`;
    })
    .replace(
      /<ac:structured-macro ac:name="(info|note|warning|tip)"[^>]*>\s*<ac:rich-text-body>([\s\S]*?)<\/ac:rich-text-body>\s*<\/ac:structured-macro>/g,
      (_, kind: string, inner: string) =>
        `<div class="confluence-information-macro confluence-information-macro-${kind} conf-macro output-block" data-hasbody="true" data-macro-name="${kind}"><div class="confluence-information-macro-body">${inner}</div></div>`,
    )
    .replace(
      /<ac:link><ri:user ri:account-id="([^"]+)"\s*\/><\/ac:link>/g,
      (_, id: string) =>
        `<a class="confluence-userlink user-mention" data-account-id="${id}" href="/wiki/people/${id}" data-linked-resource-type="userinfo">@${id}</a>`,
    );
}

interface AdfNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: AdfNode[];
  text?: string;
}

const textNodes = (html: string): AdfNode[] => {
  const text = decodeEntities(html.replace(/<[^>]+>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
  return text ? [{ type: "text", text }] : [];
};

const BLOCK = /<(h[1-6]|p|ul|ol|table)(?:\s[^>]*)?>([\s\S]*?)<\/\1>|<ac:structured-macro ac:name="code"[\s\S]*?<\/ac:structured-macro>/g;

/** A minimal ADF document (headings, paragraphs, lists, tables, code blocks). */
export function toAdf(storage: string): { type: "doc"; version: 1; content: AdfNode[] } {
  const content: AdfNode[] = [];
  for (const m of storage.matchAll(BLOCK)) {
    const tag = m[1];
    const inner = m[2] ?? "";
    if (!tag) {
      const language = /<ac:parameter ac:name="language">([^<]*)</.exec(m[0])?.[1];
      const code = /<!\[CDATA\[([\s\S]*?)\]\]>/.exec(m[0])?.[1] ?? "";
      content.push({ type: "codeBlock", attrs: language ? { language } : {}, content: code ? [{ type: "text", text: code }] : [] });
    } else if (tag.startsWith("h")) {
      content.push({ type: "heading", attrs: { level: Number(tag.slice(1)) }, content: textNodes(inner) });
    } else if (tag === "p") {
      content.push({ type: "paragraph", content: textNodes(inner) });
    } else if (tag === "ul" || tag === "ol") {
      const items = [...inner.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((li) => ({
        type: "listItem",
        content: [{ type: "paragraph", content: textNodes(li[1] ?? "") }],
      }));
      content.push({ type: tag === "ul" ? "bulletList" : "orderedList", content: items });
    } else {
      const rows = [...inner.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((tr) => ({
        type: "tableRow",
        content: [...(tr[1] ?? "").matchAll(/<(th|td)>([\s\S]*?)<\/\1>/g)].map((cell) => ({
          type: cell[1] === "th" ? "tableHeader" : "tableCell",
          content: [{ type: "paragraph", content: textNodes(cell[2] ?? "") }],
        })),
      }));
      content.push({ type: "table", attrs: { isNumberColumnEnabled: false, layout: "default" }, content: rows });
    }
  }
  if (content.length === 0 && storage.trim()) content.push({ type: "paragraph", content: textNodes(storage) });
  return { type: "doc", version: 1, content };
}

/** A search excerpt: the text around the first query word, or the opening. */
export function excerptOf(text: string, words: readonly string[]): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const w of words) {
    at = lower.indexOf(w);
    if (at >= 0) break;
  }
  const start = at > 60 ? text.lastIndexOf(" ", at - 40) + 1 : 0;
  const slice = text.slice(start, start + 200);
  return (start > 0 ? "..." : "") + slice + (start + 200 < text.length ? "..." : "");
}
