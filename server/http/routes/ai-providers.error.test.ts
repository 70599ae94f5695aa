import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AI_PROVIDER_MESSAGES } from "../../../contract/ai-providers";
import { AI_PROVIDER_KEY_AGAIN } from "../../modules/ai-providers/ai-providers.service";
import { buildAiProvider, signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

const valid = (over: Record<string, unknown> = {}) => ({
  name: "GPT",
  provider: "openai",
  model: "gpt-4o",
  apiKey: "sk-error-test-key-0001",
  isActive: true,
  ...over,
});
const M = AI_PROVIDER_MESSAGES;

describe("AI providers API: bad input", () => {
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(() => t.close());

  const count = () => t.container.repos.aiProvidersRepo.count();

  it("an empty body names every required field with the spec's messages (§5)", async () => {
    const res = await admin.post("/api/ai-providers", {});
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.fields).toEqual({ name: M.name, provider: M.provider, model: M.model, apiKey: M.apiKey });
  });

  it("the empty form as the console sends it (blank strings) names every field at once, the key's too (issue 24 item 11)", async () => {
    const before = await count();
    const res = await admin.post("/api/ai-providers", { name: "", provider: "", model: "", apiKey: "" });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ name: M.name, provider: M.provider, model: M.model, apiKey: M.apiKey });
    expect(await count()).toBe(before);
  });

  it.each([
    ["a blank name", { name: "" }, "name", M.name],
    ["a name of spaces", { name: "   " }, "name", M.name],
    ["no provider", { provider: undefined }, "provider", M.provider],
    ["an unknown provider", { provider: "mistral" }, "provider", M.provider],
    ["a provider of the wrong type", { provider: 42 }, "provider", M.provider],
    ["a blank model", { model: "" }, "model", M.model],
    ["a blank API key for a hosted provider", { apiKey: "" }, "apiKey", M.apiKey],
    ["no API key", { apiKey: undefined }, "apiKey", M.apiKey],
    ["a base URL on a provider that takes none", { baseUrl: "https://api.example.com/v1" }, "baseUrl", M.baseUrlNotAllowed],
    ["an OpenAI-compatible provider without a base URL", { provider: "openai-compatible", baseUrl: "" }, "baseUrl", M.baseUrlRequired],
    ["a base URL that is no URL", { provider: "openai-compatible", baseUrl: "not a url" }, "baseUrl", M.baseUrl],
    ["a base URL that is not http(s)", { provider: "openai-compatible", baseUrl: "file:///etc/passwd" }, "baseUrl", M.baseUrl],
    ["a base URL with credentials", { provider: "openai-compatible", baseUrl: "https://user:pw@llm.example.com/v1" }, "baseUrl", M.baseUrl],
    ["a model id with spaces", { model: "gpt 4o" }, "model", "A model id has letters, digits and . _ - : / @ only"],
    ["a name over 100 characters", { name: "n".repeat(101) }, "name", "Must be at most 100 characters"],
    ["isActive that is not a boolean", { isActive: "yes" }, "isActive", undefined],
  ])("create with %s is a 400 under the field", async (_what, over, field, message) => {
    const before = await count();
    const res = await admin.post("/api/ai-providers", valid(over));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields)).toContain(field);
    if (message) expect(res.body.error.fields[field]).toBe(message);
    expect(await count()).toBe(before);
  });

  it("a body far over the limit (1 MB name) is 413, and nothing is stored", async () => {
    const before = await count();
    const res = await admin.post("/api/ai-providers", valid({ name: "x".repeat(1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(await count()).toBe(before);
  });

  it("malformed JSON is a 400, not a 500", async () => {
    const res = await admin.request("POST", "/api/ai-providers", { body: '{"name":', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("unknown and malformed ids are 404 for edit, delete and test", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "1%20or%201=1"]) {
      for (const [method, path, json] of [
        ["PATCH", `/api/ai-providers/${id}`, { isActive: false }],
        ["DELETE", `/api/ai-providers/${id}`, undefined],
        ["POST", `/api/ai-providers/${id}/test`, {}],
      ] as const) {
        const res = await admin.request(method, path, json ? { json } : {});
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.message).toBe("AI provider not found");
      }
    }
  });

  describe("edits", () => {
    it.each([
      ["a blank name", { name: "" }, "name", M.name],
      ["an unknown provider", { provider: "mistral" }, "provider", M.provider],
      ["a blank model", { model: "  " }, "model", M.model],
      ["a base URL on this OpenAI provider", { baseUrl: "https://llm.example.com/v1" }, "baseUrl", M.baseUrlNotAllowed],
      ["a move to OpenAI-compatible without a base URL", { provider: "openai-compatible" }, "baseUrl", M.baseUrlRequired],
    ])("%s is a 400 under the field, and the row is unchanged", async (_what, changes, field, message) => {
      const row = await buildAiProvider(t.container);
      const res = await admin.request("PATCH", `/api/ai-providers/${row.id}`, { json: changes });
      expect(res.status).toBe(400);
      expect(res.body.error.fields[field]).toBe(message);
      expect(await t.container.repos.aiProvidersRepo.findById(row.id)).toEqual(row);
    });

    it("the stored key is not carried to another provider kind: the key must be given again", async () => {
      const row = await buildAiProvider(t.container);
      const res = await admin.request("PATCH", `/api/ai-providers/${row.id}`, {
        json: { provider: "anthropic", model: "claude-opus-5-5", apiKey: "" },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.fields.apiKey).toBe(AI_PROVIDER_KEY_AGAIN);
      expect(await t.container.repos.aiProvidersRepo.findById(row.id)).toEqual(row);
      // With the key given again, the move is fine.
      const moved = await admin.request("PATCH", `/api/ai-providers/${row.id}`, {
        json: { provider: "anthropic", model: "claude-opus-5-5", apiKey: "sk-ant-moved-key-7777" },
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ provider: "anthropic", apiKeyHint: "7777" });
    });

    it("nor to a base URL of the editor's choosing: moving to OpenAI-compatible drops the stored key", async () => {
      const row = await buildAiProvider(t.container);
      const res = await admin.request("PATCH", `/api/ai-providers/${row.id}`, {
        json: { provider: "openai-compatible", baseUrl: "https://llm.example.com/v1", apiKey: "" },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ provider: "openai-compatible", baseUrl: "https://llm.example.com/v1", apiKeyHint: null });
      expect((await t.container.repos.aiProvidersRepo.findById(row.id))!.keySealed).toBeNull();
    });

    it("moving back to a hosted kind without a key is refused: it needs one", async () => {
      const local = (
        await admin.post("/api/ai-providers", {
          name: "Local",
          provider: "openai-compatible",
          model: "llama3",
          baseUrl: "http://127.0.0.1:11434/v1",
          apiKey: "",
        })
      ).body;
      const res = await admin.request("PATCH", `/api/ai-providers/${local.id}`, {
        json: { provider: "openai", model: "gpt-4o", baseUrl: "" },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.fields.apiKey).toBe(M.apiKey);
    });

    it("switching a compatible provider to a hosted kind drops its base URL", async () => {
      const local = (
        await admin.post("/api/ai-providers", {
          name: "Gateway",
          provider: "openai-compatible",
          model: "gpt-4o",
          baseUrl: "http://127.0.0.1:4000/v1",
          apiKey: "gw-key-4000",
        })
      ).body;
      const res = await admin.request("PATCH", `/api/ai-providers/${local.id}`, {
        json: { provider: "openai", apiKey: "sk-real-openai-4001" },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ provider: "openai", baseUrl: null, apiKeyHint: "4001" });
    });
  });
});

/** Issue 9's rule for the integrations, applied to a provider's base URL: no server-side request forgery. */
describe("AI providers API: the base URL under the upstream host rules", () => {
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ config: { UPSTREAM_ALLOW_PRIVATE: false } });
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(() => t.close());

  it.each([
    "http://127.0.0.1:11434/v1",
    "http://169.254.169.254/latest",
    "http://[::1]:8080/v1",
    "http://10.0.0.5/v1",
    "http://localhost:11434/v1",
    "http://0x7f000001/v1",
  ])("saving %s is a 400 naming the rule under the base URL", async (baseUrl) => {
    const res = await admin.post("/api/ai-providers", valid({ provider: "openai-compatible", model: "llama3", baseUrl }));
    expect(res.status).toBe(400);
    expect(res.body.error.fields.baseUrl).toMatch(
      /loopback, private, link-local or metadata address; .*UPSTREAM_ALLOW_PRIVATE=true or UPSTREAM_ALLOWED_HOSTS/,
    );
    expect(await t.container.repos.aiProvidersRepo.count()).toBe(0);
  });

  it("an edit is held to the same rule", async () => {
    const created = await admin.post(
      "/api/ai-providers",
      valid({ provider: "openai-compatible", model: "llama3", baseUrl: "https://203.0.113.10/v1" }),
    );
    expect(created.status).toBe(201);
    const res = await admin.request("PATCH", `/api/ai-providers/${created.body.id}`, { json: { baseUrl: "http://169.254.169.254/v1" } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.baseUrl).toMatch(/169\.254\.169\.254, a loopback, private, link-local or metadata address/);
    expect((await admin.get("/api/ai-providers")).body[0].baseUrl).toBe("https://203.0.113.10/v1");
  });
});
