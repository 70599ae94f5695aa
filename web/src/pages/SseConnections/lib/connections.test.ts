import { describe, expect, it } from "vitest";
import type { SseConnectionDto } from "@contract/connections";
import { byLiveThenRecent, connectionCounts, kindLabel, orUnknown } from "./connections";

const row = (over: Partial<SseConnectionDto>): SseConnectionDto => ({
  id: "1",
  connectionId: "c1",
  clientId: "bk_a",
  isActive: true,
  createdAt: "2026-11-25T10:00:00Z",
  lastHeartbeat: "2026-11-25T10:00:00Z",
  clientInfo: { userAgent: null, ipAddress: null },
  kind: "sse-stream",
  userId: null,
  closedAt: null,
  ...over,
});

describe("SSE connections", () => {
  it("counts active rows, all rows and distinct clients", () => {
    const list = [row({ clientId: "a" }), row({ clientId: "a", isActive: false }), row({ clientId: "b" })];
    expect(connectionCounts(list)).toEqual({ active: 2, total: 3, uniqueClients: 2 });
    expect(connectionCounts([])).toEqual({ active: 0, total: 0, uniqueClients: 0 });
  });

  it("orders live ones first, then by the latest heartbeat", () => {
    const old = row({ connectionId: "old", lastHeartbeat: "2026-11-25T09:00:00Z" });
    const recent = row({ connectionId: "recent", lastHeartbeat: "2026-11-25T10:30:00Z" });
    const ended = row({ connectionId: "ended", isActive: false, lastHeartbeat: "2026-11-25T11:00:00Z" });
    expect([ended, old, recent].sort(byLiveThenRecent).map((c) => c.connectionId)).toEqual(["recent", "old", "ended"]);
  });

  it("names kinds and fills missing values with Unknown", () => {
    expect(kindLabel("legacy-sse")).toBe("Legacy SSE");
    expect(kindLabel("future-kind")).toBe("future-kind");
    expect(orUnknown(null)).toBe("Unknown");
    expect(orUnknown("  ")).toBe("Unknown");
    expect(orUnknown("10.0.0.1")).toBe("10.0.0.1");
  });
});
