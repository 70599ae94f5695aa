import { describe, expect, it } from "vitest";
import { fileNameFromDisposition } from "./export";

describe("fileNameFromDisposition", () => {
  it("reads the server's quoted or bare file name", () => {
    expect(fileNameFromDisposition('attachment; filename="mcp-server-logs-2026-11-25.csv"')).toBe("mcp-server-logs-2026-11-25.csv");
    expect(fileNameFromDisposition("attachment; filename=mcp-server-logs-2026-11-25.csv")).toBe("mcp-server-logs-2026-11-25.csv");
  });

  it("is null without a usable name", () => {
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition("attachment")).toBeNull();
    expect(fileNameFromDisposition('attachment; filename=""')).toBeNull();
    expect(fileNameFromDisposition('attachment; filename="../etc/passwd"')).toBeNull();
  });
});
