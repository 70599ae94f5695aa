import type { AtlassianConfigDto, AuthMethod, BitbucketConfigDto, DeploymentChoice } from "../../../contract/integrations";
import type { IntegrationConfigRow } from "../../db/schema";
import { deploymentOf } from "./sites";

// The only ways a stored integration leaves the server: allow-lists, so the sealed secret never
// can (docs/decisions.md#write-only-secrets: the secret is write-only; its last four characters are the hint).

const choiceOf = (row: IntegrationConfigRow | undefined): DeploymentChoice =>
  (row?.settings.deploymentChoice as DeploymentChoice | undefined) ?? (row ? deploymentOf(row.settings) : "auto");
const authOf = (row: IntegrationConfigRow | undefined): AuthMethod => (row?.settings.authMethod === "token" ? "token" : "basic");

export const toAtlassianConfigDto = (row: IntegrationConfigRow | undefined): AtlassianConfigDto => ({
  configured: Boolean(row),
  deploymentChoice: choiceOf(row),
  deployment: row ? deploymentOf(row.settings) : "cloud",
  instanceUrl: row?.settings.instanceUrl ?? "",
  confluenceUrl: row?.settings.confluenceUrl ?? "",
  authMethod: authOf(row),
  email: row?.settings.email ?? "",
  isActive: row?.isActive ?? true,
  apiTokenHint: row?.secretHint ?? null,
  confluenceTokenHint: row?.settings.confluenceTokenHint ?? null,
  updatedAt: row?.updatedAt.toISOString() ?? null,
});

export const toBitbucketConfigDto = (row: IntegrationConfigRow | undefined, apiUrl: string): BitbucketConfigDto => ({
  configured: Boolean(row),
  deploymentChoice: choiceOf(row),
  deployment: row ? deploymentOf(row.settings) : "cloud",
  baseUrl: row?.settings.baseUrl ?? "",
  authMethod: authOf(row),
  workspace: row?.settings.workspace ?? "",
  username: row?.settings.username ?? "",
  isActive: row?.isActive ?? true,
  appPasswordHint: row?.secretHint ?? null,
  apiUrl,
  updatedAt: row?.updatedAt.toISOString() ?? null,
});
