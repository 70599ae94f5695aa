import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../lib/secret-box";
import { aiProviderKeyPurpose } from "../../modules/ai-providers/ai-providers.service";
import { buildAiProvider, signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("AI providers API", () => {
  let t: TestApp;
  let admin: TestClient;
  const secretBox = createSecretBox(randomBytes(32));

  beforeAll(async () => {
    t = await startTestApp({ secretBox });
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(() => t.close());

  const KEY = "sk-proj-happy-path-key-7f3a";

  it("starts empty", async () => {
    const res = await admin.get("/api/ai-providers");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("creates a provider (active by default) and answers the DTO with the key's last four only", async () => {
    const res = await admin.post("/api/ai-providers", { name: "Production GPT", provider: "openai", model: "gpt-4o", apiKey: KEY });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "Production GPT",
      provider: "openai",
      model: "gpt-4o",
      baseUrl: null,
      apiKeyHint: "7f3a",
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.text).not.toContain(KEY);
    // Stored sealed: the row holds no key in clear, and the sealed value opens only for this row.
    const row = (await t.container.repos.aiProvidersRepo.findById(res.body.id))!;
    expect(row.keySealed).not.toContain(KEY);
    expect(secretBox.open(row.keySealed!, aiProviderKeyPurpose(row.id))).toBe(KEY);
    expect(() => secretBox.open(row.keySealed!, aiProviderKeyPurpose("00000000-0000-4000-8000-000000000000"))).toThrow();
  });

  it("lists providers newest first; a custom model id is accepted", async () => {
    await admin.post("/api/ai-providers", {
      name: "Claude",
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      apiKey: "sk-ant-api03-xyz-claude",
    });
    await admin.post("/api/ai-providers", {
      name: "Gemini",
      provider: "google",
      model: "gemini-2.5-pro-preview-06-05",
      apiKey: "AIza-gemini-key-0042",
      isActive: false,
    });
    const res = await admin.get("/api/ai-providers");
    expect(res.status).toBe(200);
    expect(res.body.map((p: { name: string }) => p.name).slice(0, 3)).toEqual(["Gemini", "Claude", "Production GPT"]);
    expect(res.body[0]).toMatchObject({ provider: "google", model: "gemini-2.5-pro-preview-06-05", isActive: false, apiKeyHint: "0042" });
  });

  it("an OpenAI-compatible provider keeps its base URL and may have no key", async () => {
    const res = await admin.post("/api/ai-providers", {
      name: "Local Llama",
      provider: "openai-compatible",
      model: "llama3.1:8b",
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: "",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", apiKeyHint: null });
    const row = (await t.container.repos.aiProvidersRepo.findById(res.body.id))!;
    expect(row.keySealed).toBeNull();
  });

  it("edits the form's fields; a blank key keeps the stored key", async () => {
    const { id } = (
      await admin.post("/api/ai-providers", { name: "Edit me", provider: "openai", model: "gpt-4o", apiKey: "sk-keep-this-key-9911" })
    ).body;
    const sealedBefore = (await t.container.repos.aiProvidersRepo.findById(id))!.keySealed;

    const res = await admin.request("PATCH", `/api/ai-providers/${id}`, {
      json: { name: "Edited", provider: "openai", model: "gpt-4-turbo", apiKey: "", isActive: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: "Edited", model: "gpt-4-turbo", apiKeyHint: "9911" });
    const row = (await t.container.repos.aiProvidersRepo.findById(id))!;
    expect(row.keySealed).toBe(sealedBefore);
    expect(secretBox.open(row.keySealed!, aiProviderKeyPurpose(id))).toBe("sk-keep-this-key-9911");
    // Whitespace only is blank too.
    expect((await admin.request("PATCH", `/api/ai-providers/${id}`, { json: { apiKey: "   " } })).body.apiKeyHint).toBe("9911");
  });

  it("a new key replaces the old one", async () => {
    const { id } = (
      await admin.post("/api/ai-providers", {
        name: "Rotate",
        provider: "anthropic",
        model: "claude-opus-5-5",
        apiKey: "sk-ant-old-key-1111",
      })
    ).body;
    const res = await admin.request("PATCH", `/api/ai-providers/${id}`, { json: { apiKey: "sk-ant-new-key-2222" } });
    expect(res.status).toBe(200);
    expect(res.body.apiKeyHint).toBe("2222");
    const row = (await t.container.repos.aiProvidersRepo.findById(id))!;
    expect(secretBox.open(row.keySealed!, aiProviderKeyPurpose(id))).toBe("sk-ant-new-key-2222");
  });

  it("toggles isActive alone (the card's switch) and keeps everything else", async () => {
    const created = (
      await admin.post("/api/ai-providers", { name: "Toggle", provider: "google", model: "gemini-1.5-flash", apiKey: "AIza-toggle-5555" })
    ).body;
    const off = await admin.request("PATCH", `/api/ai-providers/${created.id}`, { json: { isActive: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ ...created, isActive: false, updatedAt: expect.any(String) });
    const on = await admin.request("PATCH", `/api/ai-providers/${created.id}`, { json: { isActive: true } });
    expect(on.body.isActive).toBe(true);
  });

  it("deletes a provider: 204, gone from the list, a second delete is 404", async () => {
    const { id } = (
      await admin.post("/api/ai-providers", { name: "Delete me", provider: "openai", model: "gpt-3.5-turbo", apiKey: "sk-delete-me-0000" })
    ).body;
    const res = await admin.request("DELETE", `/api/ai-providers/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await admin.get("/api/ai-providers")).body.some((p: { id: string }) => p.id === id)).toBe(false);
    expect((await admin.request("DELETE", `/api/ai-providers/${id}`)).status).toBe(404);
  });

  it("every change is in the audit trail, without the key", async () => {
    const { id } = (
      await admin.post("/api/ai-providers", { name: "Audited", provider: "openai", model: "gpt-4o", apiKey: "sk-audited-key-abcd" })
    ).body;
    await admin.request("PATCH", `/api/ai-providers/${id}`, { json: { apiKey: "sk-audited-key-efgh" } });
    await admin.request("DELETE", `/api/ai-providers/${id}`);
    const audit = await admin.get(`/api/admin/audit?targetType=ai-provider&targetId=${id}`);
    expect(audit.status).toBe(200);
    const mine = audit.body.events as { action: string; targetId: string | null; details: Record<string, unknown> | null }[];
    expect(mine.map((e) => e.action).sort()).toEqual(["ai-provider.created", "ai-provider.deleted", "ai-provider.updated"]);
    expect(mine.find((e) => e.action === "ai-provider.updated")!.details).toMatchObject({ keyChanged: true });
    expect(audit.text).not.toMatch(/sk-audited-key/);
  });

  it("the chat's resolveForCall opens the key of an active provider, and refuses an inactive or unknown one", async () => {
    const active = await buildAiProvider(t.container, { name: "For chat", apiKey: "sk-for-chat-3141" });
    await expect(t.container.services.aiProviders.resolveForCall(active.id)).resolves.toEqual({
      id: active.id,
      name: "For chat",
      provider: "openai",
      model: "gpt-4o",
      baseUrl: null,
      apiKey: "sk-for-chat-3141",
      isActive: true,
    });
    const inactive = await buildAiProvider(t.container, { isActive: false });
    await expect(t.container.services.aiProviders.resolveForCall(inactive.id)).rejects.toMatchObject({
      code: "provider_inactive",
      status: 409,
    });
    await expect(t.container.services.aiProviders.resolveForCall("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "not_found",
      status: 404,
    });
    // listActive: the chat's choices, oldest first, none inactive.
    const names = (await t.container.services.aiProviders.listActive()).map((p) => p.id);
    expect(names).toContain(active.id);
    expect(names).not.toContain(inactive.id);
  });
});
