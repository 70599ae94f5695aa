import type { CredentialKind } from "@contract/accounts";
import type { MyIntegration } from "@/lib/account-links";

/**
 * What one integration's card on My accounts shows: the person's link (whatever the mode: one
 * kept from before can still be removed), else why there is nothing to link, else the ways to link.
 */
export type CardState = "linked" | "not-configured" | "shared" | "no-way" | "not-linked";

export function cardStateOf(entry: MyIntegration): CardState {
  if (entry.link) return "linked";
  if (!entry.configured) return "not-configured";
  if (entry.mode === "shared") return "shared";
  if (!entry.oauthAvailable && !entry.apiTokensAllowed) return "no-way";
  return "not-linked";
}

/** A token the person pasted (Cloud's API token, Data Center's personal access tokens): every kind that is not an OAuth grant. */
export const isTokenKind = (kind: CredentialKind): boolean => !kind.endsWith("oauth");

/**
 * How "Re-link" mends a link: the OAuth consent again for an OAuth grant (or when tokens are not
 * allowed), the token form for a personal token (or when OAuth is not offered); null when neither
 * way is open.
 */
export function relinkWay(entry: MyIntegration): "oauth" | "api-token" | null {
  const kind = entry.link?.kind;
  const preferToken = kind !== undefined && isTokenKind(kind);
  if (preferToken && entry.apiTokensAllowed) return "api-token";
  if (entry.oauthAvailable) return "oauth";
  if (entry.apiTokensAllowed) return "api-token";
  return null;
}

/**
 * The Connect button: Cloud's consent is Atlassian's (or Bitbucket's); on Data Center each server
 * asks its own, Jira's then Confluence's when Confluence is configured (issue 28).
 */
export function connectLabel(entry: Pick<MyIntegration, "integration" | "deployment" | "confluenceTokenWanted">): string {
  if (entry.integration === "bitbucket") return "Connect with Bitbucket";
  if (entry.deployment !== "datacenter") return "Connect with Atlassian";
  return entry.confluenceTokenWanted ? "Connect with Jira and Confluence" : "Connect with Jira";
}

/** The disclosure holding the token form beside Connect: Cloud's API token, or Data Center's personal access token(s). */
export function tokenDisclosureLabel(entry: Pick<MyIntegration, "integration" | "deployment" | "confluenceTokenWanted">): string {
  if (entry.deployment !== "datacenter") return "Use a personal API token instead";
  return entry.integration === "atlassian" && entry.confluenceTokenWanted
    ? "Use personal access tokens instead"
    : "Use a personal access token instead";
}
