import { describe, expect, it } from "vitest";
import { Rng } from "../core/random";
import { adfToWiki, wikiToAdf } from "./adf";
import { parseJql, JqlError } from "./jql";
import { runJql } from "./jql-eval";
import { seedJira } from "./seed";
import { clock, formatDuration, parseDuration } from "./util";

describe("JQL parser", () => {
  it("parses precedence, lists, functions and ORDER BY", () => {
    const q = parseJql(
      'project = BK AND (status in ("To Do", "In Progress") OR assignee = currentUser()) AND NOT labels is EMPTY order by priority desc, key',
    );
    expect(q.orderBy).toEqual([
      { field: "priority", dir: "DESC" },
      { field: "key", dir: "ASC" },
    ]);
    expect(q.where?.kind).toBe("and");
    const where = q.where!;
    expect(where.kind === "and" ? where.items.map((n) => n.kind) : []).toEqual(["clause", "or", "not"]);
  });

  it("reads escapes as Jira's lexer does, outside quotes too; an escaped word is never a keyword", () => {
    const q = parseJql(String.raw`labels = a\"b AND summary ~ 'it\'s' AND labels = ord\u0065r AND (labels = x\")`);
    const where = q.where!;
    const values =
      where.kind === "and" ? where.items.map((n) => (n.kind === "clause" && n.operand.kind === "value" ? n.operand.value : null)) : [];
    expect(values).toEqual(['a"b', "it's", "order", 'x"']);
    expect(() => parseJql(String.raw`labels = a\q`)).toThrow(/'\\q' is an illegal JQL escape sequence/);
    expect(() => parseJql("labels = a\\")).toThrow(/illegal JQL escape sequence/);
    expect(() => parseJql(String.raw`summary ~ "\u12"`)).toThrow(/illegal JQL escape sequence/);
  });

  it("reports positions like Jira", () => {
    expect(() => parseJql("project BK")).toThrow(/Expecting operator but got 'BK'.*\(line 1, character 9\)/);
    expect(() => parseJql('summary ~ "open')).toThrow(JqlError);
    expect(() => parseJql("project = BK BK")).toThrow(/Expecting either 'OR' or 'AND' but got 'BK'/);
  });
});

describe("JQL evaluation over the seed", () => {
  const state = seedJira(new Rng(7));
  const ctx = { state, me: state.users[0]!.accountId, now: clock(state) };

  it("seeds 500 issues over 3 projects with sprints and links", () => {
    expect(state.issues).toHaveLength(500);
    expect(new Set(state.issues.map((i) => i.projectId)).size).toBe(3);
    expect(state.sprints.filter((s) => s.state === "active")).toHaveLength(3);
    expect(state.links.length).toBeGreaterThan(50);
    expect(state.issues.every((i) => state.issuesByKey.get(i.key) === i)).toBe(true);
  });

  it("filters subtasks by parent and epics by Epic Link", () => {
    const epic = state.issues.find((i) => i.typeId === "10000")!;
    const children = runJql(`"Epic Link" = ${epic.key}`, ctx);
    expect(children.every((i) => i.parentId === epic.id)).toBe(true);
    const sub = state.issues.find((i) => i.typeId === "10004")!;
    const parent = state.issuesById.get(sub.parentId!)!;
    expect(runJql(`parent = ${parent.key} AND type = Subtask`, ctx).map((i) => i.id)).toContain(sub.id);
  });

  it("matches text by word prefix and phrase", () => {
    const hits = runJql('text ~ "memory leak"', ctx);
    expect(hits.length).toBeGreaterThan(0);
    expect(runJql('summary ~ "\\"memory leak\\""', ctx).every((i) => i.summary.toLowerCase().includes("memory leak"))).toBe(true);
  });
});

describe("ADF and durations", () => {
  it("round-trips wiki markup through ADF", () => {
    const wiki =
      "h2. Title\n\nSome *bold* and _em_ and {{code}} with [a link|https://example.com]\n\n* one\n* two\n\n{code:js}\nconst x = 1;\n{code}";
    expect(adfToWiki(wikiToAdf(wiki))).toBe(wiki);
  });

  it("parses and formats Jira durations", () => {
    expect(parseDuration("1w 2d 3h 30m")).toBe(5 * 8 * 3600 + 2 * 8 * 3600 + 3 * 3600 + 1800);
    expect(parseDuration("90")).toBe(5400);
    expect(parseDuration("soon")).toBeNull();
    expect(formatDuration(9000)).toBe("2h 30m");
    expect(formatDuration(28800)).toBe("1d");
  });
});
