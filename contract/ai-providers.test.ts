import { describe, expect, it } from "vitest";
import { AI_PROVIDER_MESSAGES as M, AiProviderCreateSchema, AiProviderUpdateSchema, aiProviderFormSchema } from "./ai-providers";

/** Each field's first message, as the console shows them (one under each field). */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[String(issue.path[0])] ??= issue.message;
  return fields;
}

const EMPTY_FORM = { name: "", provider: "", model: "", apiKey: "", baseUrl: "", isActive: true };

describe("the AI provider schemas: every message of spec §5 at once", () => {
  it("an empty Add form names all four fields on the first submit, the key's included", () => {
    expect(messages(aiProviderFormSchema(false).safeParse(EMPTY_FORM))).toEqual({
      name: M.name,
      provider: M.provider,
      model: M.model,
      apiKey: M.apiKey,
    });
  });

  it("the key's message shows beside the others whichever field is wrong, not only once they are valid", () => {
    const form = aiProviderFormSchema(false);
    expect(messages(form.safeParse({ ...EMPTY_FORM, name: "P", model: "gpt-4o" }))).toEqual({ provider: M.provider, apiKey: M.apiKey });
    expect(messages(form.safeParse({ ...EMPTY_FORM, provider: "openai" }))).toEqual({ name: M.name, model: M.model, apiKey: M.apiKey });
    expect(messages(form.safeParse({ ...EMPTY_FORM, provider: "mistral", name: "P", model: "m" }))).toEqual({
      provider: M.provider,
      apiKey: M.apiKey,
    });
  });

  it("an OpenAI-compatible kind needs no key but a base URL, told beside the other messages", () => {
    expect(messages(aiProviderFormSchema(false).safeParse({ ...EMPTY_FORM, provider: "openai-compatible" }))).toEqual({
      name: M.name,
      model: M.model,
      baseUrl: M.baseUrlRequired,
    });
  });

  it("editing a provider with a stored key: a blank key keeps it, so it is never required", () => {
    const edit = aiProviderFormSchema(true);
    expect(messages(edit.safeParse(EMPTY_FORM))).toEqual({ name: M.name, provider: M.provider, model: M.model });
    expect(edit.safeParse({ ...EMPTY_FORM, name: "P", provider: "openai", model: "gpt-4o" }).success).toBe(true);
  });

  it("the API's create schema reports the same fields together; its update schema never asks for the key", () => {
    expect(messages(AiProviderCreateSchema.safeParse({ name: "", provider: "", model: "", apiKey: "" }))).toEqual({
      name: M.name,
      provider: M.provider,
      model: M.model,
      apiKey: M.apiKey,
    });
    expect(messages(AiProviderCreateSchema.safeParse({}))).toEqual({
      name: M.name,
      provider: M.provider,
      model: M.model,
      apiKey: M.apiKey,
    });
    expect(messages(AiProviderUpdateSchema.safeParse({ name: "", apiKey: "" }))).toEqual({ name: M.name });
    expect(messages(AiProviderUpdateSchema.safeParse({ name: "", provider: "openai-compatible" }))).toEqual({
      name: M.name,
      baseUrl: M.baseUrlRequired,
    });
    // Not an object at all: one message, no rule across fields run on it.
    expect(AiProviderCreateSchema.safeParse(null).error?.issues).toHaveLength(1);
  });
});
