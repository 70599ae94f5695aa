/**
 * The sandbox's accounts. Jira and Confluence take Basic `email:apiToken` (or a bearer token),
 * Bitbucket takes Basic `username:appPassword` or `email:apiToken` (the Atlassian API token that
 * replaced app passwords in 2026), or a bearer token, as the real clouds do.
 */
export interface SandboxCredentials {
  atlassian: { email: string; apiToken: string; accountId: string; displayName: string };
  bitbucket: { username: string; appPassword: string; workspace: string };
  bearerTokens: string[];
}

export const DEFAULT_CREDENTIALS: SandboxCredentials = {
  atlassian: {
    email: "demo@bridgekeeper.test",
    apiToken: "sandbox-api-token",
    accountId: "5b10ac8d82e05b22cc7d4ef5",
    displayName: "Demo Admin",
  },
  bitbucket: { username: "demo", appPassword: "sandbox-app-password", workspace: "bridgekeeper" },
  bearerTokens: ["sandbox-bearer-token"],
};
