import { categoryOf, ISSUE_TYPES, PRIORITIES, RESOLUTIONS, STATUS_CATEGORIES, STATUSES, TYPE_EPIC, issueTypeById } from "./catalog";
import { JqlError, parseJql, type JqlNode, type Operand, type Operator, type SortKey } from "./jql";
import type { Issue, JiraState } from "./model";
import { userByName } from "./dc-users";
import { issueText } from "./store";

/** Compiles parsed JQL against the state: a predicate and a comparator over issues. */

export interface JqlContext {
  state: JiraState;
  me: string;
  now: number;
}

export interface CompiledJql {
  bounded: boolean;
  match: (issue: Issue) => boolean;
  compare: (a: Issue, b: Issue) => number;
}

type Pred = (issue: Issue) => boolean;
const DAY = 86_400_000;
const lc = (s: string) => s.toLowerCase();
const noValue = (value: string, field: string) => new JqlError(`The value '${value}' does not exist for the field '${field}'.`);
const badOp = (op: Operator, field: string) => new JqlError(`The operator '${op.toUpperCase()}' is not supported by the '${field}' field.`);
const badFunc = (name: string) => new JqlError(`Unable to find JQL function '${name}()'.`);

type Kind = "enum" | "text" | "date" | "number";
interface FieldSpec {
  name: string;
  kind: Kind;
  /** enum: the issue's canonical values; text: its text; date/number: its value. */
  get: (issue: Issue, ctx: JqlContext) => string[] | string | number | null;
  /** enum: canonical values for one operand value (throws when unknown). */
  resolve?: (value: string, ctx: JqlContext) => string[];
  func?: (name: string, ctx: JqlContext) => string[] | null;
}

const byName =
  <T extends { id: string; name: string }>(items: T[], field: string) =>
  (v: string) => {
    const hit = items.find((x) => x.id === v || lc(x.name) === lc(v));
    if (!hit) throw noValue(v, field);
    return [hit.id];
  };

const userResolver = (field: string) => (v: string, ctx: JqlContext) => {
  // Data Center's JQL names a user by username (`assignee = fred`) where the cloud's takes an account id.
  const u =
    (ctx.state.dataCenter ? userByName(ctx.state, { name: v }) : undefined) ??
    ctx.state.usersById.get(v) ??
    ctx.state.users.find((x) => lc(x.emailAddress) === lc(v) || lc(x.displayName) === lc(v));
  if (!u) throw noValue(v, field);
  return [u.accountId];
};
const userFunc = (name: string, ctx: JqlContext) => (lc(name) === "currentuser" ? [ctx.me] : null);

const issueResolver = (field: string) => (v: string, ctx: JqlContext) => {
  const issue = ctx.state.issuesById.get(v) ?? ctx.state.issuesByKey.get(v.toUpperCase());
  if (!issue) {
    if (/^[A-Za-z][A-Za-z0-9_]*-\d+$/.test(v)) throw new JqlError(`An issue with key '${v}' does not exist for field '${field}'.`);
    throw noValue(v, field);
  }
  return [issue.id];
};

function sprintFunc(name: string, ctx: JqlContext): string[] | null {
  const state = ({ opensprints: ["active", "future"], closedsprints: ["closed"], futuresprints: ["future"] } as Record<string, string[]>)[
    lc(name)
  ];
  return state ? ctx.state.sprints.filter((s) => state.includes(s.state)).map((s) => String(s.id)) : null;
}

const opt = (v: string | null): string[] => (v ? [v] : []);

const FIELDS: FieldSpec[] = [
  {
    name: "project",
    kind: "enum",
    get: (i) => [i.projectId],
    resolve: (v, c) => {
      const p =
        c.state.projectsById.get(v) ?? c.state.projectsByKey.get(v.toUpperCase()) ?? c.state.projects.find((x) => lc(x.name) === lc(v));
      if (!p) throw noValue(v, "project");
      return [p.id];
    },
  },
  { name: "key", kind: "enum", get: (i) => [i.id], resolve: issueResolver("key") },
  {
    name: "issuetype",
    kind: "enum",
    get: (i) => [i.typeId],
    resolve: byName(ISSUE_TYPES, "issuetype"),
    func: (n) =>
      lc(n) === "standardissuetypes"
        ? ISSUE_TYPES.filter((t) => !t.subtask).map((t) => t.id)
        : lc(n) === "subtaskissuetypes"
          ? ISSUE_TYPES.filter((t) => t.subtask).map((t) => t.id)
          : null,
  },
  { name: "status", kind: "enum", get: (i) => [i.statusId], resolve: byName(STATUSES, "status") },
  {
    name: "statusCategory",
    kind: "enum",
    get: (i) => [String(categoryOf(i.statusId).id)],
    resolve: (v) => {
      const c = STATUS_CATEGORIES.find((x) => String(x.id) === v || lc(x.name) === lc(v) || x.key === lc(v));
      if (!c) throw noValue(v, "statusCategory");
      return [String(c.id)];
    },
  },
  { name: "priority", kind: "enum", get: (i) => [i.priorityId], resolve: byName(PRIORITIES, "priority") },
  {
    name: "resolution",
    kind: "enum",
    get: (i) => opt(i.resolutionId),
    resolve: (v) => (lc(v) === "unresolved" ? ["__none"] : byName(RESOLUTIONS, "resolution")(v)),
  },
  { name: "assignee", kind: "enum", get: (i) => opt(i.assigneeId), resolve: userResolver("assignee"), func: userFunc },
  { name: "reporter", kind: "enum", get: (i) => [i.reporterId], resolve: userResolver("reporter"), func: userFunc },
  { name: "creator", kind: "enum", get: (i) => [i.creatorId], resolve: userResolver("creator"), func: userFunc },
  { name: "labels", kind: "enum", get: (i) => i.labels.map(lc), resolve: (v) => [lc(v)] },
  {
    name: "component",
    kind: "enum",
    get: (i) => i.componentIds,
    resolve: (v, c) => {
      const ids = c.state.projects
        .flatMap((p) => p.components)
        .filter((x) => x.id === v || lc(x.name) === lc(v))
        .map((x) => x.id);
      if (!ids.length) throw noValue(v, "component");
      return ids;
    },
  },
  {
    name: "fixVersion",
    kind: "enum",
    get: (i) => i.fixVersionIds,
    resolve: (v, c) => {
      const ids = c.state.projects
        .flatMap((p) => p.versions)
        .filter((x) => x.id === v || lc(x.name) === lc(v))
        .map((x) => x.id);
      if (!ids.length) throw noValue(v, "fixVersion");
      return ids;
    },
    func: (n, c) => {
      const released = lc(n) === "releasedversions" ? true : lc(n) === "unreleasedversions" ? false : null;
      return released === null
        ? null
        : c.state.projects
            .flatMap((p) => p.versions)
            .filter((v) => v.released === released)
            .map((v) => v.id);
    },
  },
  {
    name: "sprint",
    kind: "enum",
    get: (i) => i.sprintIds.map(String),
    resolve: (v, c) => {
      const ids = c.state.sprints.filter((s) => String(s.id) === v || lc(s.name) === lc(v)).map((s) => String(s.id));
      if (!ids.length) throw noValue(v, "sprint");
      return ids;
    },
    func: sprintFunc,
  },
  { name: "parent", kind: "enum", get: (i) => opt(i.parentId), resolve: issueResolver("parent") },
  {
    name: "Epic Link",
    kind: "enum",
    get: (i, c) => (i.parentId && c.state.issuesById.get(i.parentId)?.typeId === TYPE_EPIC ? [i.parentId] : []),
    resolve: issueResolver("Epic Link"),
  },
  { name: "summary", kind: "text", get: (i) => issueText(i).summary },
  { name: "description", kind: "text", get: (i) => issueText(i).description },
  { name: "comment", kind: "text", get: (i) => issueText(i).comments },
  {
    name: "text",
    kind: "text",
    get: (i) => {
      const t = issueText(i);
      return `${t.summary}\n${t.description}\n${t.comments}`;
    },
  },
  { name: "created", kind: "date", get: (i) => i.created },
  { name: "updated", kind: "date", get: (i) => i.updated },
  { name: "resolved", kind: "date", get: (i) => i.resolutionDate },
  { name: "due", kind: "date", get: (i) => (i.dueDate ? Date.parse(`${i.dueDate}T00:00:00Z`) : null) },
  { name: "statusCategoryChangedDate", kind: "date", get: (i) => i.statusCategoryChanged },
  { name: "Story point estimate", kind: "number", get: (i) => i.storyPoints },
];

const ALIASES: Record<string, string> = {
  type: "issuetype",
  issuekey: "key",
  id: "key",
  issue: "key",
  createddate: "created",
  updateddate: "updated",
  resolutiondate: "resolved",
  duedate: "due",
  "cf[10020]": "sprint",
  "cf[10014]": "epic link",
  "cf[10016]": "story point estimate",
  "story points": "story point estimate",
  components: "component",
  fixversions: "fixVersion",
  label: "labels",
};
const FIELD_INDEX = new Map(FIELDS.map((f) => [lc(f.name), f]));

function fieldSpec(name: string): FieldSpec {
  const key = lc(name);
  const spec = FIELD_INDEX.get(lc(ALIASES[key] ?? key));
  if (!spec) throw new JqlError(`Field '${name}' does not exist or you do not have permission to view it.`);
  return spec;
}

/** Dates: `2026-01-01`, `2026/01/01 10:00`, relative `-7d`, `-2w 3d`, or date functions. */
function dateValue(o: Operand, field: string, ctx: JqlContext): number {
  if (o.kind === "func") {
    const start = new Date(ctx.now);
    start.setUTCHours(0, 0, 0, 0);
    const sod = start.getTime();
    const dow = (start.getUTCDay() + 6) % 7;
    const values: Record<string, number> = {
      now: ctx.now,
      startofday: sod,
      endofday: sod + DAY - 1,
      startofweek: sod - dow * DAY,
      endofweek: sod + (7 - dow) * DAY - 1,
      startofmonth: Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1),
      startofyear: Date.UTC(start.getUTCFullYear(), 0, 1),
    };
    const v = values[lc(o.name)];
    if (v === undefined) throw badFunc(o.name);
    const shift = o.args[0] ? relative(o.args[0]) : 0;
    return v + (shift ?? 0);
  }
  if (o.kind !== "value") throw new JqlError(`Date value for field '${field}' is invalid.`);
  const v = o.value.trim();
  const abs = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(v);
  if (abs) return Date.UTC(Number(abs[1]), Number(abs[2]) - 1, Number(abs[3]), Number(abs[4] ?? 0), Number(abs[5] ?? 0));
  const rel = relative(v);
  if (rel !== null) return ctx.now + rel;
  throw new JqlError(
    `Date value '${v}' for field '${field}' is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.`,
  );
}

function relative(v: string): number | null {
  const m = /^([-+]?)((?:\s*\d+\s*[wdhm])+)$/i.exec(v.trim());
  if (!m) return null;
  const units: Record<string, number> = { w: 7 * DAY, d: DAY, h: 3_600_000, m: 60_000 };
  let total = 0;
  for (const part of m[2]!.matchAll(/(\d+)\s*([wdhm])/gi)) total += Number(part[1]) * units[lc(part[2]!)]!;
  return m[1] === "-" ? -total : total;
}

/** `~` matching: every word must start a word of the text (a light stand-in for Jira's stemming); quoted phrases match as-is. */
function textMatcher(query: string): (t: string) => boolean {
  const phrase = /^"(.*)"$/.exec(query.trim());
  if (phrase) {
    const p = lc(phrase[1]!);
    return (t) => t.includes(p);
  }
  const terms = lc(query).match(/[\p{L}\p{N}*?]+/gu) ?? [];
  const res = terms.map((term) => {
    const stem = term.length > 4 && !/[*?]/.test(term) ? term.replace(/(ing|ed|es|s)$/, "") : term;
    const body = stem
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, "[\\p{L}\\p{N}]*")
      .replace(/\?/g, "[\\p{L}\\p{N}]");
    return new RegExp(`(?<![\\p{L}\\p{N}])${body}`, "u");
  });
  return (t) => res.length > 0 && res.every((re) => re.test(t));
}

function compileClause(c: Extract<JqlNode, { kind: "clause" }>, ctx: JqlContext): Pred {
  const spec = fieldSpec(c.field);
  const { op, operand } = c;
  if (op === "is" || op === "is not") {
    if (operand.kind !== "empty") throw new JqlError(`Error in the JQL Query: Expecting 'EMPTY' or 'NULL' after '${op.toUpperCase()}'.`);
    const isEmpty: Pred = (i) => {
      const v = spec.get(i, ctx);
      return v === null || v === "" || (Array.isArray(v) && v.length === 0);
    };
    return op === "is" ? isEmpty : (i) => !isEmpty(i);
  }
  if (operand.kind === "empty" && (op === "=" || op === "!=")) return compileClause({ ...c, op: op === "=" ? "is" : "is not" }, ctx);
  if (spec.kind === "text") {
    if (op !== "~" && op !== "!~") throw badOp(op, spec.name);
    if (operand.kind !== "value") throw new JqlError(`Error in the JQL Query: The field '${spec.name}' requires a text value.`);
    const m = textMatcher(operand.value);
    return op === "~" ? (i) => m(spec.get(i, ctx) as string) : (i) => !m(spec.get(i, ctx) as string);
  }
  if (spec.kind === "date" || spec.kind === "number") {
    if (op === "~" || op === "!~" || op === "in" || op === "not in") throw badOp(op, spec.name);
    const target = spec.kind === "date" ? dateValue(operand, spec.name, ctx) : Number(operand.kind === "value" ? operand.value : NaN);
    if (Number.isNaN(target)) throw new JqlError(`The value for the field '${spec.name}' must be a number.`);
    const cmp: Record<string, (a: number) => boolean> = {
      "=": (a) => a === target,
      "!=": (a) => a !== target,
      "<": (a) => a < target,
      ">": (a) => a > target,
      "<=": (a) => a <= target,
      ">=": (a) => a >= target,
    };
    const test = cmp[op]!;
    return (i) => {
      const v = spec.get(i, ctx) as number | null;
      return v !== null && test(v);
    };
  }
  if (op === "~" || op === "!~" || op === "<" || op === ">" || op === "<=" || op === ">=") throw badOp(op, spec.name);
  const values = new Set<string>();
  let wantsEmpty = false;
  const add = (o: Operand) => {
    if (o.kind === "empty") wantsEmpty = true;
    else if (o.kind === "func") {
      const got = spec.func?.(o.name, ctx);
      if (!got) throw badFunc(o.name);
      got.forEach((v) => values.add(v));
    } else if (o.kind === "value") spec.resolve!(o.value, ctx).forEach((v) => values.add(v));
    else o.items.forEach(add);
  };
  add(operand);
  if (values.has("__none")) wantsEmpty = true;
  const hit: Pred = (i) => {
    const v = spec.get(i, ctx) as string[];
    return v.length === 0 ? wantsEmpty : v.some((x) => values.has(x));
  };
  if (op === "=" || op === "in") return hit;
  return (i) => (spec.get(i, ctx) as string[]).length > 0 && !hit(i);
}

function compileNode(n: JqlNode, ctx: JqlContext): Pred {
  if (n.kind === "clause") return compileClause(n, ctx);
  if (n.kind === "not") {
    const inner = compileNode(n.item, ctx);
    return (i) => !inner(i);
  }
  const items = n.items.map((x) => compileNode(x, ctx));
  return n.kind === "and" ? (i) => items.every((p) => p(i)) : (i) => items.some((p) => p(i));
}

const STATUS_ORDER = new Map(STATUSES.map((s, n) => [s.id, n]));
const PRIORITY_ORDER = new Map(PRIORITIES.map((p, n) => [p.id, n]));
const keyOrder = (i: Issue, ctx: JqlContext) =>
  `${ctx.state.projectsById.get(i.projectId)?.key ?? ""}-${i.key.split("-")[1]!.padStart(9, "0")}`;
const userName = (ctx: JqlContext, id: string | null) => (id ? (ctx.state.usersById.get(id)?.displayName ?? "") : null);

const SORTS: Record<string, (i: Issue, ctx: JqlContext) => string | number | null> = {
  key: keyOrder,
  created: (i) => i.created,
  updated: (i) => i.updated,
  resolved: (i) => i.resolutionDate,
  due: (i) => (i.dueDate ? Date.parse(i.dueDate) : null),
  priority: (i) => -(PRIORITY_ORDER.get(i.priorityId) ?? 0),
  status: (i) => STATUS_ORDER.get(i.statusId) ?? 0,
  statuscategory: (i) => (categoryOf(i.statusId).id === 2 ? 0 : categoryOf(i.statusId).id === 4 ? 1 : 2),
  summary: (i) => lc(i.summary),
  assignee: (i, c) => userName(c, i.assigneeId),
  reporter: (i, c) => userName(c, i.reporterId),
  issuetype: (i) => issueTypeById.get(i.typeId)?.name ?? "",
  project: (i, c) => c.state.projectsById.get(i.projectId)?.key ?? "",
  rank: (i) => Number(i.id),
  "story point estimate": (i) => i.storyPoints,
  parent: (i, c) => (i.parentId ? keyOrder(c.state.issuesById.get(i.parentId)!, c) : null),
};

function comparator(keys: SortKey[], ctx: JqlContext): (a: Issue, b: Issue) => number {
  const getters = keys.map((k) => {
    const name = lc(ALIASES[lc(k.field)] ?? k.field);
    const get = SORTS[name];
    if (!get) {
      if (!FIELD_INDEX.has(name)) throw new JqlError(`Field '${k.field}' does not exist or you do not have permission to view it.`);
      throw new JqlError(`Field '${k.field}' does not support sorting.`);
    }
    return { get, sign: k.dir === "DESC" ? -1 : 1 };
  });
  return (a, b) => {
    for (const { get, sign } of getters) {
      const x = get(a, ctx);
      const y = get(b, ctx);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    return Number(b.id) - Number(a.id);
  };
}

export function compileJql(jql: string, ctx: JqlContext): CompiledJql {
  const q = parseJql(jql);
  const match = q.where ? compileNode(q.where, ctx) : () => true;
  return { bounded: q.where !== null, match, compare: comparator(q.orderBy, ctx) };
}

/** The issues matching `jql`, sorted. */
export function runJql(jql: string, ctx: JqlContext, within?: Issue[]): Issue[] {
  const c = compileJql(jql, ctx);
  return (within ?? ctx.state.issues).filter(c.match).sort(c.compare);
}
