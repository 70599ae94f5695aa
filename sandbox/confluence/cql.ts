import { buildClause, compareKeys, COSTLY, CqlError, numericId, sortKey } from "./cql.clauses";
import type { CqlContext, Predicate, Value } from "./cql.clauses";
import type { Content } from "./types";
import { lastModified } from "./types";

export { CqlError } from "./cql.clauses";
export type { CqlContext } from "./cql.clauses";

/**
 * A subset of the Confluence Query Language: type, space, title, text, label, ancestor, parent, id,
 * creator, contributor, created and lastmodified clauses joined with AND / OR / NOT and parentheses,
 * then ORDER BY. Parsing produces a predicate over content records, so a search is one pass.
 */

interface Token {
  kind: "word" | "string" | "op" | "(" | ")" | ",";
  value: string;
  pos: number;
}

interface OrderKey {
  key: (c: Content) => string | number;
  dir: 1 | -1;
}

export interface CqlQuery {
  matches: Predicate;
  order: OrderKey[];
  /** Words of the `text ~` / `title ~` clauses, for excerpts. */
  words: string[];
}

function tokenize(cql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < cql.length) {
    const ch = cql[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"' || ch === "'") {
      let value = "";
      let j = i + 1;
      while (j < cql.length && cql[j] !== ch) {
        if (cql[j] === "\\" && j + 1 < cql.length) j++;
        value += cql[j];
        j++;
      }
      if (j >= cql.length) throw new CqlError(`unterminated string starting at position ${i}`);
      tokens.push({ kind: "string", value, pos: i });
      i = j + 1;
    } else if (ch === "(" || ch === ")" || ch === ",") {
      tokens.push({ kind: ch, value: ch, pos: i });
      i++;
    } else if ("=!~<>".includes(ch)) {
      const two = cql.slice(i, i + 2);
      const op = ["!=", "!~", ">=", "<="].includes(two) ? two : ch;
      if (op === "!") throw new CqlError(`unexpected '!' at position ${i}`);
      tokens.push({ kind: "op", value: op, pos: i });
      i += op.length;
    } else {
      const m = /^[^\s"'(),=!~<>]+/.exec(cql.slice(i));
      const value = m?.[0] ?? ch;
      tokens.push({ kind: "word", value, pos: i });
      i += value.length;
    }
  }
  return tokens;
}

const FIELDS = new Set([
  "type",
  "space",
  "space.key",
  "title",
  "text",
  "label",
  "ancestor",
  "parent",
  "id",
  "content",
  "creator",
  "contributor",
  "created",
  "lastmodified",
]);
const ORDER_FIELDS = new Set(["lastmodified", "created", "title", "id", "type", "space"]);

class Parser {
  private i = 0;
  readonly words: string[] = [];
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }
  private isWord(value: string, offset = 0): boolean {
    const t = this.tokens[this.i + offset];
    return t?.kind === "word" && t.value.toLowerCase() === value;
  }
  private next(what: string): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new CqlError(`expected ${what} but reached the end of the query`);
    return t;
  }

  parse(): CqlQuery {
    if (this.tokens.length === 0) throw new CqlError("the query is empty");
    let matches: Predicate = () => true;
    if (!this.isWord("order")) matches = this.or();
    let order: OrderKey[] = [
      { key: lastModified, dir: -1 },
      { key: numericId, dir: -1 },
    ];
    if (this.isWord("order")) {
      this.i++;
      if (!this.isWord("by")) throw new CqlError(`expected 'by' after 'order' at position ${this.peek()?.pos ?? "end"}`);
      this.i++;
      order = [];
      do {
        const field = this.next("a field to order by");
        const name = field.value.toLowerCase();
        if (field.kind !== "word" || !ORDER_FIELDS.has(name)) throw new CqlError(`cannot order by '${field.value}'`);
        let dir: 1 | -1 = 1;
        if (this.isWord("asc") || this.isWord("desc")) dir = this.next("direction").value.toLowerCase() === "desc" ? -1 : 1;
        order.push({ key: sortKey(name), dir });
      } while (this.peek()?.kind === "," && ++this.i);
      order.push({ key: numericId, dir: 1 });
    }
    const rest = this.peek();
    if (rest) throw new CqlError(`unexpected '${rest.value}' at position ${rest.pos}`);
    return { matches, order, words: this.words };
  }

  private or(): Predicate {
    const parts = [this.and()];
    while (this.isWord("or")) {
      this.i++;
      parts.push(this.and());
    }
    return parts.length === 1 ? parts[0]! : (c, ctx) => parts.some((p) => p(c, ctx));
  }

  private and(): Predicate {
    const parts = [this.not()];
    while (this.isWord("and")) {
      this.i++;
      parts.push(this.not());
    }
    // Text matching scans whole bodies: let the cheap clauses rule content out first.
    parts.sort((a, b) => (COSTLY.has(a) ? 1 : 0) - (COSTLY.has(b) ? 1 : 0));
    return parts.length === 1 ? parts[0]! : (c, ctx) => parts.every((p) => p(c, ctx));
  }

  private not(): Predicate {
    if (this.isWord("not")) {
      this.i++;
      const inner = this.not();
      return (c, ctx) => !inner(c, ctx);
    }
    if (this.peek()?.kind === "(") {
      this.i++;
      const inner = this.or();
      const close = this.next("')'");
      if (close.kind !== ")") throw new CqlError(`expected ')' at position ${close.pos}`);
      return inner;
    }
    return this.clause();
  }

  private value(): Value {
    const t = this.next("a value");
    if (t.kind === "string") return { kind: "literal", value: t.value };
    if (t.kind !== "word") throw new CqlError(`expected a value at position ${t.pos}, found '${t.value}'`);
    if (this.peek()?.kind === "(") {
      this.i++;
      const args: string[] = [];
      while (this.peek()?.kind !== ")") {
        const a = this.next("')'");
        if (a.kind === ",") continue;
        if (a.kind !== "string" && a.kind !== "word") throw new CqlError(`unexpected '${a.value}' at position ${a.pos}`);
        args.push(a.value);
      }
      this.i++;
      return { kind: "fn", name: t.value.toLowerCase(), args };
    }
    return { kind: "literal", value: t.value };
  }

  private clause(): Predicate {
    const fieldToken = this.next("a field");
    const field = fieldToken.value.toLowerCase();
    if (fieldToken.kind !== "word") throw new CqlError(`expected a field at position ${fieldToken.pos}, found '${fieldToken.value}'`);
    if (!FIELDS.has(field)) throw new CqlError(`the field '${fieldToken.value}' is not supported`);
    let op: string;
    if (this.isWord("in")) op = "in";
    else if (this.isWord("not") && this.isWord("in", 1)) op = "not in";
    else {
      const t = this.next("an operator");
      if (t.kind !== "op") throw new CqlError(`expected an operator after '${fieldToken.value}' at position ${t.pos}`);
      op = t.value;
    }
    let values: Value[];
    if (op === "in" || op === "not in") {
      this.i += op === "in" ? 1 : 2;
      const open = this.next("'('");
      if (open.kind !== "(") throw new CqlError(`expected '(' after ${op.toUpperCase()} at position ${open.pos}`);
      values = [];
      for (;;) {
        values.push(this.value());
        const t = this.next("')'");
        if (t.kind === ")") break;
        if (t.kind !== ",") throw new CqlError(`expected ',' or ')' at position ${t.pos}`);
      }
    } else {
      values = [this.value()];
    }
    return buildClause(field, op, values, this.words);
  }
}

const parsed = new Map<string, CqlQuery>();

/** Parses CQL (parsed queries are cached: they hold no state); throws CqlError with a reason when it cannot. */
export function parseCql(cql: string): CqlQuery {
  let query = parsed.get(cql);
  if (!query) {
    query = new Parser(tokenize(cql)).parse();
    if (parsed.size >= 500) parsed.clear();
    parsed.set(cql, query);
  }
  return query;
}

/** Current pages, blog posts and comments matching the query, in the query's order. */
export function runCql(query: CqlQuery, ctx: CqlContext): Content[] {
  const hits: { c: Content; keys: (string | number)[] }[] = [];
  const visible = (c: Content) =>
    c.status === "current" &&
    (c.type !== "comment" || (c.containerId !== null && ctx.state.content.get(c.containerId)?.status === "current"));
  for (const c of ctx.state.ordered) if (visible(c) && query.matches(c, ctx)) hits.push({ c, keys: query.order.map((o) => o.key(c)) });
  const { order } = query;
  hits.sort((a, b) => {
    for (let i = 0; i < order.length; i++) {
      const d = compareKeys(a.keys[i]!, b.keys[i]!);
      if (d !== 0) return order[i]!.dir * d;
    }
    return 0;
  });
  return hits.map((h) => h.c);
}
