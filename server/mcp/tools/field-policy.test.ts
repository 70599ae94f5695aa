import { describe, expect, it } from "vitest";
import { fieldKind, referencesIn } from "./field-policy";

/** How Jira's raw `fields` are read for the references a client's allow-list must check (field-policy.ts). */
describe("field references: the pieces", () => {
  it("a field's kind comes from its schema: parents, Epic Link, issue pickers, links, projects, sprints", () => {
    expect(fieldKind("parent", undefined)).toBe("issue");
    expect(fieldKind("project", undefined)).toBe("project");
    expect(fieldKind("issuelinks", undefined)).toBe("links");
    expect(fieldKind("summary", undefined)).toBe("plain");
    expect(fieldKind("customfield_10014", { schema: { type: "any", custom: "com.pyxis.greenhopper.jira:gh-epic-link" } })).toBe("issue");
    expect(fieldKind("customfield_10100", { schema: { type: "any", custom: "com.atlassian.jpo:jpo-custom-field-parent" } })).toBe("issue");
    expect(
      fieldKind("customfield_10200", {
        schema: { type: "array", items: "issuelinks", custom: "com.onresolve.jira.groovy.groovyrunner:multiple-issue-picker-cf" },
      }),
    ).toBe("issue");
    expect(fieldKind("customfield_10201", { schema: { type: "issuelink" } })).toBe("issue");
    expect(
      fieldKind("customfield_10300", { schema: { type: "project", custom: "com.atlassian.jira.plugin.system.customfieldtypes:project" } }),
    ).toBe("project");
    expect(
      fieldKind("customfield_10020", { schema: { type: "array", items: "json", custom: "com.pyxis.greenhopper.jira:gh-sprint" } }),
    ).toBe("sprint");
    expect(fieldKind("customfield_10016", { schema: { type: "number", custom: "com.pyxis.greenhopper.jira:jsw-story-points" } })).toBe(
      "plain",
    );
    // Not in Jira's field list: nothing says what it holds.
    expect(fieldKind("customfield_99999", undefined)).toBe("unknown");
  });

  it("references are read from Jira's JSON shapes; anything else is unreadable", () => {
    expect(referencesIn("issue", { key: "ops-1" })).toEqual({ refs: ["OPS-1"], unreadable: false });
    expect(referencesIn("issue", [{ id: "10001" }, "BK-2", 10003, null])).toEqual({ refs: ["10001", "BK-2", "10003"], unreadable: false });
    expect(referencesIn("issue", { name: "OPS-1" }).unreadable).toBe(true);
    expect(referencesIn("issue", "not a key").unreadable).toBe(true);
    expect(
      referencesIn("links", [
        { type: { name: "Blocks" }, outwardIssue: { key: "OPS-2" } },
        { add: { type: { name: "Relates" }, inwardIssue: { id: 10009 } } },
      ]),
    ).toEqual({ refs: ["OPS-2", "10009"], unreadable: false });
    expect(referencesIn("project", { id: "10001" })).toEqual({ refs: ["10001"], unreadable: false });
    expect(referencesIn("sprint", { id: 7 })).toEqual({ refs: ["7"], unreadable: false });
  });

  it("a reference giving both a key and an id is checked by both: Jira may place it by either", () => {
    expect(referencesIn("issue", { key: "BK-1", id: "10042" })).toEqual({ refs: ["BK-1", "10042"], unreadable: false });
    expect(
      referencesIn("links", [
        { type: { name: "Blocks" }, outwardIssue: { key: "BK-1", id: 10042 } },
        { type: { name: "Relates" }, inwardIssue: { key: "BK-2", id: "10043" } },
      ]),
    ).toEqual({ refs: ["BK-1", "10042", "BK-2", "10043"], unreadable: false });
    expect(referencesIn("project", { key: "BK", id: "10001" })).toEqual({ refs: ["BK", "10001"], unreadable: false });
    // Unreadable only when neither names anything Jira's way.
    expect(referencesIn("issue", { key: "not a key", id: "10042" })).toEqual({ refs: ["10042"], unreadable: false });
    expect(referencesIn("issue", { key: "not a key", id: "x" }).unreadable).toBe(true);
  });

  it("every operation of a link edit is read, not only the first", () => {
    const link = (key: string) => ({ type: { name: "Blocks" }, outwardIssue: { key } });
    expect(referencesIn("links", { add: link("BK-1"), remove: link("OPS-1") }).refs).toEqual(["BK-1", "OPS-1"]);
    expect(referencesIn("links", [{ set: [link("BK-1"), link("OPS-2")], edit: link("OPS-3") }]).refs).toEqual(["BK-1", "OPS-2", "OPS-3"]);
  });
});
