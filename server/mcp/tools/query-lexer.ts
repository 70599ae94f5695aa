import { ToolError } from "./tool";

/**
 * JQL and CQL read the way Jira and Confluence read them, so that a client's query can be held to
 * its allow-list (policy.ts) with proof instead of hope: the query is cut into tokens, refused when
 * any character's meaning is in doubt, and the query sent upstream is written back from those
 * tokens (every string quoted and escaped by us), then read again to check it says the same.
 *
 * JQL, as Jira's lexer reads it (Atlassian's JQL grammar JQLLexer.g4 of @atlaskit/jql-parser,
 * atlassian-frontend jql/jql-parser, whose character sets are "synchronised with
 * JqlStringSupportImpl"; Jira's com.atlassian.jira.jql.util.JqlStringSupportImpl: decode, isJqlControl):
 * - whitespace is space, \t, \r and \n;
 * - a string is quoted ("..." or '...': any character but its quote, a backslash or a control
 *   character) or unquoted (STRING : (ESCAPE | VALID_UNQUOTED_CHARS)+), and the escapes are the
 *   same in both: ESCAPE : '\\' ('t' | 'n' | 'r' | '"' | '\'' | '\\' | ' ' | 'u' HEX HEX HEX HEX).
 *   So `a\"` outside quotes is the word a", and `\` before anything else is an error;
 * - unquoted strings exclude = ! < > ( ) ~ , [ ] | & " ' and the reserved characters
 *   { } * / % + ^ $ # @ ? ; (the grammar's RESERVED_CHARS: an error outside quotes);
 * - control characters (U+0000-0009, 000B-000C, 000E-001F, 007F-009F, FDD0-FDEF, FFFE-FFFF,
 *   isJqlControl) are allowed in no string; \t, \n and \r are whitespace outside quotes, and a
 *   raw \n or \r may stand inside quotes;
 * - keywords (AND, OR, NOT, ORDER, BY ...) are unquoted words without escapes; JQL has no comments.
 *
 * CQL (developer.atlassian.com/cloud/confluence/advanced-searching-using-cql: "Reserved
 * characters", surround them with quote-marks, single or double; cql-operators: `title =
 * "\"Advanced Searching\""`) documents less, so less is accepted: quoted strings with the escapes
 * \" \' and \\ only (and no value whose \\ would be written back before a quote mark), no
 * backslash outside quotes, none of the reserved characters + ; ? | * / % ^ $ # @ [ ] { } & !
 * outside quotes (but in != and !~), no control characters anywhere.
 *
 * In both, anything else in doubt is refused rather than guessed: other Unicode spaces and
 * invisible (format) characters outside quotes, `--` outside quotes, lone surrogates.
 */

export type QueryLanguage = "JQL" | "CQL";

export interface QueryToken {
  /** word: unquoted, without escapes (keywords, fields, values); string: quoted, or (JQL) unquoted with escapes; op: operators and ( ) , [ ]. */
  kind: "word" | "string" | "op";
  /** The word or operator as written; a string's value with its escapes undone. */
  value: string;
  /** Whitespace came before it in the query (kept, as one space, when the query is written back). */
  spaced: boolean;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const OPERATORS: Record<QueryLanguage, string[]> = {
  JQL: ["!=", "!~", "<=", ">=", "&&", "||", "=", "~", "<", ">", "!", "&", "|", "(", ")", ",", "[", "]"],
  CQL: ["!=", "!~", "<=", ">=", "=", "~", "<", ">", "(", ")", ","],
};
const RESERVED: Record<QueryLanguage, string> = { JQL: "{}*/%+^$#@?;", CQL: "{}*/%+^$#@?;[]|&!" };
const JQL_ESCAPES: Record<string, string> = { t: "\t", n: "\n", r: "\r", '"': '"', "'": "'", "\\": "\\", " ": " " };
const CQL_ESCAPES: Record<string, string> = { '"': '"', "'": "'", "\\": "\\" };

/** JqlStringSupportImpl.isJqlControl. */
const isJqlControl = (code: number) =>
  code <= 0x09 ||
  code === 0x0b ||
  code === 0x0c ||
  (code >= 0x0e && code <= 0x1f) ||
  (code >= 0x7f && code <= 0x9f) ||
  (code >= 0xfdd0 && code <= 0xfdef) ||
  code >= 0xfffe;
/** Spaces other than " " and invisible characters: whitespace to some readers, a word's letters to others. */
const isInvisible = (c: string) => /[\p{Z}\p{Cf}]/u.test(c) && c !== " ";

const at = (i: number) => `character ${i + 1}`;
const codeOf = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
const unbalanced = (what: string) =>
  new ToolError(`The query's quotes or parentheses do not balance (${what}). Fix the query and try again.`);

/** The escape at `query[i]` (a backslash): its character and length, or a refusal. */
function escapeAt(query: string, i: number, language: QueryLanguage): [string, number] {
  const next = query[i + 1];
  const simple = language === "JQL" ? JQL_ESCAPES : CQL_ESCAPES;
  if (next !== undefined && Object.hasOwn(simple, next)) return [simple[next]!, 2];
  if (language === "JQL" && next === "u") {
    const hex = /^[0-9a-fA-F]{4}/.exec(query.slice(i + 2, i + 6))?.[0];
    const code = hex === undefined ? NaN : parseInt(hex, 16);
    // A \u escape of half a surrogate pair could not be written back as it was read.
    if (!Number.isNaN(code) && (code < 0xd800 || code > 0xdfff)) return [String.fromCharCode(code), 6];
  }
  const shown = next === undefined ? "a backslash at the end" : `'\\${query.slice(i + 1, next === "u" ? i + 6 : i + 2)}' at ${at(i)}`;
  const allowed = language === "JQL" ? "\\t, \\n, \\r, \\\", \\', \\\\, \\<space> and \\uXXXX" : "\\\", \\' and \\\\ (inside quotes)";
  throw new ToolError(
    `The ${language} has an escape ${language === "JQL" ? "Jira" : "Bridgekeeper"} does not accept (${shown}): the escapes are ${allowed}. Fix the query and try again.`,
  );
}

function refuseCharacter(c: string, i: number, language: QueryLanguage, quoted: boolean): never {
  if (!quoted && RESERVED[language].includes(c))
    throw new ToolError(
      `The ${language} has the reserved character '${c}' outside quotes (${at(i)}). Put it inside a quoted string ("...") and try again.`,
    );
  throw new ToolError(
    `The ${language} has a control or invisible character (${codeOf(c)}) at ${at(i)}. Remove it (use plain spaces) and try again.`,
  );
}

/** The query's tokens, or a ToolError that says what is wrong and where. */
export function tokenize(query: string, language: QueryLanguage): QueryToken[] {
  // A lone surrogate is category Cs to a `u` regular expression; a pair is one code point.
  if (!query.isWellFormed())
    throw new ToolError(`The ${language} has a broken Unicode character (a lone surrogate). Remove it and try again.`);
  const operators = OPERATORS[language];
  const tokens: QueryToken[] = [];
  let spaced = false;
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (WHITESPACE.has(c)) {
      spaced = true;
      i++;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'") {
      let value = "";
      i++;
      for (;;) {
        const d = query[i];
        if (d === undefined) throw unbalanced(`the quote at ${at(start)} is never closed`);
        if (d === c) break;
        if (d === "\\") {
          const [char, length] = escapeAt(query, i, language);
          value += char;
          i += length;
          continue;
        }
        const code = d.charCodeAt(0);
        // Jira allows a raw \n or \r inside quotes; Confluence's rule is not written down.
        if (isJqlControl(code) || (language === "CQL" && (d === "\n" || d === "\r"))) refuseCharacter(d, i, language, true);
        value += d;
        i++;
      }
      i++;
      // Written back, such a value holds \\ before a quote mark, the one place where how Confluence
      // reads \\ (its documentation shows \" only) would move the end of the string.
      if (language === "CQL" && /\\(?="|$)/.test(value))
        throw new ToolError(
          `The CQL has a string ending in a backslash, or with one before a quote mark (the string at ${at(start)}); Bridgekeeper cannot be sure where Confluence ends it. Rewrite the value and try again.`,
        );
      tokens.push({ kind: "string", value, spaced });
    } else {
      const op = operators.find((o) => query.startsWith(o, i));
      if (op) {
        i += op.length;
        tokens.push({ kind: "op", value: op, spaced });
      } else {
        let value = "";
        let escaped = false;
        while (i < query.length) {
          const d = query[i]!;
          if (WHITESPACE.has(d) || d === '"' || d === "'" || operators.some((o) => query.startsWith(o, i))) break;
          if (RESERVED[language].includes(d)) refuseCharacter(d, i, language, false);
          if (d === "\\") {
            if (language === "CQL")
              throw new ToolError(
                `The CQL has a backslash outside a quoted string (${at(i)}); Bridgekeeper cannot tell how Confluence reads it there. Put the value in quotes ("a\\"b") and try again.`,
              );
            const [char, length] = escapeAt(query, i, language);
            value += char;
            i += length;
            escaped = true;
            continue;
          }
          if (isJqlControl(d.charCodeAt(0)) || isInvisible(d)) refuseCharacter(d, i, language, false);
          if (d === "-" && query[i + 1] === "-")
            throw new ToolError(`The ${language} has '--' outside quotes (${at(i)}). Put the value in quotes and try again.`);
          value += d;
          i++;
        }
        // A word stops only at whitespace, a quote or an operator, which the loop above has taken.
        if (i === start) throw new Error(`query-lexer: no token at ${at(i)}`);
        // Jira reads an unquoted string with an escape as a string, never as a keyword.
        tokens.push({ kind: escaped ? "string" : "word", value, spaced });
      }
    }
    spaced = false;
  }
  return tokens;
}

/** A string value as a double-quoted JQL or CQL string: \" and \\ always, and (JQL) \t \n \r and \uXXXX for control characters. */
export function quote(value: string): string {
  let out = '"';
  for (const c of value) {
    if (c === '"' || c === "\\") out += `\\${c}`;
    else if (c === "\t") out += "\\t";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c.length === 1 && isJqlControl(c.charCodeAt(0))) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    else out += c;
  }
  return `${out}"`;
}

/** Tokens written back as a query: words and operators as they were, strings quoted by us, one space where there was whitespace. */
export function emit(tokens: readonly QueryToken[]): string {
  return tokens.map((t, n) => `${n > 0 && t.spaced ? " " : ""}${t.kind === "string" ? quote(t.value) : t.value}`).join("");
}

const isWord = (t: QueryToken | undefined, word: string) => t?.kind === "word" && t.value.toLowerCase() === word;

/**
 * A query's condition and its top-level ORDER BY (the unquoted words ORDER BY outside every
 * parenthesis), refused when its parentheses do not balance or something other than sort keys
 * follows ORDER BY: either could reach past the clause the condition is wrapped in.
 */
export function splitQuery(query: string, language: QueryLanguage): { where: QueryToken[]; orderBy: QueryToken[] } {
  const tokens = tokenize(query, language);
  let depth = 0;
  let cut = tokens.length;
  for (let n = 0; n < tokens.length; n++) {
    const t = tokens[n]!;
    if (t.kind === "op" && t.value === "(") depth++;
    else if (t.kind === "op" && t.value === ")") {
      if (depth === 0) throw unbalanced("a closing parenthesis without its opening one");
      depth--;
    } else if (depth === 0 && isWord(t, "order") && isWord(tokens[n + 1], "by")) {
      cut = n;
      break;
    }
  }
  if (depth !== 0) throw unbalanced("a parenthesis left open");
  const orderBy = tokens.slice(cut);
  const sortKeys = orderBy.slice(2);
  const stray = sortKeys.find(
    (t) =>
      (t.kind === "op" && ![",", "[", "]"].includes(t.value)) ||
      (t.kind === "word" && ["and", "or", "not", "order"].includes(t.value.toLowerCase())),
  );
  if (stray || (orderBy.length > 0 && sortKeys.length === 0)) {
    throw new ToolError(
      `Only field names, ASC or DESC and commas may follow ORDER BY${stray ? ` (found '${stray.value}')` : ""}. Fix the query and try again.`,
    );
  }
  return { where: tokens.slice(0, cut), orderBy };
}

/** Whether two token lists say the same (kinds and values; spacing aside). */
export const sameTokens = (a: readonly QueryToken[], b: readonly QueryToken[]): boolean =>
  a.length === b.length && a.every((t, n) => t.kind === b[n]!.kind && t.value === b[n]!.value);
