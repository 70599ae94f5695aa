import type { AiProvider, AiProviderKind } from "../../../contract/ai-providers";
import type { AiProviderRow } from "../../db/schema";

/**
 * The only way a provider row leaves the server: an allow-list, so the sealed key never can
 * (docs/decisions.md#write-only-secrets: the key's last four characters are all anyone is shown).
 */
export const toAiProviderDto = (row: AiProviderRow): AiProvider => ({
  id: row.id,
  name: row.name,
  provider: row.provider as AiProviderKind,
  model: row.model,
  baseUrl: row.baseUrl,
  apiKeyHint: row.keyHint,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
