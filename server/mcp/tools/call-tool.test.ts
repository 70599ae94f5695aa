import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorForStatus } from "../../upstream/http";
import { UpstreamError } from "../../upstream/errors";
import { MAX_ANSWER_CHARS, runTool, upstreamSentence } from "./call-tool";
import { createLogger } from "../../lib/logger";
import { defineTool, READ_ONLY, ToolError } from "./tool";

describe("the answer backstop", () => {
  it("cuts a text answer over the limit, says so and how to get less; the structured result is untouched", async () => {
    const huge = defineTool({
      name: "test_huge",
      service: "jira",
      scope: "read",
      toolset: "jira-issues",
      reaches: [],
      description: "test",
      input: z.object({ words: z.number().int() }),
      output: z.object({ words: z.number().int() }),
      annotations: { title: "test", ...READ_ONLY },
      run: async ({ words }) => ({ structured: { words }, text: "word ".repeat(words).trim() }),
    });
    const small = await runTool(huge, { words: 10 }, {} as never);
    expect((small.content[0] as { text: string }).text).toBe("word ".repeat(10).trim());
    const big = await runTool(huge, { words: 20_000 }, {} as never);
    const text = (big.content[0] as { text: string }).text;
    expect(text.length).toBeLessThan(MAX_ANSWER_CHARS + 300);
    expect(text).toMatch(/\[The answer was cut at 60000 characters: ask for less/);
    expect(big.structuredContent).toEqual({ words: 20_000 });
    expect(big.isError).toBeUndefined();
  });
});

describe("a tool error carrying a warning", () => {
  it("answers with its sentence and logs the warning; a plain tool error logs nothing", async () => {
    const refusing = (warning?: { event: string; details: Record<string, unknown> }) =>
      defineTool({
        name: "test_refusing",
        service: "jira",
        scope: "read",
        toolset: "jira-issues",
        reaches: [],
        description: "test",
        input: z.object({}),
        output: z.object({}),
        annotations: { title: "test", ...READ_ONLY },
        run: () => Promise.reject(new ToolError("Withheld. Try again.", warning)),
      });
    const lines: string[] = [];
    const log = createLogger({ level: "info" }, { write: (line: string) => void lines.push(line) });
    const warned = await runTool(
      refusing({ event: "answer withheld", details: { service: "Jira", outside: ["BETA"] } }),
      {},
      {} as never,
      log,
      { clientId: "bk_client", requestId: "req-1" },
    );
    expect(warned).toEqual({ content: [{ type: "text", text: "Withheld. Try again." }], isError: true });
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "answer withheld",
        tool: "test_refusing",
        clientId: "bk_client",
        requestId: "req-1",
        details: { service: "Jira", outside: ["BETA"] },
      }),
    ]);
    // The details do not write over the logger's own fields (its base has a `service` too).
    expect(lines[0]!.match(/"service":"Jira"/g)).toHaveLength(1);
    expect((JSON.parse(lines[0]!) as { service?: string }).service).not.toBe("Jira");
    await runTool(refusing(), {}, {} as never, log);
    expect(lines).toHaveLength(1);
  });
});

describe("upstream failures as sentences", () => {
  const said = (status: number, body: unknown, service: "jira" | "confluence" | "bitbucket" = "jira") =>
    upstreamSentence(errorForStatus(service, status, {}, JSON.stringify(body)));

  it("name the service and the status once, then the service's own words once, without a doubled full stop", () => {
    expect(said(404, { errorMessages: ["Issue does not exist or you do not have permission to see it."], errors: {} })).toBe(
      "Jira found nothing there (404). Check the key or id (search for it first), then try again. (Issue does not exist or you do not have permission to see it.)",
    );
    expect(said(409, { type: "error", error: { message: "Comment 7 is already resolved." } }, "bitbucket")).toBe(
      "Bitbucket reported a conflict (409): Comment 7 is already resolved. Read the current state again, then retry.",
    );
    expect(said(400, { errorMessages: ["The value 'ZZZ' does not exist for the field 'project'."], errors: {} })).toBe(
      "Jira refused the request as invalid (400): The value 'ZZZ' does not exist for the field 'project'. Fix the arguments (for example the JQL or CQL syntax) and try again.",
    );
    expect(said(403, { message: "Not permitted" }, "confluence")).toBe(
      "Confluence denied access (403): the account Bridgekeeper uses may not see this. Try something else, or ask an administrator for access. (Not permitted.)",
    );
  });

  it("say only what they know when the service said nothing, or when the error did not come from a status", () => {
    expect(upstreamSentence(errorForStatus("jira", 404, {}, ""))).toBe(
      "Jira found nothing there (404). Check the key or id (search for it first), then try again.",
    );
    expect(upstreamSentence(errorForStatus("jira", 409, {}, "<html>busy</html>"))).toBe(
      "Jira reported a conflict (409). Read the current state again, then retry.",
    );
    expect(upstreamSentence(new UpstreamError("jira", "bad_request", "The path leaves Jira's base URL"))).toBe(
      "Jira refused the request as invalid (400): The path leaves Jira's base URL. Fix the arguments (for example the JQL or CQL syntax) and try again.",
    );
    expect(
      upstreamSentence(new UpstreamError("confluence", "invalid_response", "Confluence sent a response that is not JSON", { status: 200 })),
    ).toBe("Confluence answered in a way Bridgekeeper could not read: Confluence sent a response that is not JSON. Try again later.");
  });
});
