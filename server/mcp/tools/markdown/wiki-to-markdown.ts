/**
 * Jira Data Center wiki markup (Atlassian's "Text Formatting Notation", the rich text of REST v2
 * descriptions and comments) to Markdown for a model to read (docs/decisions.md#tools-and-client-policy).
 * https://jira.atlassian.com/secure/WikiRendererHelpAction.jspa?section=all
 *
 * It runs on every description a search returns, so it is a parser in two linear passes, not a
 * chain of regular expressions: blocks first (the bodied macros {code}, {noformat}, {quote} and
 * {panel} wherever they stand, then lines: headings, lists, tables, rules, paragraphs), then the
 * inline text of each block, itself in two steps: a scan into atoms (text, escapes, links, images,
 * URLs, monospace, possible emphasis delimiters) and a pairing of the delimiters in which every
 * search for a closing delimiter is cached, so nothing is scanned twice and malformed input (an
 * unclosed `*`, ten thousand of them) costs no more than well-formed input.
 *
 * The Markdown conventions, shared with markdownToWiki (its reverse) and adfToMarkdown:
 * - `*bold*` `**bold**`, `_italic_` `_italic_` (`*italic*` inside a word), `-strike-` `~~strike~~`,
 *   `{{mono}}` a code span (its markup kept as text), `+underline+` `<u>underline</u>`,
 *   `^sup^` `<sup>sup</sup>`, `~sub~` `<sub>sub</sub>`, `??citation??` `<cite>citation</cite>`;
 *   `{*}bold{*}` (emphasis inside a word) reads the same; `{color:red}text{color}` keeps the text only.
 * - a mention `[~jsmith]` or `[~accountid:5b10…]` is `@[jsmith]` / `@[accountid:5b10…]`: the `@` of
 *   adfToMarkdown's `@Name`, the brackets so a model can write one back and a bare `@word` never
 *   becomes one by accident; a mention's display alias (`[Ana|~ana]`) is dropped.
 * - an image `!file.png!` or `!https://x/y.png!` is `![](file.png)`; its `alt=` is the alt text and
 *   its other options (`thumbnail`, `width=300`) the image title: `![](file.png "thumbnail")`.
 * - an attachment `[^file.pdf]` is `[file.pdf](attachment:file.pdf)`, `[Spec|^file.pdf]` is
 *   `[Spec](attachment:file.pdf)`.
 * - a panel `{panel:title=T}…{panel}` is a quote opening with a bold title, as adfToMarkdown shows a
 *   panel: `> **T:** …`; a panel without a title reads `> **panel:** …`. Its colours and borders are dropped.
 * - `{code:java}` is a fence with the language, a `title=` kept in the info string
 *   (```` ```java title="Foo.java" ````); `{noformat}` is a fence without a language, and so is a
 *   `{code}` without one (it comes back as {noformat}: the text is the same, Jira's default Java
 *   highlighting is lost).
 * - `[text|url]` `[text](url)`, `[url]` `<url>`, a bare URL stays bare; `\\` is a hard break
 *   (a backslash ending the line, `<br>` in a table cell); a newline inside a paragraph stays one.
 * - a table without a header row gets an empty one (GFM needs it); a header cell in a body row is bold.
 * - `--` and `---` are the en and em dashes Jira shows, `(/)`, `(x)`, `:)` … the emoji it shows.
 * Text that Markdown would read as markup (`*`, `_` at a word's edge, `` ` ``, `[`, a leading `#`
 * or `1.` …) is backslash-escaped, so what Jira shows as text the model reads as text.
 */

// ---------------------------------------------------------------------------------------------
// Inline syntax tree

type Style = "strong" | "em" | "strike" | "underline" | "sup" | "sub" | "cite";

type Inline =
  | { t: "text"; v: string }
  | { t: "style"; style: Style; c: Inline[] }
  | { t: "code"; c: Inline[] }
  | { t: "link"; href: string; c: Inline[] | null }
  | { t: "url"; href: string }
  | { t: "attachment"; name: string; c: Inline[] | null }
  | { t: "mention"; user: string }
  | { t: "image"; src: string; alt: string; options: string }
  | { t: "br" }
  | { t: "nl" };

type Block =
  | { t: "p"; c: Inline[] }
  | { t: "h"; level: number; c: Inline[] }
  | { t: "rule" }
  | { t: "code"; language: string; title: string; body: string }
  | { t: "quote"; c: Block[] }
  | { t: "panel"; title: string; c: Block[] }
  | ListBlock
  | { t: "table"; rows: Cell[][] };

interface ListBlock {
  t: "list";
  ordered: boolean;
  items: ListItem[];
}
interface ListItem {
  c: Inline[];
  lists: ListBlock[];
}
interface Cell {
  header: boolean;
  c: Inline[];
}

const STYLES: Record<string, Style> = {
  "*": "strong",
  _: "em",
  "-": "strike",
  "+": "underline",
  "^": "sup",
  "~": "sub",
  "??": "cite",
};

/** Jira's emoticons, as the emoji a reader sees in their place. */
const ICONS: Record<string, string> = {
  ":)": "🙂",
  ":(": "🙁",
  ":P": "😛",
  ":D": "😀",
  ";)": "😉",
  "(y)": "👍",
  "(n)": "👎",
  "(i)": "ℹ️",
  "(/)": "✅",
  "(x)": "❌",
  "(!)": "⚠️",
  "(+)": "➕",
  "(-)": "➖",
  "(?)": "❓",
  "(on)": "💡",
  "(off)": "💡",
  "(*)": "⭐",
  "(*r)": "⭐",
  "(*g)": "⭐",
  "(*b)": "⭐",
  "(*y)": "⭐",
  "(flag)": "🚩",
  "(flagoff)": "🏳️",
};
/** Longest first, so `(flagoff)` is not read as `(flag)` followed by text. */
const ICON_CODES = Object.keys(ICONS).sort((a, b) => b.length - a.length);

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  bsol: "\\",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  copy: "©",
  reg: "®",
  trade: "™",
};

// ---------------------------------------------------------------------------------------------
// Characters

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const isAlnumCode = (c: number): boolean =>
  c < 128
    ? (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
    : c >= 128 && LETTER_OR_DIGIT.test(String.fromCharCode(c));
export const isAlnum = (ch: string | undefined): boolean => ch !== undefined && ch !== "" && isAlnumCode(ch.charCodeAt(0));
export const isSpace = (ch: string | undefined): boolean => {
  if (ch === undefined || ch === "") return false;
  const c = ch.charCodeAt(0);
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a);
};
const isAsciiPunct = (ch: string | undefined): boolean => ch !== undefined && ch !== "" && /[!-/:-@[-`{-~]/.test(ch);

/** Whether the character at `at` is escaped by a backslash (an odd run of them: `\\` is a line break). */
function escapedAt(s: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && s.charCodeAt(i) === 92; i--) n++;
  return n % 2 === 1;
}

/**
 * The first occurrence of `needle` at or after a position, remembered: the scans only move forward,
 * so a later search that starts inside the span already searched answers from the cache. This is
 * what keeps an unmatched `[` or `!` repeated ten thousand times linear.
 */
class Finder {
  private from = -1;
  private at = -1;
  constructor(
    private readonly s: string,
    private readonly needle: string,
  ) {}
  /** The index of the next occurrence at or after `from`, or the string's length if none. */
  next(from: number): number {
    if (this.from !== -1 && from >= this.from && from <= this.at) return this.at;
    const found = this.s.indexOf(this.needle, from);
    this.from = from;
    this.at = found === -1 ? this.s.length : found;
    return this.at;
  }
}

// ---------------------------------------------------------------------------------------------
// Inline: atoms, then delimiter pairing

type Atom =
  | { k: "text"; v: string }
  | { k: "delim"; d: string; open: boolean; close: boolean }
  | { k: "forced"; d: string }
  | { k: "nl" }
  | { k: "node"; node: Inline };

const SCHEMES = ["https://", "http://", "ftp://", "sftp://", "file://", "irc://", "nntp://", "mailto:", "news:"];

/** The length of the URL scheme (`https://`, `mailto:` …) starting at `at`, or 0. */
function schemeAt(s: string, at: number): number {
  const second = s.charCodeAt(at + 1);
  for (const scheme of SCHEMES)
    if (scheme.charCodeAt(1) === second && scheme[0] === s[at] && s.startsWith(scheme, at)) return scheme.length;
  return 0;
}
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const IMAGE_EXTENSION = /\.(?:png|jpe?g|gif|svg|webp|bmp|tiff?)$/i;
const ENTITY = /&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,10});/iy;
const COLOR_OR_ANCHOR = /\{(?:color(?::[#\w]*)?|anchor:[^{}\n]*)\}/y;

/** Where a URL starting at `at` ends, trailing punctuation left out as GFM leaves it out. */
function urlEnd(s: string, at: number): number {
  let end = at;
  let open = 0;
  let close = 0;
  for (; end < s.length && !isSpace(s[end]) && !'|[]<>"{}'.includes(s[end]!); end++) {
    if (s[end] === "(") open++;
    else if (s[end] === ")") close++;
  }
  for (;;) {
    const last = s[end - 1]!;
    if ("?!.,:*_~".includes(last)) end--;
    else if (last === ")" && close > open) {
      end--;
      close--;
    } else return end;
  }
}

/** An image `!src!` / `!src|options!` starting at `at` (the first `!`), or null. */
function imageAt(s: string, at: number, close: number): { node: Inline; end: number } | null {
  const inner = s.slice(at + 1, close);
  if (inner === "" || isSpace(inner[0])) return null;
  const bar = inner.indexOf("|");
  const src = (bar === -1 ? inner : inner.slice(0, bar)).trim();
  if (src === "" || isSpace(inner[bar === -1 ? inner.length - 1 : bar - 1])) return null;
  if (/\s/.test(src) ? !IMAGE_EXTENSION.test(src) : !/[./]/.test(src)) return null;
  let alt = "";
  const options: string[] = [];
  if (bar !== -1) {
    for (const raw of inner.slice(bar + 1).split(",")) {
      const option = raw.trim();
      if (!option) continue;
      const m = /^alt\s*=\s*"?([^"]*)"?$/i.exec(option);
      if (m) alt = m[1]!.trim();
      else options.push(option);
    }
  }
  return { node: { t: "image", src, alt, options: options.join(", ") }, end: close + 1 };
}

/** `[…]` starting at `at` with its `]` at `close`: a link, a mention, an attachment, or null (text). */
function linkAt(s: string, at: number, close: number): Inline | null {
  const content = s.slice(at + 1, close);
  let bar = -1;
  for (let i = 0; i < content.length; i++) {
    if (content[i] === "\\") i++;
    else if (content[i] === "|") {
      bar = i;
      break;
    }
  }
  const alias = bar === -1 ? null : content.slice(0, bar);
  let target = (bar === -1 ? content : content.slice(bar + 1)).trim();
  const tip = target.indexOf("|"); // [alias|url|tip]: the tip is not kept
  if (tip !== -1) target = target.slice(0, tip).trim();
  if (!target) return null;
  const aliasNodes = alias !== null && alias.trim() !== "" ? parseInline(alias.trim(), true) : null;
  if (target[0] === "~") return target.length > 1 ? { t: "mention", user: target.slice(1).trim() } : null;
  if (target[0] === "^") return target.length > 1 ? { t: "attachment", name: target.slice(1).trim(), c: aliasNodes } : null;
  if (target[0] === "#" || SCHEME.test(target) || aliasNodes) return { t: "link", href: target, c: aliasNodes };
  return null; // `[WIP]`: text in brackets, not a link
}

/** Splits paragraph text into atoms. `inLink`: the alias of a link, which holds no link or URL. */
function atomize(s: string, inLink: boolean): Atom[] {
  const atoms: Atom[] = [];
  let text = "";
  const flush = () => {
    if (text) atoms.push({ k: "text", v: text });
    text = "";
  };
  const push = (atom: Atom) => {
    flush();
    atoms.push(atom);
  };
  // Created on first use: most text holds no link, image or monospace.
  let brackets: Finder | undefined;
  let openings: Finder | undefined;
  let bangs: Finder | undefined;
  let braces: Finder | undefined;
  const n = s.length;
  // Where the current line ends, found when first needed (links, images and monospace end on their line).
  let lineEnd = -1;
  const endOfLine = (at: number): number => {
    if (lineEnd < at) {
      lineEnd = s.indexOf("\n", at);
      if (lineEnd === -1) lineEnd = n;
    }
    return lineEnd;
  };
  /** The end of the run of ordinary characters starting at `from`. */
  const runEnd = (from: number): number => {
    let j = from;
    for (; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c >= 128) continue;
      const kind = CHAR_KIND[c];
      if (kind === 1 || (kind === 2 && !inLink && !isAlnumCode(s.charCodeAt(j - 1)) && schemeAt(s, j))) break;
    }
    return j;
  };
  let i = 0;
  while (i < n) {
    const code = s.charCodeAt(i);
    if (code >= 128 || CHAR_KIND[code] === 0) {
      const j = runEnd(i + 1);
      text += s.slice(i, j);
      i = j;
      continue;
    }
    const ch = s[i]!;
    const prev = s[i - 1];
    switch (ch) {
      case "\n":
        push({ k: "nl" });
        i++;
        continue;
      case "\\": {
        const next = s[i + 1];
        if (next === "\\") {
          push({ k: "node", node: { t: "br" } });
          i += 2;
        } else if (isAsciiPunct(next)) {
          text += next;
          i += 2;
        } else {
          text += ch;
          i++;
        }
        continue;
      }
      case "{": {
        if (s[i + 1] === "{") {
          const lineEnd = endOfLine(i);
          let close = (braces ??= new Finder(s, "}}")).next(i + 2);
          while (close < lineEnd && escapedAt(s, close)) close = braces.next(close + 1);
          if (close < lineEnd && close > i + 2) {
            push({ k: "node", node: { t: "code", c: parseInline(s.slice(i + 2, close), inLink) } });
            i = close + 2;
            continue;
          }
          text += "{{";
          i += 2;
          continue;
        }
        const forced = s[i + 1];
        if (forced !== undefined && "*_-+^~".includes(forced) && s[i + 2] === "}") {
          push({ k: "forced", d: forced });
          i += 3;
          continue;
        }
        COLOR_OR_ANCHOR.lastIndex = i;
        if (COLOR_OR_ANCHOR.test(s)) {
          i = COLOR_OR_ANCHOR.lastIndex; // colours and anchors: the text stays, the markup goes
          continue;
        }
        text += ch;
        i++;
        continue;
      }
      case "[": {
        if (!inLink) {
          // Only the innermost `[` before a `]` opens a link: `[[[…]` costs one look at its content, not one per `[`.
          const lineEnd = endOfLine(i);
          let close = (brackets ??= new Finder(s, "]")).next(i + 1);
          let inner = (openings ??= new Finder(s, "[")).next(i + 1);
          while (inner < close && escapedAt(s, inner)) inner = openings.next(inner + 1);
          if (inner > close) while (close < lineEnd && escapedAt(s, close)) close = brackets.next(close + 1);
          if (close < lineEnd && inner > close) {
            const node = linkAt(s, i, close);
            if (node) {
              push({ k: "node", node });
              i = close + 1;
              continue;
            }
          }
        }
        text += ch;
        i++;
        continue;
      }
      case "!": {
        const close = (bangs ??= new Finder(s, "!")).next(i + 1);
        if (close < endOfLine(i)) {
          const image = imageAt(s, i, close);
          if (image) {
            push({ k: "node", node: image.node });
            i = image.end;
            continue;
          }
        }
        text += ch;
        i++;
        continue;
      }
      case "&": {
        ENTITY.lastIndex = i;
        const m = ENTITY.exec(s);
        if (m) {
          const name = m[1]!;
          const code =
            name[0] === "#" ? (name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)) : -1;
          const decoded =
            code > 0 && code < 0x110000 && (code < 0xd800 || code > 0xdfff)
              ? String.fromCodePoint(code)
              : NAMED_ENTITIES[name.toLowerCase()];
          if (decoded !== undefined) {
            text += decoded;
            i += m[0].length;
            continue;
          }
        }
        text += ch;
        i++;
        continue;
      }
      case "(":
      case ":":
      case ";": {
        const icon = iconAt(s, i);
        if (icon) {
          text += ICONS[icon];
          i += icon.length;
          continue;
        }
        text += ch;
        i++;
        continue;
      }
      case "-": {
        if (prev === "-") {
          text += ch;
          i++;
          continue;
        }
        let run = 1;
        while (s[i + run] === "-") run++;
        if (run > 1) {
          // `--` and `---` after no word and before a space are dashes; other runs are text.
          const dash = run <= 3 && !isAlnum(prev) && (i + run === n || s[i + run] === " " || s[i + run] === "\n");
          text += dash ? (run === 2 ? "–" : "—") : s.slice(i, i + run);
          i += run;
          continue;
        }
        push(delimiter(s, i, "-"));
        i++;
        continue;
      }
      case "?": {
        if (s[i + 1] === "?" && prev !== "?" && s[i + 2] !== "?") {
          push(delimiter(s, i, "??"));
          i += 2;
          continue;
        }
        text += ch;
        i++;
        continue;
      }
      case "*":
      case "_":
      case "+":
      case "^":
      case "~":
        push(delimiter(s, i, ch));
        i++;
        continue;
      default: {
        const scheme = !inLink && CHAR_KIND[s.charCodeAt(i)] === 2 && !isAlnum(prev) ? schemeAt(s, i) : 0;
        if (scheme) {
          const end = urlEnd(s, i);
          if (end > i + scheme) {
            push({ k: "node", node: { t: "url", href: s.slice(i, end) } });
            i = end;
            continue;
          }
        }
        const j = runEnd(i + 1);
        text += s.slice(i, j);
        i = j;
      }
    }
  }
  flush();
  return atoms;
}

/** 1: a character with a meaning of its own; 2: a letter that may start a URL. */
const CHAR_KIND = new Uint8Array(128);
for (const ch of "\n\\{[!&(:;-?*_+^~") CHAR_KIND[ch.charCodeAt(0)] = 1;
for (const ch of "hfsimn") CHAR_KIND[ch.charCodeAt(0)] = 2;

function iconAt(s: string, at: number): string | null {
  const next = s[at + 1];
  if (next === undefined) return null;
  if (s[at] !== "(") {
    const code = s[at] + next;
    if (!(code in ICONS)) return null;
    return (next === "P" || next === "D") && isAlnum(s[at + 2]) ? null : code;
  }
  if (!"ynix/!+-?o*f".includes(next)) return null;
  for (const code of ICON_CODES) if (code[0] === "(" && s.startsWith(code, at)) return code;
  return null;
}

/** A delimiter and whether it can open (no letter before, no space after) or close (the reverse). */
function delimiter(s: string, at: number, d: string): Atom {
  const before = s[at - 1];
  const after = s[at + d.length];
  return {
    k: "delim",
    d,
    open: !isAlnum(before) && after !== undefined && !isSpace(after),
    close: before !== undefined && !isSpace(before) && !isAlnum(after),
  };
}

/** Pairs delimiters (same line, the first possible closer wins) into styled nodes. */
function pair(atoms: Atom[]): Inline[] {
  if (!atoms.some((a) => a.k === "delim" || a.k === "forced"))
    return atoms.map((a): Inline => (a.k === "text" ? { t: "text", v: a.v } : a.k === "nl" ? { t: "nl" } : (a as { node: Inline }).node));
  // Per delimiter: the last search's start and its answer (an index, or -1 up to `limit`).
  const cache = new Map<string, { from: number; at: number; limit: number }>();
  const closer = (d: string, forced: boolean, from: number): number => {
    const key = forced ? `{${d}}` : d;
    const c = cache.get(key);
    if (c && from >= c.from && from <= (c.at === -1 ? c.limit : c.at)) return c.at;
    let k = from;
    for (; k < atoms.length; k++) {
      const a = atoms[k]!;
      if (a.k === "nl") break;
      if (forced ? a.k === "forced" && a.d === d : a.k === "delim" && a.d === d && a.close) {
        cache.set(key, { from, at: k, limit: k });
        return k;
      }
    }
    cache.set(key, { from, at: -1, limit: k });
    return -1;
  };
  const build = (from: number, to: number): Inline[] => {
    const out: Inline[] = [];
    const text = (v: string) => {
      const last = out[out.length - 1];
      if (last?.t === "text") last.v += v;
      else out.push({ t: "text", v });
    };
    for (let i = from; i < to; i++) {
      const a = atoms[i]!;
      if (a.k === "text") text(a.v);
      else if (a.k === "nl") out.push({ t: "nl" });
      else if (a.k === "node") out.push(a.node);
      else {
        const forced = a.k === "forced";
        if (forced || a.open) {
          const j = closer(a.d, forced, i + (forced ? 1 : 2));
          if (j !== -1 && j < to && j > i + 1) {
            out.push({ t: "style", style: STYLES[a.d]!, c: build(i + 1, j) });
            i = j;
            continue;
          }
        }
        text(forced ? `{${a.d}}` : a.d);
      }
    }
    return out;
  };
  return build(0, atoms.length);
}

function parseInline(s: string, inLink = false): Inline[] {
  // Plain text (most table cells, most list items) needs no atoms.
  let plain = true;
  for (let i = 0; i < s.length && plain; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && (CHAR_KIND[c] === 1 || (CHAR_KIND[c] === 2 && !inLink && !isAlnumCode(s.charCodeAt(i - 1)) && schemeAt(s, i))))
      plain = false;
  }
  if (plain) return s ? [{ t: "text", v: s }] : [];
  return pair(atomize(s, inLink));
}

// ---------------------------------------------------------------------------------------------
// Blocks

const HEADING = /^h([1-6])\.(?:\s+|$)/;
const QUOTE_LINE = /^bq\.(?:\s+|$)/;
const LIST_ITEM = /^([*#]+|-)\s+/;
const BLOCK_TAG = /\{(code|noformat|quote|panel)(?::([^{}\n]*))?\}/y;
/** Deeper list levels are read as the deepest: each level costs Markdown indentation. */
const MAX_LIST_DEPTH = 10;
const MAX_BLOCK_DEPTH = 8;

const isBlockStart = (t: string): boolean => {
  switch (t[0]) {
    case "h":
      return HEADING.test(t);
    case "b":
      return QUOTE_LINE.test(t);
    case "-":
    case "*":
    case "#":
      return t === "----" || LIST_ITEM.test(t);
    case "|":
      return true;
    default:
      return false;
  }
};

const params = (raw: string | undefined): Map<string, string> => {
  const map = new Map<string, string>();
  for (const part of (raw ?? "").split("|")) {
    const eq = part.indexOf("=");
    if (eq === -1) {
      if (part.trim()) map.set("", part.trim());
    } else map.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return map;
};

/**
 * Blocks of `s` from `from` to `to`: the bodied macros are found first, wherever they stand (Jira
 * reads `{quote}a quote{quote}` inside a line too), and the text between them is read by lines.
 * A macro that is never closed runs to the end, as macros.ts does for Confluence.
 */
function parseBlocks(
  s: string,
  from: number,
  to: number,
  depth: number,
  closings: Map<string, Finder> = new Map(),
  out: Block[] = [],
): Block[] {
  let segment = from;
  let i = from;
  for (;;) {
    const k = s.indexOf("{", i);
    if (k === -1 || k >= to) break;
    i = k + 1;
    if (s[k - 1] === "{" || escapedAt(s, k)) continue;
    BLOCK_TAG.lastIndex = k;
    const tag = BLOCK_TAG.exec(s);
    if (!tag || BLOCK_TAG.lastIndex > to) continue;
    const name = tag[1]!;
    if ((name === "quote" || name === "panel") && depth >= MAX_BLOCK_DEPTH) continue;
    lineBlocks(s.slice(segment, k), out);
    const start = BLOCK_TAG.lastIndex;
    const closing = `{${name}}`;
    // One finder per end tag: a search never scans again what an earlier one scanned.
    let finder = closings.get(closing);
    if (!finder) closings.set(closing, (finder = new Finder(s, closing)));
    let end = finder.next(start);
    while (end < to && name !== "code" && name !== "noformat" && escapedAt(s, end)) end = finder.next(end + 1);
    if (end + closing.length > to) end = to;
    if (name === "code" || name === "noformat") {
      const p = params(tag[2]);
      const body = s
        .slice(start, end)
        .replace(/^[ \t]*\n/, "")
        .replace(/\n[ \t]*$/, "")
        .replace(/\{\u200b(code|noformat)\}/g, "{$1}");
      out.push({
        t: "code",
        language: name === "code" ? (p.get("language") ?? p.get("") ?? "") : "",
        title: name === "code" ? (p.get("title") ?? "") : "",
        body,
      });
    } else if (name === "quote") {
      out.push({ t: "quote", c: parseBlocks(s, start, end, depth + 1, closings) });
    } else {
      out.push({ t: "panel", title: params(tag[2]).get("title") ?? "", c: parseBlocks(s, start, end, depth + 1, closings) });
    }
    segment = i = Math.min(to, end + closing.length);
  }
  lineBlocks(s.slice(segment, to), out);
  return out;
}

/** Headings, lists, tables, rules, one-line quotes and paragraphs, line by line. */
function lineBlocks(text: string, out: Block[]): void {
  if (!text.trim()) return;
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const t = lines[i]!.trim();
    if (!t) {
      i++;
      continue;
    }
    const start = isBlockStart(t);
    let m: RegExpExecArray | null;
    if (!start) {
      const para: string[] = [t];
      for (i++; i < lines.length; i++) {
        const line = lines[i]!.trim();
        if (!line || isBlockStart(line)) break;
        para.push(line);
      }
      out.push({ t: "p", c: parseInline(para.join("\n")) });
    } else if ((m = HEADING.exec(t))) {
      out.push({ t: "h", level: Number(m[1]), c: parseInline(t.slice(m[0].length)) });
      i++;
    } else if ((m = QUOTE_LINE.exec(t))) {
      out.push({ t: "quote", c: [{ t: "p", c: parseInline(t.slice(m[0].length)) }] });
      i++;
    } else if (t === "----") {
      out.push({ t: "rule" });
      i++;
    } else if (LIST_ITEM.test(t)) {
      const items: { markers: string; text: string }[] = [];
      for (; i < lines.length; i++) {
        const line = lines[i]!.trim();
        if (!line) break;
        const item = LIST_ITEM.exec(line);
        if (item) items.push({ markers: item[1]!, text: line.slice(item[0].length) });
        else if (isBlockStart(line)) break;
        else items[items.length - 1]!.text += `\n${line}`; // a line of the item above
      }
      for (const list of listTree(items)) out.push(list);
    } else {
      const rows: Cell[][] = [];
      for (; i < lines.length;) {
        let row = lines[i]!.trim();
        if (row[0] !== "|") break;
        i++;
        // A row not closed by `|` goes on in the next lines (a cell of several lines).
        while ((row[row.length - 1] !== "|" || escapedAt(row, row.length - 1)) && i < lines.length) {
          const next = lines[i]!.trim();
          if (!next || isBlockStart(next)) break;
          row += `\n${next}`;
          i++;
        }
        rows.push(cells(row));
      }
      out.push({ t: "table", rows });
    }
  }
}

/** Nested lists from wiki markers: `#*` is a bullet list inside a numbered one. */
function listTree(items: { markers: string; text: string }[]): ListBlock[] {
  const roots: ListBlock[] = [];
  const stack: { type: string; list: ListBlock }[] = [];
  for (const item of items) {
    const types = (item.markers === "-" ? "*" : item.markers).slice(0, MAX_LIST_DEPTH);
    let k = 0;
    while (k < stack.length && k < types.length && stack[k]!.type === types[k]) k++;
    if (k >= types.length) stack.length = types.length;
    else {
      stack.length = k;
      for (let level = k; level < types.length; level++) {
        const list: ListBlock = { t: "list", ordered: types[level] === "#", items: [] };
        if (level === 0) roots.push(list);
        else {
          const parent = stack[level - 1]!.list;
          if (parent.items.length === 0) parent.items.push({ c: [], lists: [] });
          parent.items[parent.items.length - 1]!.lists.push(list);
        }
        stack.push({ type: types[level]!, list });
      }
    }
    stack[types.length - 1]!.list.items.push({ c: parseInline(item.text), lists: [] });
  }
  return roots;
}

/** The cells of a table row; a `|` inside a link, an image, monospace or after `\` is no border. */
function cells(row: string): Cell[] {
  const out: Cell[] = [];
  let brackets: Finder | undefined;
  let braces: Finder | undefined;
  let bangs: Finder | undefined;
  let newlines: Finder | undefined;
  let p = 0;
  while (p < row.length) {
    const header = row[p + 1] === "|";
    p += header ? 2 : 1;
    const start = p;
    while (p < row.length && row[p] !== "|") {
      const ch = row[p];
      if (ch === "\\") p += 2;
      else if (ch === "[") {
        const close = (brackets ??= new Finder(row, "]")).next(p + 1);
        p = close < (newlines ??= new Finder(row, "\n")).next(p) ? close + 1 : p + 1;
      } else if (ch === "{" && row[p + 1] === "{") {
        const close = (braces ??= new Finder(row, "}}")).next(p + 2);
        p = close < row.length ? close + 2 : p + 2;
      } else if (ch === "!") {
        const close = (bangs ??= new Finder(row, "!")).next(p + 1);
        p = close < row.length && imageAt(row, p, close) ? close + 1 : p + 1;
      } else p++;
    }
    const content = row.slice(start, Math.min(p, row.length)).trim();
    if (p >= row.length && content === "") break;
    out.push({ header, c: parseInline(content) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Markdown

const MD_SPECIAL = new Uint8Array(128);
for (const ch of "\\`*[]~|_<&") MD_SPECIAL[ch.charCodeAt(0)] = 1;

/** Literal text, escaped so Markdown reads it as text. */
function mdText(v: string): string {
  let plain = true;
  for (let i = 0; i < v.length && plain; i++) {
    const c = v.charCodeAt(i);
    if (c < 128 && MD_SPECIAL[c]) plain = false;
  }
  if (plain) return v;
  let out = "";
  for (let i = 0; i < v.length; i++) {
    const ch = v[i]!;
    switch (ch) {
      case "\\":
      case "`":
      case "*":
      case "[":
      case "]":
      case "~":
      case "|":
        out += `\\${ch}`;
        break;
      case "_":
        out += isAlnum(v[i - 1]) && isAlnum(v[i + 1]) ? ch : "\\_";
        break;
      case "<":
        out += /[A-Za-z/!?]/.test(v[i + 1] ?? "") ? "\\<" : ch;
        break;
      case "&":
        ENTITY.lastIndex = i;
        out += ENTITY.test(v) ? "\\&" : ch;
        break;
      default:
        out += ch;
    }
  }
  return out;
}

/** What a line must not start with in Markdown: a heading, quote, list, rule or setext underline. */
function escapeLineStart(line: string): string {
  const t = line.trimStart();
  if (!"#>-+=0123456789".includes(t[0] ?? "x")) return t;
  if (/^(?:#{1,6}(?:\s|$)|>|[-+](?:\s|$)|=+\s*$|-+\s*$)/.test(t)) return `\\${t}`;
  const numbered = /^(\d{1,9})([.)])(\s|$)/.exec(t);
  return numbered ? `${numbered[1]}\\${t.slice(numbered[1]!.length)}` : t;
}

const plain = (nodes: Inline[]): string =>
  nodes
    .map((n) => {
      switch (n.t) {
        case "text":
          return n.v;
        case "style":
        case "code":
          return plain(n.c);
        case "link":
          return n.c ? plain(n.c) : n.href;
        case "url":
          return n.href;
        case "attachment":
          return n.c ? plain(n.c) : n.name;
        case "mention":
          return `@${n.user}`;
        case "image":
          return n.alt || n.src;
        default:
          return " ";
      }
    })
    .join("");

function codeSpan(text: string, table: boolean): string {
  const v = text.replace(/\s*\n\s*/g, " ");
  if (!v) return "";
  let longest = 0;
  for (const m of v.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = "`".repeat(longest + 1);
  const pad = v[0] === "`" || v[v.length - 1] === "`" || (v[0] === " " && v[v.length - 1] === " " && v.trim() !== "") ? " " : "";
  const body = table ? v.replace(/\|/g, "\\|") : v;
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A link destination, in angle brackets when it holds spaces or parentheses. */
const destination = (href: string): string =>
  /[\s()<>]/.test(href) ? `<${href.replace(/</g, "%3C").replace(/>/g, "%3E").replace(/\n/g, " ")}>` : href;

const TAGS: Partial<Record<Style, string>> = { underline: "u", sup: "sup", sub: "sub", cite: "cite" };

function styled(style: Style, inner: string, before: string | undefined, after: string | undefined): string {
  const core = inner.trim();
  if (!core) return inner;
  const lead = inner.slice(0, inner.length - inner.trimStart().length);
  const trail = inner.slice(inner.trimEnd().length);
  let wrapped: string;
  if (style === "strong") wrapped = `**${core}**`;
  else if (style === "em") {
    const d = isAlnum(lead ? " " : before) || isAlnum(trail ? " " : after) ? "*" : "_";
    wrapped = `${d}${core}${d}`;
  } else if (style === "strike") wrapped = `~~${core}~~`;
  else wrapped = `<${TAGS[style]!}>${core}</${TAGS[style]!}>`;
  return lead + wrapped + trail;
}

function firstChar(node: Inline | undefined): string | undefined {
  if (!node) return undefined;
  if (node.t === "text") return node.v[0];
  if (node.t === "style") return firstChar(node.c[0]);
  return "[";
}

/** Inline nodes as Markdown. `table`: inside a table cell, where a break is `<br>`. */
function md(nodes: Inline[], table: boolean): string {
  // The last character kept aside: reading the end of a string being built with += flattens it.
  let out = "";
  let last: string | undefined;
  const add = (part: string) => {
    if (!part) return;
    out += part;
    last = part[part.length - 1];
  };
  for (let k = 0; k < nodes.length; k++) {
    const n = nodes[k]!;
    switch (n.t) {
      case "text":
        add(mdText(n.v));
        break;
      case "style":
        add(styled(n.style, md(n.c, table), last, firstChar(nodes[k + 1])));
        break;
      case "code":
        add(codeSpan(plain(n.c), table));
        break;
      case "link": {
        const text = n.c ? md(n.c, table) : "";
        if (text) add(`[${text}](${destination(n.href)})`);
        else if (SCHEME.test(n.href) && !/[\s<>]/.test(n.href)) add(`<${n.href}>`);
        else add(`[${mdText(n.href)}](${destination(n.href)})`);
        break;
      }
      case "url": {
        // Bare where GFM finds the same URL again; in angle brackets where it would not.
        const before = last;
        const next = nodes[k + 1];
        const after = next?.t === "text" ? next.v : next?.t === "nl" || next?.t === "br" ? " " : next ? "x" : "";
        const bare =
          (before === undefined || isSpace(before) || before === "(") &&
          !n.href.startsWith("mailto:") &&
          (after === "" || isSpace(after[0]) || (".,:;!?)".includes(after[0]!) && (after.length === 1 || isSpace(after[1]))));
        add(bare ? n.href : `<${n.href}>`);
        break;
      }
      case "attachment":
        add(`[${n.c ? md(n.c, table) : mdText(n.name)}](${destination(`attachment:${n.name}`)})`);
        break;
      case "mention":
        add(`@[${n.user}]`);
        break;
      case "image":
        add(`![${mdText(n.alt)}](${destination(n.src)}${n.options ? ` "${n.options.replace(/["\\]/g, "\\$&")}"` : ""})`);
        break;
      case "br":
        add(table ? "<br>" : k === nodes.length - 1 ? "" : "\\\n");
        break;
      case "nl":
        add(table ? "<br>" : "\n");
        break;
    }
  }
  return out;
}

/** A paragraph's Markdown: breaks at its ends dropped, each line safe from block syntax. */
function paragraph(nodes: Inline[]): string {
  let from = 0;
  let to = nodes.length;
  while (from < to && (nodes[from]!.t === "nl" || nodes[from]!.t === "br")) from++;
  while (to > from && (nodes[to - 1]!.t === "nl" || nodes[to - 1]!.t === "br")) to--;
  const text = md(from === 0 && to === nodes.length ? nodes : nodes.slice(from, to), false);
  if (!text.includes("\n")) return escapeLineStart(text).trim();
  return text
    .split("\n")
    .map((line) => escapeLineStart(line).trimEnd())
    .join("\n")
    .trim();
}

const prefixLines = (text: string, prefix: string): string =>
  text
    .split("\n")
    .map((line) => (line ? prefix + line : prefix.trimEnd()))
    .join("\n");

function list(block: ListBlock, indent: string): string {
  return block.items
    .map((item, i) => {
      const marker = block.ordered ? `${i + 1}.` : "-";
      const inner = indent + " ".repeat(marker.length + 1);
      const [first, ...rest] = paragraph(item.c).split("\n");
      const lines = [first ? `${indent}${marker} ${first}` : `${indent}${marker}`, ...rest.map((l) => inner + l)];
      for (const child of item.lists) lines.push(list(child, inner));
      return lines.join("\n");
    })
    .join("\n");
}

/** Body rows are padded to the table's width up to this many columns (GFM pads shorter rows itself). */
const MAX_PADDED_WIDTH = 64;

function table(rows: Cell[][]): string {
  let width = 0;
  for (const r of rows) width = Math.max(width, r.length);
  if (width === 0) return "";
  const hasHeader = rows[0]!.length > 0 && rows[0]!.every((c) => c.header);
  const line = (cells: Cell[] | null, inHeader: boolean): string => {
    let out = "|";
    const n = inHeader || width <= MAX_PADDED_WIDTH ? width : Math.max(1, cells?.length ?? 0);
    for (let i = 0; i < n; i++) {
      const c = cells?.[i];
      const v = c ? md(c.c, true).trim() : "";
      out += ` ${c?.header && !inHeader && v ? `**${v}**` : v} |`;
    }
    return out;
  };
  const out = [line(hasHeader ? rows[0]! : null, true), `|${" --- |".repeat(width)}`];
  for (let r = hasHeader ? 1 : 0; r < rows.length; r++) out.push(line(rows[r]!, false));
  return out.join("\n");
}

function fence(body: string, info: string): string {
  let longest = 0;
  for (const m of body.matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, m[1]!.length);
  const f = "`".repeat(Math.max(3, longest + 1));
  return `${f}${info}\n${body}\n${f}`;
}

function block(b: Block): string {
  switch (b.t) {
    case "p":
      return paragraph(b.c);
    case "h": {
      const text = md(b.c, false)
        .replace(/\s*\n\s*/g, " ")
        .trim()
        .replace(/(^|\s)(#+)$/, "$1\\$2");
      return `${"#".repeat(b.level)}${text ? ` ${text}` : ""}`;
    }
    case "rule":
      return "---";
    case "code": {
      const language = /^[\w#+.-]+$/.test(b.language) ? b.language : "";
      const title = b.title ? `${language ? " " : ""}title="${b.title.replace(/"/g, "'")}"` : "";
      return fence(b.body, language + title);
    }
    case "quote": {
      const body = blocks(b.c);
      return body ? prefixLines(body, "> ") : "";
    }
    case "panel": {
      const label = `**${mdText(b.title.trim() || "panel")}:**`;
      const body = b.c.map((c) => ({ c, md: block(c) })).filter((r) => r.md.trim() !== "");
      const [first, ...rest] = body;
      const head = !first ? label : first.c.t === "p" ? `${label} ${first.md}` : `${label}\n\n${first.md}`;
      return prefixLines([head, ...rest.map((r) => r.md)].join("\n\n"), "> ");
    }
    case "list":
      return list(b, "");
    case "table":
      return table(b.rows);
  }
}

const blocks = (list: Block[]): string =>
  list
    .map(block)
    .filter((s) => s.trim() !== "")
    .join("\n\n");

/** Markdown for Jira DC wiki markup (a v2 description or comment body). */
export function wikiToMarkdown(wiki: string): string {
  if (typeof wiki !== "string" || wiki === "") return "";
  const source = wiki.replace(/\r\n?/g, "\n");
  return blocks(parseBlocks(source, 0, source.length, 0)).trim();
}
