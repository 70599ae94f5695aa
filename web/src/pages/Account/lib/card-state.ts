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

const isTokenKind = (kind: CredentialKind): boolean => kind.endsWith("-api-token");

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
