import { describe, expect, it } from "vitest";
import { closest, editDistance } from "./format";

describe("did-you-mean", () => {
  it("counts insertions, deletions, changes and a swap of neighbours as one edit each", () => {
    expect(editDistance("sprint", "sprint")).toBe(0);
    expect(editDistance("sprintt", "sprint")).toBe(1);
    expect(editDistance("asignee", "assignee")).toBe(1);
    expect(editDistance("stauts", "status")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("suggests only a near name, the nearest, whatever the case", () => {
    const names = ["sprint", "status", "assignee", "Story Points", "labels"];
    expect(closest("Sprintt", names)).toBe("sprint");
    expect(closest("stauts", names)).toBe("status");
    expect(closest("story point", names)).toBe("Story Points");
    expect(closest("priority", names)).toBeNull();
    expect(closest("lbl", names)).toBeNull();
  });
});
