import { describe, expect, it } from "vitest";
import { splitSettled } from "./settled-markdown";

describe("splitSettled", () => {
  it("keeps whole paragraphs and headings settled, the block being written in the tail", () => {
    expect(splitSettled("# Title\n\nFirst paragraph.\n\nSecond, still wri")).toEqual({
      settled: "# Title\n\nFirst paragraph.\n\n",
      tail: "Second, still wri",
    });
    expect(splitSettled("Only one paragraph so far")).toEqual({ settled: "", tail: "Only one paragraph so far" });
  });

  it("never splits inside a code fence", () => {
    const text = "Intro.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n";
    expect(splitSettled(text)).toEqual({ settled: "Intro.\n\n", tail: "```ts\nconst a = 1;\n\nconst b = 2;\n" });
    const closed = "```sh\nls\n```\n\nAfter the code.";
    expect(splitSettled(closed)).toEqual({ settled: "```sh\nls\n```\n\n", tail: "After the code." });
  });

  it("never splits a loose list, a list item's next paragraph or a quote", () => {
    for (const text of ["- a\n\n- b", "1. a\n\n2. b", "- a\n\n  more about a", "> quoted\n\n> more"])
      expect(splitSettled(text).settled).toBe("");
  });

  it("joined, the halves are the text", () => {
    const text = "A\n\n- x\n- y\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nEnd";
    const { settled, tail } = splitSettled(text);
    expect(settled + tail).toBe(text);
    expect(tail).toBe("End");
  });
});
