import type { AtlassianConfigDto, BitbucketConfigDto } from "../../../contract/integrations";
import type { IntegrationConfigRow } from "../../db/schema";

// The only ways a stored integration leaves the server: allow-lists, so the sealed secret never
// can (docs/decisions.md#write-only-secrets: the secret is write-only; its last four characters are the hint).

export const toAtlassianConfigDto = (row: IntegrationConfigRow | undefined): AtlassianConfigDto => ({
  configured: Boolean(row),
  instanceUrl: row?.settings.instanceUrl ?? "",
  email: row?.settings.email ?? "",
  isActive: row?.isActive ?? true,
  apiTokenHint: row?.secretHint ?? null,
  updatedAt: row?.updatedAt.toISOString() ?? null,
});

export const toBitbucketConfigDto = (row: IntegrationConfigRow | undefined, apiUrl: string): BitbucketConfigDto => ({
  configured: Boolean(row),
  workspace: row?.settings.workspace ?? "",
  username: row?.settings.username ?? "",
  isActive: row?.isActive ?? true,
  appPasswordHint: row?.secretHint ?? null,
  apiUrl,
  updatedAt: row?.updatedAt.toISOString() ?? null,
});
