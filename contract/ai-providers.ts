import { z } from "zod";
import { line, siteUrl } from "./text";

/**
 * AI providers (spec §2 AI Providers, §3, §5; docs/decisions.md#write-only-secrets, #model-lists).
 * The three specified kinds, plus "openai-compatible" (beyond the spec): any server speaking
 * OpenAI's chat completions at a base URL of the company's own (Ollama, vLLM, LM Studio, gateways).
 */
export const AI_PROVIDER_KINDS = ["openai", "anthropic", "google", "openai-compatible"] as const;
export type AiProviderKind = (typeof AI_PROVIDER_KINDS)[number];

/** The Provider select's labels (spec §2: "OpenAI, Anthropic, Google (Gemini)"). */
export const AI_PROVIDER_LABELS: Record<AiProviderKind, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google (Gemini)",
  "openai-compatible": "OpenAI-compatible",
};

/**
 * Model lists are data (docs/decisions.md#model-lists). OpenAI and Google as the specification
 * lists them; Anthropic's current Claude models, latest first. The first of each list is marked
 * "(Latest)" in the select. A custom model id is accepted too (the field is free text with these as
 * suggestions). An OpenAI-compatible server names its own models: no list.
 */
export const AI_MODEL_OPTIONS: Record<AiProviderKind, readonly string[]> = {
  openai: ["gpt-4o", "gpt-4-turbo", "gpt-3.5-turbo"],
  anthropic: ["claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"],
  google: ["gemini-1.5-pro", "gemini-1.5-flash", "gemini-pro"],
  "openai-compatible": [],
};

/**
 * The Model select's value for "type the model id yourself" (docs/decisions.md#model-lists: a
 * custom model id is accepted).
 */
export const CUSTOM_MODEL = "__custom__";

/** Spec §5 messages, word for word. */
export const AI_PROVIDER_MESSAGES = {
  name: "Name is required",
  provider: "Please select a provider",
  apiKey: "API key is required",
  model: "Model is required",
  baseUrl: "Must be a valid URL",
  baseUrlRequired: "Base URL is required for an OpenAI-compatible provider",
  baseUrlNotAllowed: "Only an OpenAI-compatible provider takes a base URL",
} as const;

/** Spec §2: the browser's own confirmation before a provider is deleted, word for word. */
export const AI_PROVIDER_DELETE_CONFIRM = "Are you sure you want to delete this AI provider?";

const name = line({ error: AI_PROVIDER_MESSAGES.name }).trim().min(1, AI_PROVIDER_MESSAGES.name).max(100, "Must be at most 100 characters");
const provider = z.enum(AI_PROVIDER_KINDS, { error: AI_PROVIDER_MESSAGES.provider });
/** A model id: a provider's own name for it (letters, digits, and . _ - : / @). */
const model = line({ error: AI_PROVIDER_MESSAGES.model })
  .trim()
  .min(1, AI_PROVIDER_MESSAGES.model)
  .max(200, "Must be at most 200 characters")
  .regex(/^[A-Za-z0-9._:/@-]+$/, "A model id has letters, digits and . _ - : / @ only");
const apiKey = line({ error: AI_PROVIDER_MESSAGES.apiKey }).max(4096, "Must be at most 4096 characters");
/** The root the client appends /chat/completions to. */
const baseUrl = siteUrl(AI_PROVIDER_MESSAGES.baseUrl);

/**
 * The rules across fields below run even when a field has failed, an unchosen provider included:
 * by default zod skips an object's refinement once a field has an aborting issue (a provider not
 * among the kinds is one), so "API key is required" showed only after the other fields were put
 * right. Every message now shows on the first submit (spec §5). The value such a rule sees may
 * then hold a field's raw, invalid input: the rules check what they read.
 */
const EVEN_WITH_FIELD_ERRORS: z.core.$ZodSuperRefineParams = {
  when: (payload) => typeof payload.value === "object" && payload.value !== null,
};

const isKind = (value: unknown): value is AiProviderKind => (AI_PROVIDER_KINDS as readonly unknown[]).includes(value);
const isBlank = (value: unknown): boolean => typeof value === "string" && value.trim() === "";

/** A base URL goes with the openai-compatible kind and with no other (no kind chosen: nothing to check it against). */
function checkBaseUrl(value: { provider?: unknown; baseUrl?: unknown }, ctx: z.RefinementCtx): void {
  if (!isKind(value.provider)) return;
  const given = typeof value.baseUrl === "string" && value.baseUrl !== "";
  if (value.provider === "openai-compatible" && !given)
    ctx.addIssue({ code: "custom", path: ["baseUrl"], message: AI_PROVIDER_MESSAGES.baseUrlRequired });
  if (value.provider !== "openai-compatible" && given)
    ctx.addIssue({ code: "custom", path: ["baseUrl"], message: AI_PROVIDER_MESSAGES.baseUrlNotAllowed });
}

/** The key is required unless the kind is openai-compatible (also while no kind is chosen yet). A missing key is the field's own error. */
function checkApiKey(value: { provider?: unknown; apiKey?: unknown }, ctx: z.RefinementCtx): void {
  if (value.provider !== "openai-compatible" && isBlank(value.apiKey))
    ctx.addIssue({ code: "custom", path: ["apiKey"], message: AI_PROVIDER_MESSAGES.apiKey });
}

/**
 * POST /api/ai-providers. The key is required for the three hosted kinds (spec §5); a local
 * OpenAI-compatible server often needs none, so there it may be blank.
 */
export const AiProviderCreateSchema = z
  .object({
    name,
    provider,
    model,
    apiKey: apiKey.trim(),
    baseUrl: z.union([baseUrl, z.literal(""), z.null()]).optional(),
    isActive: z.boolean().default(true),
  })
  .superRefine((value, ctx) => {
    checkBaseUrl(value, ctx);
    checkApiKey(value, ctx);
  }, EVEN_WITH_FIELD_ERRORS);
export type AiProviderCreate = z.input<typeof AiProviderCreateSchema>;

/**
 * PATCH /api/ai-providers/{id}: the form's fields or only isActive (spec §7). A blank or absent
 * apiKey keeps the stored key (docs/decisions.md#write-only-secrets: the form's behaviour wins over
 * the schema line of §5). When the provider changes, the rule on the base URL is checked against
 * the new kind.
 */
export const AiProviderUpdateSchema = z
  .object({
    name: name.optional(),
    provider: provider.optional(),
    model: model.optional(),
    apiKey: apiKey.optional().transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim())),
    baseUrl: z.union([baseUrl, z.literal(""), z.null()]).optional(),
    isActive: z.boolean().optional(),
  })
  .superRefine(checkBaseUrl, EVEN_WITH_FIELD_ERRORS);
export type AiProviderUpdate = z.input<typeof AiProviderUpdateSchema>;

/** What the API returns: never the key (docs/decisions.md#write-only-secrets), only its last four characters. */
export const AiProviderSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.enum(AI_PROVIDER_KINDS),
  model: z.string(),
  baseUrl: z.string().nullable(),
  /** The last four characters of the stored key; null when none is stored. */
  apiKeyHint: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AiProvider = z.infer<typeof AiProviderSchema>;

/** POST /api/ai-providers/{id}/test: a one-token call; the provider's answer or its reason. */
export interface AiProviderTestResult {
  ok: boolean;
  /** What the model answered (bounded), when ok. */
  answer: string | null;
  /** The provider's reason, when not ok. */
  error: string | null;
  latencyMs: number;
}

/** The console's form: the API key is required unless one is stored already (then blank keeps it). */
export const aiProviderFormSchema = (hasStoredKey: boolean) =>
  z
    .object({
      name,
      provider,
      model,
      apiKey: line().max(4096, "Must be at most 4096 characters"),
      baseUrl: z.union([baseUrl, z.literal("")]),
      isActive: z.boolean(),
    })
    .superRefine((value, ctx) => {
      checkBaseUrl(value, ctx);
      if (!hasStoredKey) checkApiKey(value, ctx);
    }, EVEN_WITH_FIELD_ERRORS);
export type AiProviderForm = z.infer<ReturnType<typeof aiProviderFormSchema>>;
