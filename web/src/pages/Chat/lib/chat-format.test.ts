import { describe, expect, it } from "vitest";
import { sourcesBadgeText, toolBadgeText, usageText } from "./chat-format";

describe("chat labels", () => {
  it("names a tool call's results as the spec writes them, or its error", () => {
    expect(toolBadgeText({ tool: "jira_search", results: 3 })).toBe("jira_search: 3 results");
    expect(toolBadgeText({ tool: "jira_search", results: 0, error: null })).toBe("jira_search: 0 results");
    expect(toolBadgeText({ tool: "confluence_search", results: 1 })).toBe("confluence_search: 1 results");
    expect(toolBadgeText({ tool: "jira_search", results: 0, error: "Jira is not configured." })).toBe(
      "jira_search: Jira is not configured.",
    );
  });

  it("shows token usage only when the provider counted some", () => {
    expect(usageText(null)).toBeNull();
    expect(usageText({ inputTokens: null, outputTokens: null })).toBeNull();
    expect(usageText({ inputTokens: 1200, outputTokens: 45 })).toMatch(/^Tokens: 1[,.\s\u202f]?200 in · 45 out$/);
    expect(usageText({ inputTokens: null, outputTokens: 7 })).toBe("Tokens: 7 out");
  });

  it("counts data sources", () => {
    expect(sourcesBadgeText(3)).toBe("3 data sources");
    expect(sourcesBadgeText(1)).toBe("1 data source");
  });
});
