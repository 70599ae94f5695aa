import { describe, expect, it } from "vitest";
import { unifiedLineDiff } from "./line-diff";

const labels = { from: "a", to: "b" };

describe("unifiedLineDiff", () => {
  it("prints hunks with context, removals before additions, and counts the changes", () => {
    const a = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"].join("\n");
    const b = ["1", "2", "three", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"].join("\n");
    expect(unifiedLineDiff(a, b, labels)).toEqual({
      diff: [
        "--- a",
        "+++ b",
        "@@ -1,6 +1,6 @@",
        " 1",
        " 2",
        "-3",
        "+three",
        " 4",
        " 5",
        " 6",
        "@@ -10,3 +10,4 @@",
        " 10",
        " 11",
        " 12",
        "+13",
      ].join("\n"),
      added: 2,
      removed: 1,
    });
  });

  it("is empty for equal texts; handles empty sides; falls back to whole replacement past the cell budget", () => {
    expect(unifiedLineDiff("x\ny", "x\ny", labels)).toEqual({ diff: "", added: 0, removed: 0 });
    expect(unifiedLineDiff("", "new", labels).diff).toBe("--- a\n+++ b\n@@ -0,0 +1,1 @@\n+new");
    expect(unifiedLineDiff("old", "", labels).diff).toBe("--- a\n+++ b\n@@ -1,1 +0,0 @@\n-old");
    const wide = unifiedLineDiff("s\na\nb\nc\ne", "s\nb\nc\nd\ne", labels, 3, 4);
    expect(wide).toMatchObject({ added: 3, removed: 3 });
    expect(unifiedLineDiff("s\na\nb\nc\ne", "s\nb\nc\nd\ne", labels)).toMatchObject({ added: 1, removed: 1 });
  });
});
