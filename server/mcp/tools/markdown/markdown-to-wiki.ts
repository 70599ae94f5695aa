import { Marked, type Token, type TokenizerAndRendererExtension, type Tokens } from "marked";
import { isAlnum, isSpace } from "./wiki-to-markdown";

/**
 * Markdown a model writes → the wiki markup Jira Data Center stores for descriptions and comments
 * (REST v2), by marked (MIT) as markdown-to-storage.ts uses it, its tokens walked rather than
 * rendered: wiki markup has no way to nest some things Markdown nests, and whether a character
 * must be escaped depends on its neighbours, so inline output is collected as pieces (text, markup,
 * emphasis delimiters) and joined once the neighbours are known.
 *
 * The reverse is wikiToMarkdown, whose doc comment lists the Markdown conventions both follow
 * (`@[user]` for a mention, `attachment:` links, `<u>`/`<sup>`/`<sub>`/`<cite>`, a quote opening with
 * `**Title:**` for a panel, a fence without a language for {noformat}). Written from Markdown:
 * - emphasis between letters (`a**b**c`) uses the forced form `a{*}b{*}c`, the only one Jira reads there;
 * - text that Jira would read as markup is escaped with a backslash (`\*`, `\{`, `\[`, `\|`, `\-` …)
 *   only where it would be: `2-3 days`, `snake_case`, `C++` stay as they are; a backslash that
 *   would escape the next character is written `&#92;`; a line that would start a heading, list,
 *   quote, table or rule is escaped at its start;
 * - a soft line break stays a newline (Jira shows it as a line break), a hard break is `\\`;
 * - a fenced block whose body holds `{code}` becomes {noformat} (and the reverse), as neither has an escape;
 * - what wiki markup cannot hold is flattened: a quote inside a quote, a block (code, table) inside
 *   a list item ends the list, a list's start number and a table's alignment are dropped, a task
 *   item is `[x] text`, raw HTML other than `<u>`, `<sup>`, `<sub>`, `<cite>`, `<br>` is text.
 */

/** `@[user]`: a mention (wiki `[~user]`), never a link or a reference. */
const mention: TokenizerAndRendererExtension = {
  name: "mention",
  level: "inline",
  start(src) {
    const at = src.indexOf("@[");
    return at === -1 ? undefined : at;
  },
  tokenizer(src) {
    const m = /^@\[([^[\]\n]+)\](?![([])/.exec(src);
    return m ? { type: "mention", raw: m[0], user: m[1]!.trim() } : undefined;
  },
  renderer: () => "",
};

/**
 * A run of 32 or more `*`, `_` or `~` is text: no emphasis is that deep, and marked's delimiter
 * matching takes seconds on ten thousand of them.
 */
const run: TokenizerAndRendererExtension = {
  name: "run",
  level: "inline",
  start(src) {
    return /([*_~])\1{31}/.exec(src)?.index;
  },
  tokenizer(src) {
    const m = /^([*_~])\1{31,}/.exec(src);
    return m ? { type: "run", raw: m[0], text: m[0] } : undefined;
  },
  renderer: () => "",
};

const parser = new Marked({ gfm: true, breaks: false, extensions: [mention, run] });

// ---------------------------------------------------------------------------------------------
// Inline pieces

/** Wiki delimiters of Markdown emphasis, and of the HTML tags the Markdown view uses for the rest. */
const DELIMITERS: Record<string, string> = { strong: "*", em: "_", del: "-" };
const TAG_DELIMITERS: Record<string, string> = {
  b: "*",
  strong: "*",
  i: "_",
  em: "_",
  s: "-",
  del: "-",
  strike: "-",
  u: "+",
  ins: "+",
  sup: "^",
  sub: "~",
  cite: "??",
  q: "??",
};
const tagDelimiter = (name: string): string | undefined => TAG_DELIMITERS[name.toLowerCase()];

interface Piece {
  s: string;
  kind: "lit" | "mark" | "open" | "close" | "url";
  /** For "open": the index of its "close" piece. */
  close?: number;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
/** marked leaves entities in text as written; Markdown means the character. */
const decode = (text: string): string =>
  text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code < 0x110000 && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });

const plainText = (tokens: Token[] | undefined): string =>
  (tokens ?? [])
    .map((t) => {
      if (t.type === "text" || t.type === "escape" || t.type === "codespan")
        return "tokens" in t && t.tokens ? plainText(t.tokens) : decode(t.text);
      if ("tokens" in t && Array.isArray(t.tokens)) return plainText(t.tokens as Token[]);
      return "text" in t && typeof t.text === "string" ? t.text : "";
    })
    .join("");

/** A URL as a wiki link target: no `|`, `]` or space, which would end it. */
const target = (url: string): string => url.trim().replace(/[|[\]\s]/g, (c) => encodeURIComponent(c));

const HTML_TAG = /^<(\/?)([a-z]+)\s*>$/i;
const BR_TAG = /^<br\s*\/?>$/i;

class Pieces {
  readonly list: Piece[] = [];
  private readonly active = new Set<string>();

  lit(s: string, inSpan: boolean): void {
    if (s) this.list.push({ s: inSpan ? s.replace(/\s*\n\s*/g, " ") : s, kind: "lit" });
  }
  mark(s: string): void {
    this.list.push({ s, kind: "mark" });
  }

  /** `render` inside the delimiter `d`, unless `d` already applies (wiki cannot nest it) or nothing came of it. */
  wrap(d: string, render: () => void): void {
    if (this.active.has(d)) return render();
    const open = this.list.length;
    this.list.push({ s: d, kind: "open" });
    this.active.add(d);
    render();
    this.active.delete(d);
    if (this.list.length === open + 1) this.list.pop();
    else {
      this.list[open]!.close = this.list.length;
      this.list.push({ s: d, kind: "close" });
    }
  }

  inline(tokens: Token[], inSpan = false): void {
    // Pair the HTML tags of this level first: `<u>`…`</u>` wrap what is between them.
    const pairs = new Map<number, number>();
    const open = new Map<string, number[]>();
    tokens.forEach((t, i) => {
      const m = t.type === "html" ? HTML_TAG.exec(t.text.trim()) : null;
      if (!m || !tagDelimiter(m[2]!)) return;
      const name = m[2]!.toLowerCase();
      if (!m[1]) {
        if (!open.has(name)) open.set(name, []);
        open.get(name)!.push(i);
      } else {
        const at = open.get(name)?.pop();
        if (at !== undefined) pairs.set(at, i);
      }
    });
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      const end = pairs.get(i);
      if (end !== undefined) {
        const name = HTML_TAG.exec((t as Tokens.HTML).text.trim())![2]!;
        this.wrap(tagDelimiter(name)!, () => this.inline(tokens.slice(i + 1, end), true));
        i = end;
        continue;
      }
      this.token(t, inSpan);
    }
  }

  private token(t: Token, inSpan: boolean): void {
    switch (t.type) {
      case "text":
        if ("tokens" in t && t.tokens) this.inline(t.tokens, inSpan);
        else this.lit(decode(t.text), inSpan);
        return;
      case "escape":
        return this.lit(t.text, inSpan);
      case "strong":
      case "em":
      case "del":
        return this.wrap(DELIMITERS[t.type]!, () => this.inline((t as Tokens.Strong | Tokens.Em | Tokens.Del).tokens, true));
      case "codespan": {
        const code = t.text.replace(/\s*\n\s*/g, " ");
        if (!code) return;
        this.mark("{{");
        this.lit(code, true);
        this.mark("}}");
        return;
      }
      case "br":
        return this.mark("\\\\");
      case "link":
        return this.link(t as Tokens.Link);
      case "image": {
        const image = t as Tokens.Image;
        const alt = image.text.replace(/[,|!="'\n]+/g, " ").trim();
        const options = (image.title ?? "").split(",").map((o) => o.trim());
        const kept = options.filter((o) => /^(?:thumbnail|[\w-]+\s*=\s*[^,|!="'\n]+)$/i.test(o));
        const all = [...(alt ? [`alt=${alt}`] : []), ...kept].join(", ");
        this.mark(`!${target(image.href).replace(/!/g, "%21")}${all ? `|${all}` : ""}!`);
        return;
      }
      case "html":
        if (BR_TAG.test(t.text.trim())) return this.mark("\\\\");
        return this.lit(t.text, inSpan);
      case "mention":
        return this.mark(`[~${String((t as Tokens.Generic).user)}]`);
      case "run":
        return this.lit((t as Tokens.Generic).raw, inSpan);
      default:
        return this.lit("raw" in t ? t.raw : "", inSpan);
    }
  }

  private link(t: Tokens.Link): void {
    const href = t.href;
    if (href.startsWith("attachment:")) {
      const name = href
        .slice("attachment:".length)
        .trim()
        .replace(/[|\]]/g, (c) => encodeURIComponent(c));
      if (plainText(t.tokens) === name) return this.mark(`[^${name}]`);
      this.mark("[");
      this.inline(t.tokens, true);
      return this.mark(`|^${name}]`);
    }
    if (t.raw.startsWith("<")) return this.mark(`[${target(href)}]`); // <https://…>, <a@b.c>
    if (t.raw === t.text && !t.raw.startsWith("[")) {
      // A bare URL GFM found: it stays bare where Jira finds it too. A bare e-mail address or
      // `www.` is text, as Jira shows it.
      return /^[a-z][a-z0-9+.-]*:\/\//i.test(t.raw) ? void this.list.push({ s: t.raw, kind: "url" }) : this.lit(t.raw, true);
    }
    if (plainText(t.tokens) === href) return this.mark(`[${target(href)}]`);
    this.mark("[");
    this.inline(t.tokens, true);
    this.mark(`|${target(href)}]`);
  }
}

// ---------------------------------------------------------------------------------------------
// Joining pieces: delimiters and escapes decided with their neighbours known

const EMPHASIS = "*_-+^~";
const ICON = /^(?:\((?:y|n|i|\/|x|!|\+|-|\?|on|off|\*|\*r|\*g|\*b|\*y|flag|flagoff)\)|[:;][()]|:[PD](?![\p{L}\p{N}]))/u;
const ENTITY_AHEAD = /^&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,10});/i;
const URL_STOP = /[\s|[\]<>"{}]/;

/** Whether the delimiter `d` at `at` of `s` could open (no letter before, no space after) or close. */
const canOpen = (s: string, at: number, d: string): boolean =>
  !isAlnum(s[at - 1]) && s[at + d.length] !== undefined && !isSpace(s[at + d.length]);
const canClose = (s: string, at: number, d: string): boolean =>
  s[at - 1] !== undefined && !isSpace(s[at - 1]) && !isAlnum(s[at + d.length]);

/** Per line of `s`: for each emphasis character, its first possible opening and last possible closing. */
function lineStats(line: string): { first: Map<string, number>; last: Map<string, number>; lastBang: number } {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  let lastBang = -1;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "!") lastBang = i;
    else if (isCitation(line, i)) {
      if (!first.has("??") && canOpen(line, i, "??")) first.set("??", i);
      if (canClose(line, i, "??")) last.set("??", i);
    }
    if (!EMPHASIS.includes(ch)) continue;
    if (ch === "-" && (line[i - 1] === "-" || line[i + 1] === "-")) continue; // a run of dashes is text to Jira
    if (!first.has(ch) && canOpen(line, i, ch)) first.set(ch, i);
    if (canClose(line, i, ch)) last.set(ch, i);
  }
  return { first, last, lastBang };
}

/** A literal character `ch` at `at` of `line`, escaped if Jira would read it as markup. */
function escapeChar(line: string, at: number, stats: ReturnType<typeof lineStats>): string {
  const ch = line[at]!;
  switch (ch) {
    case "{":
    case "}":
    case "[":
    case "]":
    case "|":
      return `\\${ch}`;
    case "\\":
      return /[!-/:-@[-`{-~]/.test(line[at + 1] ?? "") ? "&#92;" : ch;
    case "&":
      return ENTITY_AHEAD.test(line.slice(at, at + 12)) ? "\\&" : ch;
    case "(":
    case ":":
    case ";":
      return ICON.test(line.slice(at, at + 9)) ? `\\${ch}` : ch;
    case "!":
      return line[at + 1] !== undefined && !isSpace(line[at + 1]) && stats.lastBang > at ? "\\!" : ch;
    case "?":
      return isCitation(line, at) && mayPair(line, at, "??", stats) ? "\\?" : ch;
    case "-": {
      let start = at;
      while (line[start - 1] === "-") start--;
      let end = at + 1;
      while (line[end] === "-") end++;
      if (end - start > 1) {
        // `--` and `---` before a space are dashes to Jira.
        const dash = end - start <= 3 && !isAlnum(line[start - 1]) && (line[end] === undefined || line[end] === " ");
        return dash ? "\\-" : ch;
      }
      break;
    }
  }
  return EMPHASIS.includes(ch) && mayPair(line, at, ch, stats) ? `\\${ch}` : ch;
}

/** `??` standing alone (not in `???`). */
const isCitation = (line: string, at: number): boolean =>
  line[at] === "?" && line[at + 1] === "?" && line[at - 1] !== "?" && line[at + 2] !== "?";

/** Whether the delimiter `d` at `at` could open with a closer after it, or close an opener before it. */
function mayPair(line: string, at: number, d: string, stats: ReturnType<typeof lineStats>): boolean {
  const first = stats.first.get(d);
  const last = stats.last.get(d);
  return (canOpen(line, at, d) && last !== undefined && last > at) || (canClose(line, at, d) && first !== undefined && first < at);
}

/** The start of a line that Jira would read as a heading, quote, list, table or rule, escaped. */
function escapeLineStart(line: string): string {
  const t = line.trimStart();
  if (/^-{4,}\s*$/.test(t)) return t.replace(/-/g, "\\-");
  const m = /^(h[1-6]|bq)\./.exec(t);
  if (m) return `${m[1]}\\${t.slice(m[1]!.length)}`;
  if (/^(?:[*#]+|-)\s/.test(t)) return `\\${t}`;
  return t;
}

function join(pieces: Piece[], firstLinePrefixed: boolean): string {
  // Delimiters: the plain form where Jira reads it as one, else the forced `{*}` form.
  const texts = pieces.map((p) => p.s);
  const provisional = () => {
    const at: number[] = [];
    let s = "";
    for (const t of texts) {
      at.push(s.length);
      s += t;
    }
    return { s, at };
  };
  let { s, at } = provisional();
  pieces.forEach((p, i) => {
    if (p.kind !== "open" || p.close === undefined) return;
    const d = p.s;
    const o = at[i]!;
    const c = at[p.close]!;
    const near = [s[o - 1], s[o + d.length], s[c - 1], s[c + d.length]];
    const plain =
      !isAlnum(near[0]) &&
      near[1] !== undefined &&
      !isSpace(near[1]) &&
      near[2] !== undefined &&
      !isSpace(near[2]) &&
      !isAlnum(near[3]) &&
      !near.some((ch) => ch === d[0] || ch === "\n");
    if (plain) return;
    const forced = d === "??" ? "" : `{${d}}`; // a citation has no forced form: its text stays
    texts[i] = forced;
    texts[p.close] = forced;
  });
  ({ s, at } = provisional());
  // Bare URLs: bare where Jira and GFM both find the URL again, else `[url]`.
  pieces.forEach((p, i) => {
    if (p.kind !== "url") return;
    const before = s[at[i]! - 1];
    const after = s.slice(at[i]! + p.s.length, at[i]! + p.s.length + 2);
    const bare =
      (before === undefined || isSpace(before) || before === "(") &&
      !URL_STOP.test(p.s) &&
      !/[?!.,:*_~]$/.test(p.s) &&
      (after === "" || isSpace(after[0]) || (".,:;!?)".includes(after[0]!) && (after.length === 1 || isSpace(after[1]))));
    if (!bare) texts[i] = `[${target(p.s)}]`;
  });
  ({ s, at } = provisional());

  // Escapes, line by line, with each line's possible delimiters known.
  let out = "";
  let lineStart = 0;
  let stats = lineStats(s.slice(0, s.indexOf("\n") === -1 ? s.length : s.indexOf("\n")));
  let line = s.slice(0, s.indexOf("\n") === -1 ? s.length : s.indexOf("\n"));
  pieces.forEach((p, i) => {
    if (p.kind !== "lit") {
      out += texts[i];
      return;
    }
    for (let k = 0; k < p.s.length; k++) {
      const pos = at[i]! + k;
      if (s[pos] === "\n") {
        out += "\n";
        lineStart = pos + 1;
        const end = s.indexOf("\n", lineStart);
        line = s.slice(lineStart, end === -1 ? s.length : end);
        stats = lineStats(line);
        continue;
      }
      out += escapeChar(line, pos - lineStart, stats);
    }
  });
  return out
    .split("\n")
    .map((l, i) => (i === 0 && firstLinePrefixed ? l.trim() : escapeLineStart(l).trimEnd()))
    .join("\n")
    .trim();
}

function inline(tokens: Token[] | undefined, firstLinePrefixed = false, inSpan = false): string {
  const pieces = new Pieces();
  pieces.inline(tokens ?? [], inSpan);
  return join(pieces.list, firstLinePrefixed);
}

// ---------------------------------------------------------------------------------------------
// Blocks

interface Context {
  inQuote: boolean;
  inPanel: boolean;
}

const TOP: Context = { inQuote: false, inPanel: false };

function code(t: Tokens.Code): string {
  const info = (t.lang ?? "").trim();
  const language = /^[\w#+.-]+$/.exec(info.split(/\s+/)[0] ?? "")?.[0] ?? "";
  const title = (
    /(?:^|\s)title=(?:"([^"]*)"|(\S+))/
      .exec(info)
      ?.slice(1)
      .find((v) => v !== undefined) ?? ""
  )
    .replace(/[|{}=\n]/g, " ")
    .trim();
  let body = t.text;
  let name = language || title ? "code" : "noformat";
  // Neither macro has an escape: a body holding the one's end tag goes in the other.
  if (body.includes(`{${name}}`)) {
    const other = name === "code" ? "noformat" : "code";
    if (!body.includes(`{${other}}`)) name = other;
    else body = body.replace(new RegExp(`\\{${name}\\}`, "g"), `{\u200b${name}}`);
  }
  const params =
    name === "code" ? (title ? `:title=${title}${language ? `|language=${language}` : ""}` : language ? `:${language}` : "") : "";
  return `{${name}${params}}\n${body}\n{${name}}`;
}

/** A quote opening with `**Title:**` is a panel, as adfToMarkdown shows one. */
function panel(t: Tokens.Blockquote): { title: string; body: string } | null {
  const [first, ...rest] = t.tokens.filter((x) => x.type !== "space");
  if (first?.type !== "paragraph") return null;
  const [label, ...after] = (first as Tokens.Paragraph).tokens;
  const labelTokens = label?.type === "strong" ? (label as Tokens.Strong).tokens : null;
  if (!labelTokens?.every((x) => x.type === "text" || x.type === "escape")) return null;
  const text = plainText(labelTokens);
  if (!/:\s*$/.test(text)) return null;
  const title = text.replace(/:\s*$/, "").trim();
  const lead = after[0];
  if (lead?.type === "text" && !("tokens" in lead && lead.tokens)) after[0] = { ...lead, text: lead.text.replace(/^[ \t]+/, "") };
  const inner: Context = { inQuote: false, inPanel: true };
  const body = [inline(after), ...rest.map((x) => block(x, inner))].filter((s) => s !== "").join("\n\n");
  return { title: title === "panel" ? "" : title.replace(/[|{}=\n]/g, " ").trim(), body };
}

function quote(t: Tokens.Blockquote, ctx: Context): string {
  if (ctx.inQuote) return blocks(t.tokens, ctx); // {quote} does not nest: an inner quote is its text
  const p = ctx.inPanel ? null : panel(t);
  if (p) return `{panel${p.title ? `:title=${p.title}` : ""}}\n${p.body}\n{panel}`;
  const body = blocks(t.tokens, { ...ctx, inQuote: true });
  const content = t.tokens.filter((x) => x.type !== "space");
  if (content.length === 1 && content[0]!.type === "paragraph" && !body.includes("\n")) return `bq. ${body}`;
  return `{quote}\n${body}\n{quote}`;
}

function list(t: Tokens.List, prefix: string, ctx: Context): string[] {
  const lines: string[] = [];
  for (const item of t.items) {
    const marker = prefix + (t.ordered ? "#" : "*");
    let text: string | null = null;
    const after: string[] = [];
    for (const x of item.tokens) {
      if (x.type === "space") continue;
      if (x.type === "list") after.push(...list(x as Tokens.List, marker, ctx));
      else if ((x.type === "text" || x.type === "paragraph") && after.length === 0) {
        // A second paragraph is a line of the item: wiki list items hold no paragraphs.
        const line = inline("tokens" in x && x.tokens ? x.tokens : [x], text === null);
        text = text === null ? line : `${text}\n${line}`;
      } else after.push(block(x, ctx)); // a block in a list item ends the wiki list
    }
    const own = `${item.task ? `\\[${item.checked ? "x" : " "}\\] ` : ""}${text ?? ""}`.trim();
    if (own) lines.push(`${marker} ${own}`);
    lines.push(...after.filter((s) => s !== ""));
  }
  return lines;
}

function table(t: Tokens.Table): string {
  const cell = (c: Tokens.TableCell) => inline(c.tokens, true, true) || " ";
  const head = t.header.map(cell);
  const rows = t.rows.map((r) => `|${r.map(cell).join("|")}|`);
  // An empty header row is how wikiToMarkdown shows a table without one.
  return [...(head.every((h) => h === " ") ? [] : [`||${head.join("||")}||`]), ...rows].join("\n");
}

function block(t: Token, ctx: Context): string {
  switch (t.type) {
    case "space":
    case "def":
      return "";
    case "paragraph":
      return inline(t.tokens);
    case "text":
      return inline("tokens" in t && t.tokens ? t.tokens : [t]);
    case "heading":
      return `h${t.depth}. ${inline(t.tokens, true, true)}`.trim();
    case "hr":
      return "----";
    case "code":
      return code(t as Tokens.Code);
    case "blockquote":
      return quote(t as Tokens.Blockquote, ctx);
    case "list":
      return list(t as Tokens.List, "", ctx).join("\n");
    case "table":
      return table(t as Tokens.Table);
    case "html":
      return inline([{ type: "text", raw: t.raw, text: t.text.trim() } as Tokens.Text]);
    default:
      return inline([{ type: "text", raw: t.raw, text: t.raw.trim() } as Tokens.Text]);
  }
}

const blocks = (tokens: Token[], ctx: Context): string =>
  tokens
    .map((t) => block(t, ctx))
    .filter((s) => s !== "")
    .join("\n\n");

/** Jira DC wiki markup for Markdown. */
export function markdownToWiki(markdown: string): string {
  const source = markdown.replace(/\r\n?/g, "\n");
  let tokens: Token[];
  try {
    tokens = parser.lexer(source);
  } catch {
    // marked recurses per nesting level: a quote nested ten thousand deep overflows its stack. The
    // text then goes as text, escaped, rather than not at all.
    return source
      .split(/\n{2,}/)
      .map((p) => inline([{ type: "text", raw: p, text: p } as Tokens.Text]))
      .filter((s) => s !== "")
      .join("\n\n");
  }
  return blocks(tokens, TOP).trim();
}
