import type { z } from "zod";
import { IDENTITY_MESSAGES, type ApiTokenLinkInputSchema, type Integration } from "../../../contract/accounts";
import type { ServerGrant } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { createBitbucketClient } from "../../upstream/bitbucket.client";
import { isUpstreamError, SERVICE_NAMES, type UpstreamService } from "../../upstream/errors";
import type { UpstreamHttp, UpstreamTarget } from "../../upstream/http";
import { createJiraClient } from "../../upstream/jira.client";
import type { Site } from "../integrations/sites";
import type { GrantedTokens, LinkedAccount } from "./providers";

type ApiTokenInput = z.output<typeof ApiTokenLinkInputSchema>;

/** The servers a Data Center link holds a grant or token for: Jira (then Confluence), or Bitbucket. */
export type DataCenterServer = UpstreamService;

/** The server a Data Center link starts with. */
export const firstServer = (integration: Integration): DataCenterServer => (integration === "atlassian" ? "jira" : "bitbucket");

/** What a link attempt carries from one server's consent to the next (sealed in the attempt's row). */
export interface CarriedGrants {
  account: LinkedAccount;
  grants: Partial<Record<DataCenterServer, ServerGrant>>;
  /** What each server granted, as `jira:WRITE`. */
  scopes: string[];
}

/** The grant a token answer gives, expiring `expiresIn` seconds from `now`. */
export const grantOf = (tokens: GrantedTokens, now: number): ServerGrant => ({
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  expiresAt: now + tokens.expiresIn * 1000,
});

/** When the first of a link's access tokens expires: the link is renewed then. */
export const firstExpiry = (grants: CarriedGrants["grants"]): Date => new Date(Math.min(...Object.values(grants).map((g) => g.expiresAt)));

/** The same person on two servers (Data Center usernames are case-insensitive). */
export const samePerson = (a: LinkedAccount, b: LinkedAccount): boolean => a.accountId.toLowerCase() === b.accountId.toLowerCase();

/**
 * Who a credential is on one Data Center server (issue 28 item 7): Jira's `/rest/api/2/myself`,
 * Confluence's `/rest/api/user/current`, Bitbucket's authenticated user (through the Data Center
 * clients, whose answers carry the username as the account id). Null when the server refuses it;
 * any other failure is thrown.
 */
export async function whoIsOnDataCenter(
  http: UpstreamHttp,
  server: DataCenterServer,
  site: Site,
  authorization: string,
): Promise<LinkedAccount | null> {
  const target: UpstreamTarget = { baseUrl: site.urls[server] ?? "", authorization, deployment: site.deployment };
  const on = () => Promise.resolve(target);
  try {
    if (server === "jira") {
      const me = await createJiraClient(http, on).myself();
      return { accountId: me.accountId, displayName: me.displayName, email: me.emailAddress ?? null };
    }
    if (server === "bitbucket") {
      const user = await createBitbucketClient(http, on).user();
      return { accountId: user.account_id ?? user.nickname ?? user.uuid, displayName: user.display_name, email: null };
    }
    const res = await http.request<{ username?: string; displayName?: string }>("confluence", target, { path: "/rest/api/user/current" });
    return res.data?.username
      ? { accountId: res.data.username, displayName: res.data.displayName ?? res.data.username, email: null }
      : null;
  } catch (err) {
    if (isUpstreamError(err) && (err.kind === "unauthorized" || err.kind === "forbidden")) return null;
    throw err;
  }
}

/**
 * Data Center's personal access tokens, each confirmed by its own server before anything is stored.
 * Jira's and Confluence's must be one person's; a server that cannot be reached is not the token's
 * fault (a 502 that says so, not a field error).
 */
export async function checkDataCenterTokens(
  http: UpstreamHttp,
  integration: Integration,
  site: Site,
  input: ApiTokenInput,
): Promise<{ account: LinkedAccount; tokens: Partial<Record<DataCenterServer, string>> }> {
  const whoIs = async (server: DataCenterServer, field: string, token: string): Promise<LinkedAccount> => {
    const what = SERVICE_NAMES[server];
    let account: LinkedAccount | null;
    try {
      account = await whoIsOnDataCenter(http, server, site, `Bearer ${token}`);
    } catch (err) {
      throw new AppError(
        "upstream_failed",
        `${what} could not be reached to check the token: ${isUpstreamError(err) ? err.message : "try again later"}`,
      );
    }
    if (!account) {
      const message = `${what} refused this personal access token`;
      throw new AppError("validation_failed", message, { fields: { [field]: message } });
    }
    return account;
  };
  const first = firstServer(integration);
  const account = await whoIs(first, "apiToken", input.apiToken);
  if (first === "bitbucket" || site.urls.confluence === undefined) return { account, tokens: { [first]: input.apiToken } };
  if (!input.confluenceToken)
    throw new AppError("validation_failed", IDENTITY_MESSAGES.confluenceToken, {
      fields: { confluenceToken: IDENTITY_MESSAGES.confluenceToken },
    });
  const confluence = await whoIs("confluence", "confluenceToken", input.confluenceToken);
  if (!samePerson(confluence, account)) {
    const message = `The Confluence token is ${confluence.accountId}'s and the Jira token ${account.accountId}'s: both must be yours`;
    throw new AppError("validation_failed", message, { fields: { confluenceToken: message } });
  }
  return { account, tokens: { jira: input.apiToken, confluence: input.confluenceToken } };
}
