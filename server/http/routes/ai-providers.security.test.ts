import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAiProvider, signedInAs } from "../../test/factories";
import type { TestClient, TestResponse } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("AI providers API: who may do what", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("anonymous callers get 401 on every route", async () => {
    const row = await buildAiProvider(t.container);
    const anon = t.client();
    for (const res of [
      await anon.get("/api/ai-providers"),
      await anon.post("/api/ai-providers", { name: "x", provider: "openai", model: "gpt-4o", apiKey: "sk-anon" }),
      await anon.request("PATCH", `/api/ai-providers/${row.id}`, { json: { isActive: false } }),
      await anon.request("DELETE", `/api/ai-providers/${row.id}`),
      await anon.post(`/api/ai-providers/${row.id}/test`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthenticated");
    }
    expect(await t.container.repos.aiProvidersRepo.findById(row.id)).toEqual(row);
  });

  it("a viewer reads the list, but every write is 403 and changes nothing", async () => {
    const { client: viewer } = await signedInAs(t, ["viewer"]);
    const row = await buildAiProvider(t.container);
    const before = await t.container.repos.aiProvidersRepo.count();
    const list = await viewer.get("/api/ai-providers");
    expect(list.status).toBe(200);
    expect(list.body.some((p: { id: string }) => p.id === row.id)).toBe(true);
    for (const res of [
      await viewer.post("/api/ai-providers", { name: "sneaky", provider: "openai", model: "gpt-4o", apiKey: "sk-sneaky" }),
      await viewer.request("PATCH", `/api/ai-providers/${row.id}`, { json: { isActive: false, name: "taken" } }),
      await viewer.request("DELETE", `/api/ai-providers/${row.id}`),
      await viewer.post(`/api/ai-providers/${row.id}/test`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect(await t.container.repos.aiProvidersRepo.findById(row.id)).toEqual(row);
    expect(await t.container.repos.aiProvidersRepo.count()).toBe(before);
  });

  it("a user with no role cannot even read them", async () => {
    const { client } = await signedInAs(t, []);
    expect((await client.get("/api/ai-providers")).status).toBe(403);
  });

  it("an operator manages AI providers", async () => {
    const { client: operator } = await signedInAs(t, ["operator"]);
    const res = await operator.post("/api/ai-providers", {
      name: "Operator's",
      provider: "anthropic",
      model: "claude-haiku-5-5",
      apiKey: "sk-ant-operator-1234",
    });
    expect(res.status).toBe(201);
    expect((await operator.request("PATCH", `/api/ai-providers/${res.body.id}`, { json: { isActive: false } })).status).toBe(200);
    expect((await operator.request("DELETE", `/api/ai-providers/${res.body.id}`)).status).toBe(204);
  });

  it("a cookie-authenticated write from another site is refused (CSRF), and nothing is stored", async () => {
    const { client: admin } = await signedInAs(t, ["admin"]);
    const row = await buildAiProvider(t.container);
    const before = await t.container.repos.aiProvidersRepo.count();
    const crossSite: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }];
    for (const headers of crossSite) {
      for (const res of [
        await admin.post("/api/ai-providers", { name: "csrf", provider: "openai", model: "gpt-4o", apiKey: "sk-csrf" }, headers),
        await admin.request("PATCH", `/api/ai-providers/${row.id}`, { json: { isActive: false }, headers }),
        await admin.request("DELETE", `/api/ai-providers/${row.id}`, { headers }),
        await admin.post(`/api/ai-providers/${row.id}/test`, {}, headers),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe("csrf_rejected");
      }
    }
    expect(await t.container.repos.aiProvidersRepo.findById(row.id)).toEqual(row);
    expect(await t.container.repos.aiProvidersRepo.count()).toBe(before);
    // The same write from the console's own origin goes through.
    expect(
      (
        await admin.request("PATCH", `/api/ai-providers/${row.id}`, {
          json: { isActive: false },
          headers: { origin: t.baseUrl, "sec-fetch-site": "same-origin" },
        })
      ).status,
    ).toBe(200);
  });
});

/**
 * A key goes in and never comes out, not in an answer, a log line or the database in clear
 * (docs/decisions.md#secrets-at-rest, #write-only-secrets, and rule 5 of the house).
 */
describe("AI providers API: the key never leaves", () => {
  let t: TestApp;
  let admin: TestClient;
  const responses: TestResponse<any>[] = [];
  const KEYS = ["sk-proj-NEVER-SHOWN-first-key-Q1w2", "sk-proj-NEVER-SHOWN-second-key-E3r4", "NEVER-SHOWN-compatible-key-T5y6"];

  const record = async (res: Promise<TestResponse<any>>) => {
    const r = await res;
    responses.push(r);
    return r;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(() => t.close());

  it("through create, list, edit, toggle, a failing edit, a test and delete", async () => {
    const created = await record(
      admin.post("/api/ai-providers", { name: "Secret keeper", provider: "openai", model: "gpt-4o", apiKey: KEYS[0] }),
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await record(admin.get("/api/ai-providers"));
    await record(admin.request("PATCH", `/api/ai-providers/${id}`, { json: { apiKey: KEYS[1] } }));
    await record(admin.request("PATCH", `/api/ai-providers/${id}`, { json: { isActive: false } }));
    // A refused edit with a key in it: the 400 does not echo it.
    const refused = await record(admin.request("PATCH", `/api/ai-providers/${id}`, { json: { apiKey: KEYS[1], name: "" } }));
    expect(refused.status).toBe(400);
    const refusedCreate = await record(admin.post("/api/ai-providers", { name: "x", provider: "nope", model: "m", apiKey: KEYS[0] }));
    expect(refusedCreate.status).toBe(400);
    const local = await record(
      admin.post("/api/ai-providers", {
        name: "Local",
        provider: "openai-compatible",
        model: "llama3",
        baseUrl: "http://127.0.0.1:9/v1",
        apiKey: KEYS[2],
      }),
    );
    // The test call fails (nothing listens on port 9): the reason is given, the key is not.
    const test = await record(admin.post(`/api/ai-providers/${local.body.id}/test`));
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ ok: false, answer: null });
    await record(admin.get("/api/admin/audit?targetType=ai-provider"));

    // The database holds them sealed only.
    for (const row of await t.container.repos.aiProvidersRepo.list()) {
      for (const key of KEYS) expect(JSON.stringify(row)).not.toContain(key);
    }
    await record(admin.request("DELETE", `/api/ai-providers/${id}`));

    for (const res of responses) for (const key of KEYS) expect(res.text).not.toContain(key);
    // Not even a fragment longer than the hint.
    for (const res of responses) expect(res.text).not.toContain("NEVER-SHOWN");
    expect(t.logLines.length).toBeGreaterThan(0);
    for (const line of t.logLines) expect(line).not.toContain("NEVER-SHOWN");
  });
});
