import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticConsole } from "./console";
import { signedInAs } from "../test/factories";
import { basicAuth, formPost } from "../test/oauth";
import { startTestApp, type TestApp } from "../test/test-app";

/** A raw request, so that targets fetch() would normalise (`*`, backslashes) reach the server as written. */
function raw(baseUrl: string, method: string, target: string): Promise<{ status: number; type: string; body: string }> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path: target }, (res) => {
      let body = "";
      res
        .setEncoding("utf8")
        .on("data", (c) => (body += c))
        .on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), body }));
    });
    req.on("error", reject).end();
  });
}

const notHtml = (r: { type: string; body: string }) => {
  expect(r.type).not.toMatch(/html/);
  expect(r.body).not.toMatch(/^\s*</);
  expect(r.body).not.toMatch(/\bat \S+ \(/); // no stack frame
};

/**
 * Holes an adversarial review found (issue 9), each reproduced over HTTP: HTML error pages,
 * upstream content types, static files, methods on the token endpoint, query parameters in logs.
 */
describe("never an HTML page, a stack trace or a logged secret", () => {
  let t: TestApp;
  let upstream: Server;
  let upstreamType = "application/json, text/html";
  let token: string;
  let clientId: string;

  beforeAll(async () => {
    // An "Atlassian site" whose answers we choose.
    upstream = createServer((_req, res) => {
      res.writeHead(200, { "content-type": upstreamType }).end("<html><script>alert(1)</script></html>");
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const web = mkdtempSync(join(tmpdir(), "bk-web-"));
    mkdirSync(join(web, "assets"));
    writeFileSync(join(web, "index.html"), "<!doctype html><title>console</title>");
    writeFileSync(join(web, "assets", "app-1234.js"), "console.log(1)");
    t = await startTestApp({ config: { RATE_LIMIT_OAUTH_REQUESTS: 1000 }, app: { consoleHandler: staticConsole(web) } });
    const admin = (await signedInAs(t, ["admin"])).client;
    const { port } = upstream.address() as { port: number };
    expect(
      (
        await admin.post("/api/admin/atlassian-config", {
          instanceUrl: `http://127.0.0.1:${port}`,
          email: "a@example.test",
          apiToken: "tok-12345678",
          isActive: true,
        })
      ).status,
    ).toBe(200);
    const client = (
      await admin.post("/api/admin/oauth-clients", {
        name: "c",
        redirectUris: ["https://app.example.com/cb"],
        scopes: ["read"],
        isActive: true,
      })
    ).body;
    token = (
      await formPost(
        `${t.baseUrl}/oauth/token`,
        { grant_type: "client_credentials" },
        { authorization: basicAuth(client.clientId, client.clientSecret) },
      )
    ).body.access_token;
    (t as TestApp & { clientCreds: string }).clientCreds = basicAuth(client.clientId, client.clientSecret);
    clientId = client.clientId;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => upstream.close(r));
  });

  const proxied = async () => {
    const res = await fetch(`${t.baseUrl}/api/atlassian/jira/rest/api/3/myself`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, type: res.headers.get("content-type") ?? "", body: await res.text() };
  };

  it("an upstream type list such as 'application/json, text/html' is served as plain text, not a 500 page", async () => {
    const res = await proxied();
    expect(res.status).toBe(200);
    expect(res.type).toBe("text/plain; charset=utf-8");
    expect(res.body).toContain("<html>"); // the bytes, inert
  });

  it.each(["text/html", "application/json; charset=utf-16", "application/json;;", "application/xhtml+xml", "image/svg+xml"])(
    "an upstream %s is plain text",
    async (type) => {
      upstreamType = type;
      const res = await proxied();
      expect(res.type).toBe("text/plain; charset=utf-8");
    },
  );

  it("valid JSON types pass as JSON", async () => {
    upstreamType = "application/json;charset=UTF-8";
    expect((await proxied()).type).toBe("application/json; charset=utf-8");
  });

  it.each(["*", "/api/%E0%A4%A", "/api/users/%"])("a request target the app cannot route (%s) gets a JSON 4xx", async (target) => {
    const res = await raw(t.baseUrl, "GET", target);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    notHtml(res);
    expect(res.type).toMatch(/application\/json/);
  });

  it.each(["http:/x", "//", "/%", "/%00", "/..%2f..%2fetc/passwd"])("odd targets (%s) never get an HTML error page", async (target) => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const res = await raw(t.baseUrl, method, target);
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) notHtml(res);
    }
  });

  it("Express runs in production mode", () => {
    expect(t.app.get("env")).toBe("production");
  });

  it("a missing or traversing asset is a JSON 404, without an error log line", async () => {
    const before = t.logLines.length;
    for (const path of [
      "/assets/app-0000.js",
      "/assets/../index.html",
      "/assets/%2e%2e/index.html",
      "/assets/..%2f..%2fpackage.json",
      "/assets/%00.js",
    ]) {
      const res = await raw(t.baseUrl, "GET", path);
      expect(res.status, path).toBe(404);
      notHtml(res);
    }
    expect(t.logLines.slice(before).filter((l) => JSON.parse(l).level >= 50)).toEqual([]);
    expect((await raw(t.baseUrl, "GET", "/assets/app-1234.js")).status).toBe(200);
  });

  it.each(["GET", "PUT", "PATCH", "DELETE"])("the token endpoint refuses %s with 405 and Allow: POST", async (method) => {
    const creds = (t as TestApp & { clientCreds: string }).clientCreds;
    const res = await fetch(`${t.baseUrl}/oauth/token?grant_type=client_credentials`, { method, headers: { authorization: creds } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("revocation and registration take POST only too", async () => {
    for (const path of ["/oauth/revoke", "/oauth/register"]) {
      const res = await fetch(`${t.baseUrl}${path}`, { method: "PUT" });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  it("the proxy refuses backslashes, raw or encoded", async () => {
    for (const path of [
      "/api/atlassian/jira/rest\\..\\..\\admin",
      "/api/atlassian/jira/rest%5c..%5cadmin",
      "/api/atlassian/jira/rest/%5C",
    ]) {
      const { port } = new URL(t.baseUrl);
      const status = await new Promise<number>((resolve, reject) =>
        request({ host: "127.0.0.1", port, path, headers: { authorization: `Bearer ${token}` } }, (res) =>
          resolve(res.resume().statusCode!),
        )
          .on("error", reject)
          .end(),
      );
      expect(status, path).toBe(400);
    }
  });

  it("a failed query is logged by code and message: no parameter, no hash, no SQL", async () => {
    const admin = (await signedInAs(t, ["admin"])).client;
    const victim = (await admin.post("/api/users", { username: "logvictim", email: "logvictim@example.test", password: "first-password" }))
      .body;
    // Any update of the password now fails inside the database.
    await t.container.database.db.execute(
      "ALTER TABLE users ADD CONSTRAINT test_no_new_passwords CHECK (length(password_hash) < 10) NOT VALID",
    );
    try {
      const before = t.logLines.length;
      const res = await admin.request("PUT", `/api/users/${victim.id}`, { json: { password: "second-password-MARKER" } });
      expect(res.status).toBe(500);
      expect(res.body.error).toEqual({ code: "internal", message: "Internal server error" });
      const lines = t.logLines.slice(before);
      const failure = lines.map((l) => JSON.parse(l)).find((l) => l.err);
      expect(failure.err).toMatchObject({ type: "DatabaseError", code: "23514" });
      for (const line of lines) {
        expect(line).not.toContain("$argon2id$");
        expect(line).not.toMatch(/params|update "users"|MARKER/i);
      }
    } finally {
      await t.container.database.db.execute("ALTER TABLE users DROP CONSTRAINT test_no_new_passwords");
    }
  });

  describe("what the fuzz pass found (server/http/fuzz.test.ts), pinned", () => {
    it("a NUL in Basic client credentials is 401 invalid_client, not a database error", async () => {
      for (const header of [`Basic ${Buffer.from("\u0000:x").toString("base64")}`, `Basic ${Buffer.from("%00:x").toString("base64")}`]) {
        const res = await formPost(`${t.baseUrl}/oauth/token`, { grant_type: "client_credentials" }, { authorization: header });
        expect(res.status).toBe(401);
        expect(res.body.error).toBe("invalid_client");
      }
    });

    it("a lone surrogate is refused as broken Unicode wherever text is stored", async () => {
      const admin = (await signedInAs(t, ["admin"])).client;
      expect((await admin.post("/api/admin/bitbucket-config", { workspace: "\udc00", username: "u", appPassword: "p" })).status).toBe(400);
      expect(
        (await admin.post("/api/admin/oauth-clients", { name: "x", redirectUris: ["https://app.example.com/cb\ud800"], scopes: ["read"] }))
          .status,
      ).toBe(400);
      expect((await admin.post("/api/users", { username: "fz\ud800x", email: "fz@example.test", password: "secret-pass" })).status).toBe(
        400,
      );
    });

    it("audit dates out of the database's range are a 400", async () => {
      const admin = (await signedInAs(t, ["admin"])).client;
      for (const q of ["from=-271821-04-20", "to=275760-09-13", "from=10000-01-01"])
        expect((await admin.get(`/api/admin/audit?${q}`)).status, q).toBe(400);
    });

    it("OAuth redirects carry no HTML body, and an oversized state is refused outright", async () => {
      const query = `response_type=code&client_id=${clientId}&redirect_uri=${encodeURIComponent("https://app.example.com/cb")}&code_challenge=${"a".repeat(43)}&code_challenge_method=S256&scope=admin`;
      const res = await fetch(`${t.baseUrl}/oauth/authorize?${query}`, { redirect: "manual", headers: { accept: "text/html" } });
      expect(res.status).toBe(302);
      expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("invalid_scope");
      expect(res.headers.get("content-type") ?? "").not.toMatch(/html/);
      expect(await res.text()).toBe("");
      const long = await fetch(`${t.baseUrl}/oauth/authorize?response_type=code&client_id=x&state=${"s".repeat(5000)}`, {
        redirect: "manual",
      });
      expect(long.status).toBe(400);
    });

    it("a header block over Node's limit is a JSON 431", async () => {
      const res = await raw(t.baseUrl, "GET", `/api/users?q=${"a".repeat(20_000)}`);
      expect(res.status).toBe(431);
      expect(res.type).toMatch(/application\/json/);
    });
  });
});
