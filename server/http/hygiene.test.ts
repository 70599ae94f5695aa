import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../test/test-database";
import { startTestApp, type TestApp } from "../test/test-app";

describe("HTTP hygiene", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("GET /api/mcp/health is public and reports status, version and uptime", async () => {
    const res = await t.client().get("/api/mcp/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version: "0.0.0-test", uptime: expect.any(Number), database: "ok" });
    expect(res.body.uptime).toBeGreaterThanOrEqual(0);
  });

  it("unknown /api paths get a JSON 404, whatever the method", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const res = await t.client().request(method, "/api/does-not-exist");
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(res.body.error.code).toBe("not_found");
    }
  });

  it("a write to a non-API path gets JSON, never an HTML error page", async () => {
    const res = await t.client().request("POST", "/some/page");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("sends the security headers on every response", async () => {
    for (const path of ["/api/mcp/health", "/api/session", "/api/nope", "/mcp"]) {
      const res = await t.client().get(path);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-eval");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-powered-by")).toBeNull();
      expect(res.headers.get("strict-transport-security")).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(res.headers.get("x-permitted-cross-domain-policies")).toBe("none");
      expect(res.headers.get("x-xss-protection")).toBe("0");
    }
  });

  it("every error body carries the request id the response header names", async () => {
    const res = await t.client().get("/api/session");
    expect(res.body.requestId).toBe(res.headers.get("x-request-id"));
  });

  it("health answers 503 when the database does not", async () => {
    const database = await openTestDatabase();
    const broken = await startTestApp({
      database: {
        ...database,
        ping: () => Promise.reject(new Error("connection refused")),
      },
    });
    try {
      const res = await broken.client().get("/api/mcp/health");
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: "degraded", database: "unavailable" });
      // The process itself is alive: a liveness probe must not restart it for its database.
      const live = await broken.client().get("/api/mcp/health/live");
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: "ok", version: "0.0.0-test", uptime: expect.any(Number) });
      expect(live.headers.get("cache-control")).toBe("no-store");
    } finally {
      await broken.close();
    }
  });
});
