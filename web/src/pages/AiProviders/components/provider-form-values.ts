import {
  AI_MODEL_OPTIONS,
  type AiProvider,
  type AiProviderCreate,
  type AiProviderForm,
  type AiProviderKind,
  type AiProviderUpdate,
} from "@contract/ai-providers";

/** What the form holds: as the contract's form schema, but the Provider may still be unchosen. */
export type ProviderFormValues = Omit<AiProviderForm, "provider"> & { provider: AiProviderKind | "" };

/** The fields a 400 may name (the server's messages go under them). */
export const PROVIDER_FORM_FIELDS = ["name", "provider", "model", "apiKey", "baseUrl", "isActive"] as const;

/** A new provider: nothing chosen yet, active (spec section 4). */
export const EMPTY_PROVIDER: ProviderFormValues = { name: "", provider: "", model: "", apiKey: "", baseUrl: "", isActive: true };

/** A stored provider in the form: its key blank (docs/decisions.md#write-only-secrets: write-only; blank keeps it). */
export function valuesOf(provider: AiProvider): ProviderFormValues {
  return {
    name: provider.name,
    provider: provider.provider,
    model: provider.model,
    apiKey: "",
    baseUrl: provider.baseUrl ?? "",
    isActive: provider.isActive,
  };
}

/** Whether a model id is typed rather than one of the kind's list (an OpenAI-compatible server has none). */
export const isCustomModel = (provider: AiProviderKind | "", model: string): boolean =>
  provider !== "" && AI_MODEL_OPTIONS[provider].length > 0 && model !== "" && !AI_MODEL_OPTIONS[provider].includes(model);

/** Only an OpenAI-compatible provider takes a base URL; the others send none (the server clears a stored one). */
const baseUrlOf = (values: AiProviderForm): string | null => (values.provider === "openai-compatible" ? values.baseUrl : null);

/** POST /api/ai-providers (spec section 7: name, provider, apiKey, model, isActive; a base URL beyond it). */
export const createBody = (values: AiProviderForm): AiProviderCreate => ({
  name: values.name,
  provider: values.provider,
  model: values.model,
  apiKey: values.apiKey,
  baseUrl: baseUrlOf(values),
  isActive: values.isActive,
});

/**
 * PATCH /api/ai-providers/{id}: the form's fields, the key only when one was typed
 * (docs/decisions.md#write-only-secrets: blank keeps it).
 */
export const updateBody = (values: AiProviderForm): AiProviderUpdate => ({
  name: values.name,
  provider: values.provider,
  model: values.model,
  baseUrl: baseUrlOf(values),
  isActive: values.isActive,
  ...(values.apiKey.trim() ? { apiKey: values.apiKey } : {}),
});
