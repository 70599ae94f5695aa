/**
 * A JQL subset: clauses `field op operand` joined by AND/OR/NOT and parentheses, then an optional
 * ORDER BY. Errors read like Jira's ("Error in the JQL Query: ... (line 1, character N)").
 */

export class JqlError extends Error {}

export type Operator = "=" | "!=" | "~" | "!~" | "<" | ">" | "<=" | ">=" | "in" | "not in" | "is" | "is not";

export type Operand =
  | { kind: "value"; value: string; quoted: boolean }
  | { kind: "list"; items: Operand[] }
  | { kind: "func"; name: string; args: string[] }
  | { kind: "empty" };

export type JqlNode =
  | { kind: "and" | "or"; items: JqlNode[] }
  | { kind: "not"; item: JqlNode }
  | { kind: "clause"; field: string; op: Operator; operand: Operand };

export interface SortKey {
  field: string;
  dir: "ASC" | "DESC";
}

export interface JqlQuery {
  where: JqlNode | null;
  orderBy: SortKey[];
}

interface Token {
  type: "word" | "string" | "op" | "(" | ")" | "," | "eof";
  value: string;
  pos: number;
}

const OPERATORS = ["!=", "!~", "<=", ">=", "&&", "||", "=", "~", "<", ">", "!"];
const VALID_OPERATORS = "The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'.";
const where = (t: Token) => `(line 1, character ${t.pos + 1})`;
const shown = (t: Token) => (t.type === "eof" ? "EOF" : t.value);

/**
 * The escape at `input[i]` (a backslash) as [character, length]. Jira's JQL lexer takes the same
 * escapes inside and outside quotes: \t \n \r \" \' \\ "\ " and \uXXXX; any other is an error.
 */
function escapeAt(input: string, i: number): [string, number] {
  const next = input[i + 1];
  const simple: Record<string, string> = { t: "\t", n: "\n", r: "\r", '"': '"', "'": "'", "\\": "\\", " ": " " };
  if (next !== undefined && next in simple) return [simple[next]!, 2];
  const hex = next === "u" ? /^[0-9a-fA-F]{4}/.exec(input.slice(i + 2))?.[0] : undefined;
  if (hex) return [String.fromCharCode(parseInt(hex, 16)), 6];
  throw new JqlError(
    `Error in the JQL Query: '\\${next ?? ""}' is an illegal JQL escape sequence. The valid escape sequences are \\', \\", \\t, \\n, \\r, \\\\, '\\ ' and \\uXXXX. (line 1, character ${i + 1})`,
  );
}

function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "(" || c === ")" || c === ",") {
      tokens.push({ type: c, value: c, pos: i++ });
      continue;
    }
    if (c === '"' || c === "'") {
      const start = i++;
      let value = "";
      while (i < input.length && input[i] !== c) {
        if (input[i] === "\\") {
          const [char, length] = escapeAt(input, i);
          value += char;
          i += length;
        } else value += input[i++];
      }
      if (i >= input.length)
        throw new JqlError(`Error in the JQL Query: The quoted string '${value}' has not been completed. (line 1, character ${start + 1})`);
      i++;
      tokens.push({ type: "string", value, pos: start });
      continue;
    }
    const op = OPERATORS.find((o) => input.startsWith(o, i));
    if (op) {
      tokens.push({ type: "op", value: op, pos: i });
      i += op.length;
      continue;
    }
    // An unquoted string takes escapes too (Jira's lexer: STRING : (ESCAPE | VALID_UNQUOTED_CHARS)+);
    // one with an escape is never a keyword (`ord\u0065r` is the string "order").
    const start = i;
    let value = "";
    let escaped = false;
    while (i < input.length) {
      if (input[i] === "\\") {
        const [char, length] = escapeAt(input, i);
        value += char;
        i += length;
        escaped = true;
      } else if (/[^\s()",'=!<>~&|]/.test(input[i]!)) value += input[i++];
      else break;
    }
    if (i === start)
      throw new JqlError(
        `Error in the JQL Query: The character '${c}' is a reserved JQL character. You must enclose it in a string or use the escape '\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}' instead. ${`(line 1, character ${i + 1})`}`,
      );
    tokens.push({ type: escaped ? "string" : "word", value, pos: start });
  }
  tokens.push({ type: "eof", value: "", pos: input.length });
  return tokens;
}

const KEYWORDS = new Set(["and", "or", "not", "in", "is", "empty", "null", "order", "by", "asc", "desc", "was", "changed"]);

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }
  private take(): Token {
    return this.tokens[Math.min(this.i++, this.tokens.length - 1)]!;
  }
  private isWord(t: Token, word: string): boolean {
    return t.type === "word" && t.value.toLowerCase() === word;
  }
  private isAnd(t: Token) {
    return this.isWord(t, "and") || (t.type === "op" && t.value === "&&");
  }
  private isOr(t: Token) {
    return this.isWord(t, "or") || (t.type === "op" && t.value === "||");
  }

  query(): JqlQuery {
    let whereNode: JqlNode | null = null;
    if (this.peek().type !== "eof" && !this.isWord(this.peek(), "order")) whereNode = this.or();
    const orderBy: SortKey[] = [];
    if (this.isWord(this.peek(), "order")) {
      this.take();
      if (!this.isWord(this.peek(), "by"))
        throw new JqlError(`Error in the JQL Query: Expecting 'BY' but got '${shown(this.peek())}'. ${where(this.peek())}`);
      this.take();
      do {
        if (orderBy.length) this.take();
        const t = this.take();
        if (t.type !== "word" && t.type !== "string")
          throw new JqlError(`Error in the JQL Query: Expecting a field name but got '${shown(t)}'. ${where(t)}`);
        const dirToken = this.peek();
        let dir: "ASC" | "DESC" = "ASC";
        if (this.isWord(dirToken, "asc") || this.isWord(dirToken, "desc")) dir = this.take().value.toUpperCase() as "ASC" | "DESC";
        orderBy.push({ field: t.value, dir });
      } while (this.peek().type === ",");
    }
    const end = this.peek();
    if (end.type !== "eof") {
      if (end.type === ")") throw new JqlError(`Error in the JQL Query: Expecting either 'OR' or 'AND' but got ')'. ${where(end)}`);
      throw new JqlError(`Error in the JQL Query: Expecting either 'OR' or 'AND' but got '${shown(end)}'. ${where(end)}`);
    }
    return { where: whereNode, orderBy };
  }

  private or(): JqlNode {
    const items = [this.and()];
    while (this.isOr(this.peek())) {
      this.take();
      items.push(this.and());
    }
    return items.length === 1 ? items[0]! : { kind: "or", items };
  }

  private and(): JqlNode {
    const items = [this.not()];
    while (this.isAnd(this.peek())) {
      this.take();
      items.push(this.not());
    }
    return items.length === 1 ? items[0]! : { kind: "and", items };
  }

  private not(): JqlNode {
    const t = this.peek();
    if (this.isWord(t, "not") || (t.type === "op" && t.value === "!")) {
      this.take();
      return { kind: "not", item: this.not() };
    }
    if (t.type === "(") {
      this.take();
      const inner = this.or();
      const close = this.take();
      if (close.type !== ")") {
        if (close.type === "eof") throw new JqlError("Error in the JQL Query: Expecting ')' before the end of the query.");
        throw new JqlError(`Error in the JQL Query: Expecting ')' but got '${shown(close)}'. ${where(close)}`);
      }
      return inner;
    }
    return this.clause();
  }

  private clause(): JqlNode {
    const f = this.take();
    if (f.type === "eof") throw new JqlError("Error in the JQL Query: Expecting a field name at the end of the query.");
    if ((f.type !== "word" && f.type !== "string") || (f.type === "word" && KEYWORDS.has(f.value.toLowerCase()))) {
      throw new JqlError(`Error in the JQL Query: Expecting a field name but got '${shown(f)}'. ${where(f)}`);
    }
    const op = this.operator();
    const operand = this.operand(op);
    return { kind: "clause", field: f.value, op, operand };
  }

  private operator(): Operator {
    const t = this.take();
    if (t.type === "op" && ["=", "!=", "~", "!~", "<", ">", "<=", ">="].includes(t.value)) return t.value as Operator;
    if (this.isWord(t, "in")) return "in";
    if (this.isWord(t, "not") && this.isWord(this.peek(), "in")) {
      this.take();
      return "not in";
    }
    if (this.isWord(t, "is")) {
      if (this.isWord(this.peek(), "not")) {
        this.take();
        return "is not";
      }
      return "is";
    }
    if (this.isWord(t, "was") || this.isWord(t, "changed"))
      throw new JqlError(`Error in the JQL Query: The operator '${t.value.toUpperCase()}' is not supported by this sandbox. ${where(t)}`);
    if (t.type === "eof") throw new JqlError(`Error in the JQL Query: Expecting operator before the end of the query. ${VALID_OPERATORS}`);
    throw new JqlError(`Error in the JQL Query: Expecting operator but got '${shown(t)}'. ${VALID_OPERATORS} ${where(t)}`);
  }

  private operand(op: Operator): Operand {
    const t = this.peek();
    if (op === "in" || op === "not in") {
      if (t.type === "(") {
        this.take();
        const items: Operand[] = [];
        for (;;) {
          items.push(this.single());
          const sep = this.take();
          if (sep.type === ")") break;
          if (sep.type !== ",") throw new JqlError(`Error in the JQL Query: Expecting ',' or ')' but got '${shown(sep)}'. ${where(sep)}`);
        }
        return { kind: "list", items };
      }
      if (t.type === "word" && this.peek(1).type === "(") return this.single();
      throw new JqlError(`Error in the JQL Query: Expecting '(' but got '${shown(t)}'. ${where(t)}`);
    }
    return this.single();
  }

  private single(): Operand {
    const t = this.take();
    if (t.type === "string") return { kind: "value", value: t.value, quoted: true };
    if (t.type !== "word" || ["and", "or", "not", "order", "in", "is"].includes(t.value.toLowerCase())) {
      if (t.type === "eof")
        throw new JqlError("Error in the JQL Query: Expecting either a value, list or function before the end of the query.");
      throw new JqlError(
        `Error in the JQL Query: Expecting either a value, list or function but got '${shown(t)}'. You must surround '${shown(t)}' in quotation marks to use it as a value. ${where(t)}`,
      );
    }
    const lower = t.value.toLowerCase();
    if (lower === "empty" || lower === "null") return { kind: "empty" };
    if (this.peek().type === "(") {
      this.take();
      const args: string[] = [];
      while (this.peek().type !== ")") {
        const a = this.take();
        if (a.type === "eof") throw new JqlError("Error in the JQL Query: Expecting ')' before the end of the query.");
        if (a.type !== ",") args.push(a.value);
      }
      this.take();
      return { kind: "func", name: t.value, args };
    }
    return { kind: "value", value: t.value, quoted: false };
  }
}

export function parseJql(input: string): JqlQuery {
  return new Parser(lex(input)).query();
}
