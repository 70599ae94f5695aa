import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppConfig } from "../container";
import { startTestApp, type TestApp } from "../test/test-app";

/**
 * Issue 9, hole 3: with TRUST_PROXY=true Express took the left-most X-Forwarded-For, which the
 * client writes: every per-IP limit was bypassed and audit addresses were forged. Now only named
 * proxies are believed, and the address is the one the nearest untrusted hop saw.
 */
describe("TRUST_PROXY names the proxies to believe", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: { TRUST_PROXY: ["loopback"] } });
  });
  afterAll(() => t.close());

  /** Where a failed sign-in with this X-Forwarded-For is recorded as coming from. */
  async function auditedIp(trust: AppConfig["TRUST_PROXY"], forwardedFor: string): Promise<string | null> {
    // buildApp applies the setting with app.set("trust proxy", ...); each case sets it the same way.
    t.app.set("trust proxy", trust);
    await t.client({ "x-forwarded-for": forwardedFor }).post("/api/login", { username: "nobody-here", password: "wrong-password" });
    const rows = await t.container.repos.auditRepo.list({ action: "auth.login", limit: 1 });
    return rows[0]?.ipAddress ?? null;
  }

  it("off: the socket's address, whatever the header says", async () => {
    expect(await auditedIp(false, "6.6.6.6")).toBe("127.0.0.1");
  });

  it("a trusted loopback proxy: the address it saw, never the left-most one the client wrote", async () => {
    expect(await auditedIp(["loopback"], "6.6.6.6, 7.7.7.7")).toBe("7.7.7.7");
  });

  it("one hop: the right-most entry", async () => {
    expect(await auditedIp(1, "6.6.6.6, 8.8.4.4")).toBe("8.8.4.4");
  });

  it("a proxy list that does not include the peer: the header is ignored", async () => {
    expect(await auditedIp(["10.0.0.0/8"], "6.6.6.6")).toBe("127.0.0.1");
  });
});
