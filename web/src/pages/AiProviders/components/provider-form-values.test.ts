import { describe, expect, it } from "vitest";
import { AiProviderCreateSchema, AiProviderUpdateSchema, type AiProvider, type AiProviderForm } from "@contract/ai-providers";
import { createBody, isCustomModel, updateBody, valuesOf } from "./provider-form-values";

const stored: AiProvider = {
  id: "7a0c2c1e-0000-4000-8000-000000000001",
  name: "Local",
  provider: "openai-compatible",
  model: "llama3.1:8b",
  baseUrl: "http://ollama.internal:11434/v1",
  apiKeyHint: "KQ7Z",
  isActive: false,
  createdAt: "2026-11-26T09:00:00.000Z",
  updatedAt: "2026-11-26T09:00:00.000Z",
};

/** What the form hands on once valid: a stored provider's values, its kind chosen. */
const submitted = (p: AiProvider): AiProviderForm => ({ ...valuesOf(p), provider: p.provider });

describe("the AI provider form's values (spec sections 4 and 7)", () => {
  it("opens a stored provider with its key blank", () => {
    expect(valuesOf(stored)).toEqual({
      name: "Local",
      provider: "openai-compatible",
      model: "llama3.1:8b",
      apiKey: "",
      baseUrl: "http://ollama.internal:11434/v1",
      isActive: false,
    });
    expect(valuesOf({ ...stored, provider: "openai", model: "gpt-4o", baseUrl: null }).baseUrl).toBe("");
  });

  it("tells a typed model id from one of the kind's list", () => {
    expect(isCustomModel("openai", "gpt-4o")).toBe(false);
    expect(isCustomModel("openai", "o3-mini")).toBe(true);
    expect(isCustomModel("anthropic", "")).toBe(false);
    // An OpenAI-compatible server has no list: its model is always typed, not "custom".
    expect(isCustomModel("openai-compatible", "llama3")).toBe(false);
    expect(isCustomModel("", "x")).toBe(false);
  });

  it("sends a base URL only for an OpenAI-compatible provider, as the server's schema takes it", () => {
    const hosted = createBody({ name: "P", provider: "openai", model: "gpt-4o", apiKey: "sk-1", baseUrl: "", isActive: true });
    expect(hosted).toEqual({ name: "P", provider: "openai", model: "gpt-4o", apiKey: "sk-1", baseUrl: null, isActive: true });
    expect(AiProviderCreateSchema.safeParse(hosted).success).toBe(true);
    const local = createBody({
      name: "L",
      provider: "openai-compatible",
      model: "llama3",
      apiKey: "",
      baseUrl: "http://ollama.internal:11434/v1",
      isActive: false,
    });
    expect(local.baseUrl).toBe("http://ollama.internal:11434/v1");
    expect(AiProviderCreateSchema.safeParse(local).success).toBe(true);
  });

  it("leaves the key out of an update when it is blank (the stored one is kept), and sends a typed one", () => {
    const kept = updateBody({ ...submitted(stored), apiKey: "  " });
    expect(kept).not.toHaveProperty("apiKey");
    expect(AiProviderUpdateSchema.safeParse(kept).success).toBe(true);
    expect(updateBody({ ...submitted(stored), apiKey: "sk-new" }).apiKey).toBe("sk-new");
    // Moved to a hosted kind: the base URL goes (null clears it on the server).
    expect(updateBody({ ...submitted(stored), provider: "openai", model: "gpt-4o", baseUrl: "" }).baseUrl).toBeNull();
  });
});
