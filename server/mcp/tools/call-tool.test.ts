import { describe, expect, it } from "vitest";
import { z } from "zod";
import { callTool, MAX_ANSWER_CHARS } from "./call-tool";
import { defineTool, READ_ONLY } from "./tool";

describe("the answer backstop", () => {
  it("cuts a text answer over the limit, says so and how to get less; the structured result is untouched", async () => {
    const huge = defineTool({
      name: "test_huge",
      service: "jira",
      scope: "read",
      toolset: "jira-issues",
      description: "test",
      input: z.object({ words: z.number().int() }),
      output: z.object({ words: z.number().int() }),
      annotations: { title: "test", ...READ_ONLY },
      run: async ({ words }) => ({ structured: { words }, text: "word ".repeat(words).trim() }),
    });
    const small = await callTool(huge, { words: 10 }, {} as never);
    expect((small.content[0] as { text: string }).text).toBe("word ".repeat(10).trim());
    const big = await callTool(huge, { words: 20_000 }, {} as never);
    const text = (big.content[0] as { text: string }).text;
    expect(text.length).toBeLessThan(MAX_ANSWER_CHARS + 300);
    expect(text).toMatch(/\[The answer was cut at 60000 characters: ask for less/);
    expect(big.structuredContent).toEqual({ words: 20_000 });
    expect(big.isError).toBeUndefined();
  });
});
