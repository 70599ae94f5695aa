import type { Adf, AdfNode, RichText } from "./model";

/**
 * Atlassian Document Format helpers: v3 bodies are ADF, v2 bodies are wiki markup, and the
 * sandbox converts between the two (headings, paragraphs, lists, code blocks, strong, em, code, links).
 */

export const doc = (...content: AdfNode[]): Adf => ({ type: "doc", version: 1, content });
export const text = (t: string, marks?: AdfNode["marks"]): AdfNode =>
  marks ? { type: "text", text: t, marks } : { type: "text", text: t };
export const paragraph = (...content: AdfNode[]): AdfNode => ({ type: "paragraph", content });
export const heading = (level: number, t: string): AdfNode => ({ type: "heading", attrs: { level }, content: [text(t)] });
export const bulletList = (items: string[]): AdfNode => ({
  type: "bulletList",
  content: items.map((i) => ({ type: "listItem", content: [paragraph(...parseInline(i))] })),
});
export const codeBlock = (language: string, code: string): AdfNode => ({ type: "codeBlock", attrs: { language }, content: [text(code)] });

export function isAdfDoc(v: unknown): v is Adf {
  if (typeof v !== "object" || v === null) return false;
  const d = v as Record<string, unknown>;
  return d.type === "doc" && d.version === 1 && Array.isArray(d.content);
}

/** Plain text (for `~` searches and summaries of bodies); wiki markup (stored by the Data Center flavour) is searched as written. */
export function adfToText(node: RichText | AdfNode | null | undefined): string {
  if (!node) return "";
  if (typeof node === "string") return node;
  if (node.type === "text") return (node as AdfNode).text ?? "";
  if (node.type === "hardBreak") return "\n";
  const inner = (node.content ?? []).map((c) => adfToText(c));
  const block = ["doc", "bulletList", "orderedList", "listItem"].includes(node.type) ? "\n" : "";
  return inner.join(block) + (["paragraph", "heading", "codeBlock"].includes(node.type) ? "\n" : "");
}

function inlineWiki(nodes: AdfNode[] | undefined): string {
  return (nodes ?? [])
    .map((n) => {
      if (n.type === "hardBreak") return "\n";
      if (n.type === "mention") return `[~accountid:${String(n.attrs?.id ?? "")}]`;
      if (n.type !== "text") return inlineWiki(n.content);
      let s = n.text ?? "";
      for (const m of n.marks ?? []) {
        if (m.type === "strong") s = `*${s}*`;
        else if (m.type === "em") s = `_${s}_`;
        else if (m.type === "code") s = `{{${s}}}`;
        else if (m.type === "strike") s = `-${s}-`;
        else if (m.type === "link") s = `[${s}|${String(m.attrs?.href ?? "")}]`;
      }
      return s;
    })
    .join("");
}

function blockWiki(node: AdfNode, listPrefix = ""): string {
  switch (node.type) {
    case "heading":
      return `h${Number(node.attrs?.level ?? 1)}. ${inlineWiki(node.content)}`;
    case "paragraph":
      return inlineWiki(node.content);
    case "codeBlock": {
      const lang = node.attrs?.language ? `:${String(node.attrs.language)}` : "";
      return `{code${lang}}\n${inlineWiki(node.content)}\n{code}`;
    }
    case "bulletList":
    case "orderedList": {
      const prefix = listPrefix + (node.type === "bulletList" ? "*" : "#");
      return (node.content ?? [])
        .map((item) =>
          (item.content ?? []).map((c) => (c.type.endsWith("List") ? blockWiki(c, prefix) : `${prefix} ${blockWiki(c)}`)).join("\n"),
        )
        .join("\n");
    }
    case "blockquote":
      return `{quote}\n${(node.content ?? []).map((c) => blockWiki(c)).join("\n\n")}\n{quote}`;
    case "rule":
      return "----";
    default:
      return node.content
        ? node.content.every((c) => c.type === "text")
          ? inlineWiki(node.content)
          : node.content.map((c) => blockWiki(c)).join("\n\n")
        : (node.text ?? "");
  }
}

/** ADF to Jira wiki markup (the v2 representation); wiki markup already is. */
export const adfToWiki = (d: RichText | null): string | null =>
  d === null ? null : typeof d === "string" ? d : d.content.map((n) => blockWiki(n)).join("\n\n");

/** Inline wiki markup to ADF text nodes: *strong*, _em_, {{code}}, [text|url]. */
export function parseInline(s: string): AdfNode[] {
  const out: AdfNode[] = [];
  const re = /\{\{(.+?)\}\}|\*([^*\s](?:[^*]*[^*\s])?)\*|(?<![\w])_([^_\s](?:[^_]*[^_\s])?)_(?![\w])|\[([^|\]]+)\|([^\]]+)\]/g;
  let last = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m.index > last) out.push(text(s.slice(last, m.index)));
    if (m[1] !== undefined) out.push(text(m[1], [{ type: "code" }]));
    else if (m[2] !== undefined) out.push(text(m[2], [{ type: "strong" }]));
    else if (m[3] !== undefined) out.push(text(m[3], [{ type: "em" }]));
    else out.push(text(m[4]!, [{ type: "link", attrs: { href: m[5]! } }]));
    last = m.index + m[0].length;
  }
  if (last < s.length) out.push(text(s.slice(last)));
  return out;
}

/** Jira wiki markup (v2 bodies) to ADF. */
export function wikiToAdf(source: string): Adf {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const content: AdfNode[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length)
      content.push(paragraph(...para.flatMap((l, i) => (i ? [{ type: "hardBreak" } as AdfNode, ...parseInline(l)] : parseInline(l)))));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const code = /^\{code(?::([\w+-]+))?\}\s*$/.exec(line.trim());
    const head = /^h([1-6])\.\s+(.*)$/.exec(line);
    const item = /^([*#]+)\s+(.*)$/.exec(line);
    if (code) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && lines[i]!.trim() !== "{code}"; i++) body.push(lines[i]!);
      content.push(code[1] ? codeBlock(code[1], body.join("\n")) : { type: "codeBlock", content: [text(body.join("\n"))] });
    } else if (head) {
      flush();
      content.push({ type: "heading", attrs: { level: Number(head[1]) }, content: parseInline(head[2]!) });
    } else if (item) {
      flush();
      const type = item[1]!.endsWith("#") ? "orderedList" : "bulletList";
      const items: AdfNode[] = [];
      for (; i < lines.length; i++) {
        const m = /^([*#]+)\s+(.*)$/.exec(lines[i]!);
        if (!m) break;
        items.push({ type: "listItem", content: [paragraph(...parseInline(m[2]!))] });
      }
      i--;
      content.push({ type, content: items });
    } else if (line.trim() === "") flush();
    else para.push(line);
  }
  flush();
  return doc(...content);
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function inlineHtml(nodes: AdfNode[] | undefined): string {
  return (nodes ?? [])
    .map((n) => {
      if (n.type === "hardBreak") return "<br/>";
      if (n.type !== "text") return inlineHtml(n.content);
      let s = esc(n.text ?? "");
      for (const m of n.marks ?? []) {
        if (m.type === "strong") s = `<b>${s}</b>`;
        else if (m.type === "em") s = `<em>${s}</em>`;
        else if (m.type === "code") s = `<tt>${s}</tt>`;
        else if (m.type === "link")
          s = `<a href="${esc(String(m.attrs?.href ?? ""))}" class="external-link" rel="nofollow noreferrer">${s}</a>`;
      }
      return s;
    })
    .join("");
}

function blockHtml(n: AdfNode): string {
  switch (n.type) {
    case "heading": {
      const level = Number(n.attrs?.level ?? 1);
      return `<h${level}>${inlineHtml(n.content)}</h${level}>`;
    }
    case "paragraph":
      return `<p>${inlineHtml(n.content)}</p>`;
    case "codeBlock":
      return `<div class="code panel"><div class="codeContent panelContent"><pre class="code-java">${esc(adfToText(n).trimEnd())}</pre></div></div>`;
    case "bulletList":
    case "orderedList": {
      const tag = n.type === "bulletList" ? "ul" : "ol";
      return `<${tag}>${(n.content ?? []).map((li) => `<li>${(li.content ?? []).map((c) => (c.type === "paragraph" ? inlineHtml(c.content) : blockHtml(c))).join("")}</li>`).join("")}</${tag}>`;
    }
    default:
      return (n.content ?? []).map(blockHtml).join("");
  }
}

/** The HTML Jira gives in `renderedFields` (wiki markup rendered through its ADF reading). */
export const adfToHtml = (d: RichText | null): string | null => {
  const adf = typeof d === "string" ? wikiToAdf(d) : d;
  return adf ? adf.content.map(blockHtml).join("\n") : null;
};
