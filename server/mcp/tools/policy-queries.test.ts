import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientPolicySchema, OPEN_POLICY } from "../../../contract/policy";
import { Rng } from "../../../sandbox/core/random";
import { parseCql, runCql } from "../../../sandbox/confluence/cql";
import { seedConfluence } from "../../../sandbox/confluence/seed";
import { JqlError, parseJql } from "../../../sandbox/jira/jql";
import { assertIssuesHeld, assertResultsHeld, constrainCql, constrainJql, spaceOfResult } from "./policy";
import { ToolError } from "./tool";

/**
 * A client limited to some projects or spaces cannot leave the clause its query is wrapped in,
 * whatever quoting or escaping it tries. The sandbox's JQL parser reads escapes as Jira's lexer
 * does (inside and outside quotes), so it is the judge of what Jira would run: a query is either
 * refused here, or rejected by Jira, or it is `project in (...) AND (...)` at the top.
 */

const ALPHA = ClientPolicySchema.parse({ jiraProjects: ["ALPHA"], confluenceSpaces: ["ENG"] });
const PROJECT_CLAUSE = {
  kind: "clause",
  field: "project",
  op: "in",
  operand: { kind: "list", items: [{ kind: "value", value: "ALPHA", quoted: true }] },
};

/** "refused" (a tool error), "invalid" (Jira would refuse it), "held" (the allow-list holds), or "escaped". */
function jqlOutcome(query: string): "refused" | "invalid" | "held" | "escaped" {
  let held: string;
  try {
    held = constrainJql(query, ALPHA);
  } catch (err) {
    if (err instanceof ToolError) return "refused";
    throw err;
  }
  try {
    const { where } = parseJql(held);
    const first = where?.kind === "and" ? where.items[0] : where;
    return JSON.stringify(first) === JSON.stringify(PROJECT_CLAUSE) ? "held" : "escaped";
  } catch (err) {
    if (err instanceof JqlError) return "invalid";
    throw err;
  }
}

describe("JQL under a project list: no escape form leaves the wrapper", () => {
  it.each([
    // The reported one: `\"` outside quotes is an escaped quote in Jira's lexer, so `)` closes the wrapper.
    String.raw`labels = a\") OR project = BETA OR (labels = "b\"c"`,
    String.raw`labels = a\') OR project = BETA OR (labels = 'b\'c'`,
    String.raw`labels = a\ ") OR project = BETA OR (labels = "c"`,
    String.raw`labels = \u0022) OR project = BETA OR (labels = "c"`,
    String.raw`labels = "a\\") OR project = BETA OR (labels = "c"`,
    String.raw`labels = 'a\\') OR project = BETA OR (labels = 'c'`,
    String.raw`labels = a\\") OR project = BETA OR (labels = "c\\"`,
    String.raw`labels = x\u0029 OR project = BETA OR (labels = "c"`,
    // Unbalanced quotes and parentheses.
    "x = 1) OR (project = BETA",
    "x = 1) OR project = BETA OR (y = 2",
    "(x = 1",
    "x = 1)",
    'summary ~ "open',
    "summary ~ 'open",
    String.raw`summary ~ "open\"`,
    // Escapes Jira does not define, a backslash at the end, short \u.
    String.raw`labels = a\q) OR (project = BETA`,
    String.raw`summary ~ "a\x"`,
    "labels = a\\",
    String.raw`labels = \u12) OR (project = BETA`,
    String.raw`labels = "\u12G4"`,
    // Comment-like starts (JQL has no comments; / * # are reserved characters).
    "x = 1 /* ) OR project = BETA */",
    "x = 1 -- ) OR (project = BETA",
    "x = 1 # ) OR (project = BETA",
    "x = 1 // ) OR (project = BETA",
    // ORDER BY smuggling.
    "x = 1 ORDER BY key) OR (project = BETA",
    "x = 1 ORDER BY key OR project = BETA",
    "x = 1 ORDER BY key, (project) = BETA",
    // Control and invisible characters.
    "x = 1\u0000) OR (project = BETA",
    'x = "a\tb"',
    "x = 1\u00a0ORDER BY key",
    "x = a\u200b",
  ])("refuses %j", (query) => {
    expect(jqlOutcome(query)).toBe("refused");
  });

  it.each([
    [String.raw`summary ~ "\"memory leak\""`, String.raw`project in ("ALPHA") AND (summary ~ "\"memory leak\"")`],
    [String.raw`labels = a\"b`, String.raw`project in ("ALPHA") AND (labels = "a\"b")`],
    [String.raw`labels = a\ b ORDER BY key`, String.raw`project in ("ALPHA") AND (labels = "a b") ORDER BY key`],
    [String.raw`summary ~ 'it\'s'`, String.raw`project in ("ALPHA") AND (summary ~ "it's")`],
    [String.raw`summary ~ 'say "hi"'`, String.raw`project in ("ALPHA") AND (summary ~ "say \"hi\"")`],
    [String.raw`summary ~ "win\\*"`, String.raw`project in ("ALPHA") AND (summary ~ "win\\*")`],
    [String.raw`summary ~ "tab\tnew\nline\r"`, String.raw`project in ("ALPHA") AND (summary ~ "tab\tnew\nline\r")`],
    [String.raw`labels = \u0041BC`, String.raw`project in ("ALPHA") AND (labels = "ABC")`],
    [String.raw`labels = x\u0029 OR project = BETA`, String.raw`project in ("ALPHA") AND (labels = "x)" OR project = BETA)`],
    ['summary ~ "order by" OR project = BETA', 'project in ("ALPHA") AND (summary ~ "order by" OR project = BETA)'],
    ["summary ~ 'a) OR (b'", 'project in ("ALPHA") AND (summary ~ "a) OR (b")'],
    [
      "cf[10010] = 5 AND created > -5d ORDER BY cf[10010] ASC, key DESC",
      'project in ("ALPHA") AND (cf[10010] = 5 AND created > -5d) ORDER BY cf[10010] ASC, key DESC',
    ],
    [
      "assignee = currentUser() && status != Done || !(labels is EMPTY)",
      'project in ("ALPHA") AND (assignee = currentUser() && status != Done || !(labels is EMPTY))',
    ],
    ["status = Done\n\torder\r\nby\tupdated DESC", 'project in ("ALPHA") AND (status = Done) order by updated DESC'],
    ["ORDER BY created", 'project in ("ALPHA") ORDER BY created'],
    ["reorder = 1", 'project in ("ALPHA") AND (reorder = 1)'],
  ])("holds %j as %j", (query, held) => {
    expect(constrainJql(query, ALPHA)).toBe(held);
    expect(jqlOutcome(query)).toBe("held");
  });

  it("no query built from quotes, backslashes, escapes, parentheses and ORDER BY escapes (fuzzed)", () => {
    const piece = fc.constantFrom(
      "x = a",
      " ",
      '"',
      "'",
      "\\",
      "\\\\",
      '\\"',
      "\\'",
      "\\ ",
      "\\u0022",
      "\\u0029",
      "\\u00",
      "(",
      ")",
      " OR project = BETA OR ",
      " AND ",
      " order by key",
      ",",
      "!",
      "\t",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        expect(jqlOutcome(pieces.join(""))).not.toBe("escaped");
      }),
      { numRuns: 1500, seed: 20260512 },
    );
  });

  it("no value made of quotes and escapes closes the wrapper around `) OR project = BETA OR (` (fuzzed)", () => {
    const form = fc.constantFrom(
      "a",
      'a\\"',
      "\\'",
      "a\\\\",
      "a\\ ",
      "\\u0022",
      '"b\\"c"',
      "'b\\'c'",
      '"\\\\"',
      "'\\\\'",
      '"\\""',
      '"',
      "'",
      ")",
    );
    const value = fc.array(form, { minLength: 1, maxLength: 2 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(
        value,
        value,
        fc.constantFrom(") OR project = BETA OR (", " OR project = BETA OR ", ") OR project = BETA ORDER BY key "),
        (a, b, middle) => {
          expect(jqlOutcome(`labels = ${a}${middle}labels = ${b}`)).not.toBe("escaped");
        },
      ),
      { numRuns: 4000, seed: 20260512 },
    );
  });

  it("without a project list the query passes unchanged", () => {
    const query = String.raw`labels = a\") OR project = BETA OR (labels = "b\"c"`;
    expect(constrainJql(query, OPEN_POLICY)).toBe(query);
  });
});

describe("CQL under a space list: no escape form leaves the wrapper", () => {
  it.each([
    String.raw`label = a\") OR space = HR OR (label = "b\"c"`,
    String.raw`label = a\') OR space = HR OR (label = 'b\'c'`,
    String.raw`title ~ "a\\") OR space = HR OR (title ~ "c"`,
    String.raw`label = a\ b`,
    // How Confluence reads \\ is not written down: no value may put one before a quote mark.
    String.raw`title ~ "a\\"`,
    String.raw`title ~ 'a\\'`,
    String.raw`title ~ "a\\\"b"`,
    String.raw`title ~ "a\u0022"`,
    String.raw`title ~ "a\n"`,
    "title ~ a\\",
    "type = page) OR (space = HR",
    "(type = page",
    'title ~ "open',
    "title ~ 'open",
    "type = page /* ) OR space = HR */",
    "type = page -- ) OR (space = HR",
    "type = page # x",
    "type = page ORDER BY title) OR (space = HR",
    "type = page order by title OR space = HR",
    "type = page && space = HR",
    "type = page | space = HR",
    "type = page\u0000",
    'title ~ "a\nb"',
    "type = page\u00a0ORDER BY title",
  ])("refuses %j", (query) => {
    expect(() => constrainCql(query, ALPHA)).toThrow(ToolError);
  });

  it.each([
    ['type = page AND text ~ "x"', 'space in ("ENG") AND (type = page AND text ~ "x")'],
    [String.raw`title = "\"Advanced Searching\""`, String.raw`space in ("ENG") AND (title = "\"Advanced Searching\"")`],
    [String.raw`title ~ 'it\'s' ORDER BY lastmodified DESC`, String.raw`space in ("ENG") AND (title ~ "it's") ORDER BY lastmodified DESC`],
    [String.raw`text ~ "win\\*"`, String.raw`space in ("ENG") AND (text ~ "win\\*")`],
    ['title ~ "order by" OR space = HR', 'space in ("ENG") AND (title ~ "order by" OR space = HR)'],
    [
      'lastmodified > now("-4w") AND creator = 557058:abc-d.e',
      'space in ("ENG") AND (lastmodified > now("-4w") AND creator = 557058:abc-d.e)',
    ],
  ])("holds %j as %j", (query, held) => {
    expect(constrainCql(query, ALPHA)).toBe(held);
  });

  it("no query built from quotes, backslashes, parentheses and ORDER BY reaches another space in the sandbox (fuzzed)", () => {
    const state = seedConfluence(new Rng(42));
    const ctx = { state, currentUserId: state.currentUserId, now: Date.now() };
    const piece = fc.constantFrom(
      "a",
      " ",
      '"',
      "'",
      "\\",
      "\\\\",
      '\\"',
      "\\'",
      "(",
      ")",
      "type = page",
      " OR space = HR ",
      " OR type = page ",
      " AND ",
      "title ~ ",
      "order by title",
      ",",
      "\t",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        let held: string;
        try {
          held = constrainCql(pieces.join(""), ALPHA);
        } catch (err) {
          if (err instanceof ToolError) return;
          throw err;
        }
        let found;
        try {
          found = runCql(parseCql(held), ctx);
        } catch {
          return; // Confluence would refuse it
        }
        expect(found.every((c) => c.spaceKey === "ENG")).toBe(true);
      }),
      { numRuns: 1500, seed: 20260512 },
    );
  });

  it("without a space list the query passes unchanged", () => {
    expect(constrainCql(String.raw`label = a\") OR space = HR`, OPEN_POLICY)).toBe(String.raw`label = a\") OR space = HR`);
  });
});

describe("the second line: a held search answering outside the lists is withheld whole", () => {
  it("Jira: an issue of another project withholds the answer, with a warning to log", () => {
    expect(() => assertIssuesHeld(ALPHA, [{ key: "ALPHA-1" }, { key: "alpha-2" }])).not.toThrow();
    expect(() => assertIssuesHeld(OPEN_POLICY, [{ key: "BETA-1" }])).not.toThrow();
    let error: unknown;
    try {
      assertIssuesHeld(ALPHA, [{ key: "ALPHA-1" }, { key: "BETA-7" }, { key: "BETA-8" }, { key: "12345" }]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toMatch(
      /^Jira answered this search with issues outside the projects this client is limited to \(ALPHA\), so Bridgekeeper withheld the whole answer\./,
    );
    // The projects the answer strayed into are for the log, not for the client.
    expect((error as ToolError).message).not.toMatch(/BETA|12345/);
    expect((error as ToolError).warning).toEqual({
      event: expect.stringMatching(/withheld/),
      details: { service: "Jira", outside: ["BETA", "12345"], allowed: ["ALPHA"] },
    });
  });

  it("Confluence: a result is placed by content.space.key, a space result's key or its container's link; one unplaced counts as outside", () => {
    expect(spaceOfResult({ content: { space: { key: "ENG" } } })).toBe("ENG");
    expect(spaceOfResult({ space: { key: "~5b10ac" }, entityType: "space" })).toBe("~5b10ac");
    expect(spaceOfResult({ resultGlobalContainer: { title: "Eng", displayUrl: "/spaces/ENG" } })).toBe("ENG");
    expect(spaceOfResult({ resultGlobalContainer: { title: "Eng", displayUrl: "/display/ENG" } })).toBe("ENG");
    expect(spaceOfResult({ entityType: "user" })).toBeNull();
    expect(() => assertResultsHeld(ALPHA, [{ content: { space: { key: "ENG" } } }])).not.toThrow();
    expect(() => assertResultsHeld(ALPHA, [{ content: { space: { key: "ENG" } } }, { content: { space: { key: "HR" } } }])).toThrow(
      /^Confluence answered this search with results outside the spaces this client is limited to \(ENG\), so Bridgekeeper withheld the whole answer\.[^H]*$/,
    );
    expect(() => assertResultsHeld(ALPHA, [{ entityType: "user" }])).toThrow(
      /^Confluence answered this search with results outside the spaces this client is limited to \(ENG\)/,
    );
    expect(() => assertResultsHeld(OPEN_POLICY, [{ entityType: "user" }])).not.toThrow();
  });
});
