import type { Service } from "./core/errors";
import { DEFAULT_PEOPLE, OTHER_SITE, SANDBOX_CLOUD_ID, type SandboxPerson } from "./identity/people";

export type { SandboxPerson } from "./identity/people";

/**
 * The sandbox's accounts. Jira and Confluence take Basic `email:apiToken` (or a bearer token),
 * Bitbucket takes Basic `username:appPassword` or `email:apiToken` (the Atlassian API token that
 * replaced app passwords in 2026), or a bearer token, as the real clouds do. The service account
 * sees everything; each of `people` sees only what they may browse (identity/people.ts), through
 * their own API token or an OAuth grant (the Atlassian app, the Bitbucket consumer).
 */
export interface SandboxCredentials {
  atlassian: { email: string; apiToken: string; accountId: string; displayName: string };
  bitbucket: { username: string; appPassword: string; workspace: string };
  bearerTokens: string[];
  people: SandboxPerson[];
  /** The OAuth 2.0 (3LO) app registered with the imitated auth.atlassian.com. */
  atlassianApp: { clientId: string; clientSecret: string };
  /** The imitated Bitbucket OAuth consumer; `callbackUrl` is used when an authorize request names no redirect_uri. */
  bitbucketConsumer: { key: string; secret: string; callbackUrl?: string };
  /** The sandbox's own site (its URL is the sandbox's origin). */
  cloudId: string;
  /** Another site a person may pick at consent. */
  otherSite: { cloudId: string; url: string; name: string };
  /**
   * The Data Center flavour's service account (dc/…): Basic `username:password`, or a personal
   * access token as a bearer token; Bitbucket DC also takes `httpAccessToken` (a project's HTTP
   * access token, bearer only). Each person signs in as their `nickname` with their `apiToken`, or
   * with their `personalAccessToken`. `oauthClients` are the apps registered on each server as an
   * incoming application link (its own OAuth 2.0 provider, `{context}/rest/oauth2/latest/…`).
   */
  dataCenter: {
    username: string;
    displayName: string;
    password: string;
    personalAccessToken: string;
    httpAccessToken: string;
    oauthClients: Record<Service, { clientId: string; clientSecret: string }>;
  };
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
  people: DEFAULT_PEOPLE,
  atlassianApp: { clientId: "sandbox-atlassian-client-id", clientSecret: "sandbox-atlassian-client-secret" },
  bitbucketConsumer: { key: "sandbox-bitbucket-key", secret: "sandbox-bitbucket-secret" },
  cloudId: SANDBOX_CLOUD_ID,
  otherSite: OTHER_SITE,
  dataCenter: {
    username: "demo",
    displayName: "Demo Admin",
    password: "sandbox-dc-password",
    personalAccessToken: "sandbox-dc-pat",
    httpAccessToken: "sandbox-dc-http-access-token",
    oauthClients: {
      jira: { clientId: "sandbox-dc-jira-client-id", clientSecret: "sandbox-dc-jira-client-secret" },
      confluence: { clientId: "sandbox-dc-confluence-client-id", clientSecret: "sandbox-dc-confluence-client-secret" },
      bitbucket: { clientId: "sandbox-dc-bitbucket-client-id", clientSecret: "sandbox-dc-bitbucket-client-secret" },
    },
  },
};
