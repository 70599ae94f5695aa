import { z } from "zod";
import type { Deployment } from "./integrations";
import { line } from "./text";

/**
 * Acting as the person (issue 27, docs/decisions.md D25): each integration reaches its service as
 * the one shared account saved on the Configuration screen, or as each person's own linked account.
 */
export const INTEGRATIONS = ["atlassian", "bitbucket"] as const;
export type Integration = (typeof INTEGRATIONS)[number];
export const INTEGRATION_LABELS: Record<Integration, string> = { atlassian: "Atlassian", bitbucket: "Bitbucket" };

export const IDENTITY_MODES = ["shared", "per-person"] as const;
export type IdentityMode = (typeof IDENTITY_MODES)[number];
export const IDENTITY_MODE_LABELS: Record<IdentityMode, string> = {
  shared: "Shared account",
  "per-person": "Each person's own account",
};

/**
 * How a person's account is linked. Cloud has OAuth (Atlassian's 3LO, Bitbucket's OAuth consumer)
 * and personal API tokens; Data Center adds its personal access tokens and its own OAuth 2.0
 * provider as further kinds of the same two shapes (an OAuth grant that refreshes, or a token the
 * person pastes), so nothing here is reshaped for it.
 */
export const CREDENTIAL_KINDS = [
  "atlassian-oauth",
  "atlassian-api-token",
  "bitbucket-oauth",
  "bitbucket-api-token",
  "atlassian-dc-token",
  "bitbucket-dc-token",
  "atlassian-dc-oauth",
  "bitbucket-dc-oauth",
] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];
export const CREDENTIAL_KIND_LABELS: Record<CredentialKind, string> = {
  "atlassian-oauth": "OAuth 2.0 (3LO)",
  "atlassian-api-token": "Personal API token",
  "bitbucket-oauth": "OAuth consumer",
  "bitbucket-api-token": "Personal API token",
  "atlassian-dc-token": "Personal access tokens (Data Center)",
  "bitbucket-dc-token": "Personal access token (Data Center)",
  "atlassian-dc-oauth": "OAuth 2.0 (Data Center application link)",
  "bitbucket-dc-oauth": "OAuth 2.0 (Data Center application link)",
};

/** A link works, or its grant was refused upstream (a revoked or expired refresh token): the person links again. */
export type LinkState = "working" | "needs-relinking";
export const LINK_STATE_LABELS: Record<LinkState, string> = { working: "Working", "needs-relinking": "Needs re-linking" };

/** One person's link to one integration, as My accounts and the Users screen show it: never a token. */
export interface AccountLinkDto {
  integration: Integration;
  kind: CredentialKind;
  account: { displayName: string; accountId: string; email: string | null };
  /** Atlassian: the site the grant is for. */
  siteUrl: string | null;
  scopes: string[];
  linkedAt: string;
  lastUsedAt: string | null;
  state: LinkState;
  /** Why it needs re-linking, when it does. */
  problem: string | null;
}

/** GET /api/account/links: per integration, how it is used and the signed-in person's link. */
export interface MyAccountsDto {
  integrations: {
    integration: Integration;
    label: string;
    /** Whether the integration is configured and on at all. */
    configured: boolean;
    mode: IdentityMode;
    /** Linking through OAuth is possible (the administrator entered the app's client id and secret). */
    oauthAvailable: boolean;
    /** The administrator allows a personal API token instead. */
    apiTokensAllowed: boolean;
    /** Atlassian: the configured site a grant must be for. */
    siteUrl: string | null;
    /**
     * Where the integration runs (issue 28). On Data Center a person links personal access tokens
     * (Jira and Confluence are separate servers, each with its own token) instead of an API token.
     */
    deployment: Deployment;
    /** Data Center: Confluence is configured, so a Confluence token is asked for too. */
    confluenceTokenWanted: boolean;
    link: AccountLinkDto | null;
  }[];
}

/** GET /api/admin/identity: the identity settings of both integrations. */
export interface IdentitySettingsDto {
  integration: Integration;
  mode: IdentityMode;
  /** Machine clients (client_credentials tokens, no person) may use the shared account in per-person mode. */
  allowMachineClients: boolean;
  /** People may link a personal API token instead of OAuth. */
  allowApiTokens: boolean;
  /**
   * The Atlassian OAuth 2.0 app's or Bitbucket OAuth consumer's client id ("" when none); on Data
   * Center, the incoming application link's on Jira (or Bitbucket).
   */
  oauthClientId: string;
  /** The last four characters of the stored client secret; null when none is stored (write-only). */
  oauthClientSecretHint: string | null;
  /** Where the integration runs: on Data Center people link through each server's incoming application link. */
  deployment: Deployment;
  /**
   * Atlassian on Data Center with Confluence configured: Confluence is a server of its own, with its
   * own incoming application link, so its client id and secret are asked for too.
   */
  confluenceAppWanted: boolean;
  /** Confluence Data Center's incoming application link: its client id ("" when none) and secret's hint. */
  confluenceOauthClientId: string;
  confluenceOauthClientSecretHint: string | null;
  /** The callback URL to register with the app or consumer. */
  callbackUrl: string;
  updatedAt: string | null;
}

export const IDENTITY_MESSAGES = {
  oauthClientSecret: "Client secret is required with a client id",
  noWayToLink:
    "Each person's own account needs a way to link one: enter the OAuth app's client id and secret, or allow personal API tokens",
  noWayToLinkDataCenter:
    "Each person's own account needs a way to link one: enter the incoming application link's client id and secret, or allow personal access tokens",
  confluenceOauthClientSecret: "Confluence's client secret is required with its client id",
  confluenceApp:
    "Confluence Data Center is a server of its own: enter its incoming application link's client id and secret too, or leave both links blank and allow personal access tokens",
  email: "Email is required",
  apiToken: "API token is required",
  personalAccessToken: "Personal access token is required",
  confluenceToken: "Confluence's personal access token is required",
} as const;

const oneLine = (max: number) => line().trim().max(max, `Must be at most ${max} characters`);

/** PUT /api/admin/identity/{integration}. A blank client secret keeps the stored one. */
export const IdentitySettingsInputSchema = z.object({
  mode: z.enum(IDENTITY_MODES, { error: "Choose Shared account or Each person's own account" }),
  allowMachineClients: z.boolean().default(false),
  allowApiTokens: z.boolean().default(false),
  oauthClientId: oneLine(255).default(""),
  oauthClientSecret: oneLine(4096)
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v)),
  /** Data Center: Confluence's incoming application link (ignored elsewhere). */
  confluenceOauthClientId: oneLine(255).default(""),
  confluenceOauthClientSecret: oneLine(4096)
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v)),
});
export type IdentitySettingsInput = z.input<typeof IdentitySettingsInputSchema>;

/**
 * POST /api/account/links/{integration}/api-token: on Cloud a person's own e-mail (Atlassian
 * account) and API token; on Data Center their personal access token (`apiToken`: Jira's or
 * Bitbucket's) and, while Confluence is configured, Confluence's (`confluenceToken`). Which fields
 * a deployment needs is the server's check (a field message names the missing one).
 */
export const ApiTokenLinkInputSchema = z.object({
  email: line().trim().max(255, "Must be at most 255 characters").optional(),
  apiToken: line({ error: IDENTITY_MESSAGES.apiToken })
    .trim()
    .min(1, IDENTITY_MESSAGES.apiToken)
    .max(4096, "Must be at most 4096 characters"),
  confluenceToken: line().trim().max(4096, "Must be at most 4096 characters").optional(),
});
export type ApiTokenLinkInput = z.input<typeof ApiTokenLinkInputSchema>;

/** The schema for an integration's deployment: Cloud's token goes with the person's e-mail. */
export const apiTokenLinkSchemaFor = (deployment: Deployment) =>
  deployment === "cloud"
    ? ApiTokenLinkInputSchema.extend({
        email: line({ error: IDENTITY_MESSAGES.email }).trim().min(1, IDENTITY_MESSAGES.email).max(255, "Must be at most 255 characters"),
      })
    : ApiTokenLinkInputSchema;

/** POST /api/account/links/{integration}/authorize: where to come back to after linking (a console path). */
export const AuthorizeLinkInputSchema = z.object({
  returnTo: line()
    .max(2000, "Must be at most 2000 characters")
    .refine((v) => v.startsWith("/") && !v.startsWith("//") && !v.includes("\\"), "Must be a path of this console")
    .optional(),
});

/** Why a link attempt came back without a link: the console shows LINK_ERROR_MESSAGES[code] on My accounts. */
export const LINK_ERROR_CODES = [
  "denied",
  "expired",
  "session",
  "code",
  "site",
  "account",
  "upstream",
  "not-offered",
  "other-person",
] as const;
export type LinkErrorCode = (typeof LINK_ERROR_CODES)[number];
export const linkErrorMessage = (code: LinkErrorCode, label: string, siteUrl: string | null): string =>
  ({
    denied: `You cancelled at ${label}: nothing was linked.`,
    expired: "That link attempt expired. Start again.",
    session: "That link attempt was started in another session. Start again from this page.",
    code: `${label} refused the authorization (it may have been used already). Start again.`,
    site: `That grant is for another site. Bridgekeeper is configured for ${siteUrl ?? "another site"}: link again and choose that site.`,
    account: `${label} did not say who you are. Start again.`,
    upstream: `${label} could not be reached to finish linking. Try again later.`,
    "not-offered": `Linking a ${label} account this way is not offered here.`,
    "other-person": "Jira and Confluence were allowed by two different people: both must be yours. Start again.",
  })[code];

/** Where My accounts lives (tool errors and the chat point people there). */
export const MY_ACCOUNTS_PATH = "/account";
