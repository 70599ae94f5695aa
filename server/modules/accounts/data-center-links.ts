import type { z } from "zod";
import { IDENTITY_MESSAGES, type ApiTokenLinkInputSchema, type Integration, type LinkErrorCode } from "../../../contract/accounts";
import type { ServerGrant } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { createBitbucketClient } from "../../upstream/bitbucket.client";
import { isUpstreamError, SERVICE_NAMES, type UpstreamService } from "../../upstream/errors";
import type { UpstreamHttp, UpstreamTarget } from "../../upstream/http";
import { createJiraClient } from "../../upstream/jira.client";
import type { Actor } from "../audit/audit.service";
import { serviceUrl, type Site } from "../integrations/sites";
import type { UpstreamTargets } from "../integrations/upstream-targets";
import type { AccountLinkRequestRow } from "./accounts.repo";
import { callbackUrl, type IdentitySettings } from "./identity-settings.service";
import { backTo, type AttemptOwner, type LinkAttempts } from "./link-attempts";
import type { GrantedTokens, LinkedAccount, Providers } from "./providers";

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

/** How the Data Center OAuth flow stores a finished link (the account-links service's `store`). */
export type StoreLink = (
  userId: string,
  integration: Integration,
  fields: { account: LinkedAccount; grants: CarriedGrants["grants"]; scopes: string[]; siteUrl: string },
  actor: Actor,
) => Promise<unknown>;

/**
 * Linking through Data Center's own OAuth 2.0 provider (issue 28 item 7): each server's incoming
 * application link, Jira's consent and then Confluence's (two servers, two grants, one person), or
 * Bitbucket's; PKCE and the callback as redirect URI at every step.
 */
export function createDataCenterOAuth(deps: {
  http: UpstreamHttp;
  providers: Providers;
  settings: IdentitySettings;
  targets: UpstreamTargets;
  attempts: LinkAttempts;
  clock: Clock;
  log: Logger;
  publicUrl: string;
  store: StoreLink;
}) {
  const appOf = (integration: Integration, server: DataCenterServer) =>
    deps.settings.app(integration, server === "confluence" ? "confluence" : "main");

  /** A server's consent page for a new attempt; null when its link is not set up or the server not configured. */
  async function consent(
    owner: AttemptOwner,
    integration: Integration,
    server: DataCenterServer,
    step: { returnTo: string | null; carried: CarriedGrants | null },
  ): Promise<string | null> {
    const [app, state] = await Promise.all([appOf(integration, server), deps.targets.state(integration)]);
    const baseUrl = state?.site.urls[server];
    if (!app || !baseUrl) return null;
    const attempt = await deps.attempts.begin(owner, integration, { ...step, server });
    return deps.providers.dataCenter.authorizeUrl({
      service: server,
      baseUrl,
      app,
      redirectUri: callbackUrl(deps.publicUrl, integration),
      state: attempt.state,
      challenge: attempt.challenge,
    });
  }

  return {
    /** The first server's consent page: Jira's (Confluence's follows) or Bitbucket's. */
    start: (owner: AttemptOwner, integration: Integration, returnTo: string | null) =>
      consent(owner, integration, firstServer(integration), { returnTo, carried: null }),

    /**
     * A server's consent came back: its code exchanged at that server, the person named by the
     * server itself; then Confluence's consent after Jira's when Confluence is configured and its
     * link set up (the same person must allow both), or the link stored with every grant. Where the
     * browser goes next.
     */
    async finish(attempt: AccountLinkRequestRow, server: DataCenterServer, code: string, actor: Actor): Promise<string> {
      const integration = attempt.integration;
      const fail = (error: LinkErrorCode) => backTo(null, integration, { error });
      const [state, app] = await Promise.all([deps.targets.state(integration), appOf(integration, server)]);
      if (!state || state.site.deployment !== "datacenter" || !app || !state.site.urls[server]) return fail("not-offered");
      const site = state.site;
      const answer = await deps.providers.dataCenter.exchangeCode(server, serviceUrl(site, server), app, {
        code,
        redirectUri: callbackUrl(deps.publicUrl, integration),
        verifier: deps.attempts.verifierOf(attempt),
      });
      if (!answer.ok) {
        deps.log.info({ integration, server, error: answer.error }, "a link's authorization code was refused");
        return fail("code");
      }
      const account = await whoIsOnDataCenter(deps.http, server, site, `Bearer ${answer.tokens.accessToken}`);
      if (!account) return fail("account");
      const carried = deps.attempts.carriedOf(attempt);
      if (carried && !samePerson(carried.account, account)) return fail("other-person");
      const granted = answer.tokens.scopes.length ? answer.tokens.scopes : ["granted"];
      const linked: CarriedGrants = {
        account: carried?.account ?? account,
        grants: { ...carried?.grants, [server]: grantOf(answer.tokens, deps.clock.now().getTime()) },
        scopes: [...(carried?.scopes ?? []), ...granted.map((s) => `${server}:${s}`)],
      };
      if (server === "jira" && site.urls.confluence !== undefined) {
        const next = await consent(attempt, integration, "confluence", { returnTo: attempt.returnTo, carried: linked });
        if (next) return next;
      }
      await deps.store(
        attempt.userId,
        integration,
        { account: linked.account, grants: linked.grants, scopes: linked.scopes, siteUrl: site.instanceUrl },
        actor,
      );
      return backTo(attempt.returnTo, integration, { linked: true });
    },
  };
}
