import { createHash } from "node:crypto";
import type { z } from "zod";
import {
  IDENTITY_MESSAGES,
  INTEGRATION_LABELS,
  INTEGRATIONS,
  MY_ACCOUNTS_PATH,
  type AccountLinkDto,
  type ApiTokenLinkInputSchema,
  type Integration,
  type LinkErrorCode,
  type MyAccountsDto,
} from "../../../contract/accounts";
import type { AccountLinkRow, LinkSecret } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { SecretBox } from "../../lib/secret-box";
import { randomToken, sha256Hex } from "../../lib/tokens";
import type { Repos, Transact } from "../../repos";
import { isUpstreamError, type UpstreamService } from "../../upstream/errors";
import { createBitbucketClient } from "../../upstream/bitbucket.client";
import { basicAuthorization as basic, type UpstreamHttp } from "../../upstream/http";
import { createJiraClient } from "../../upstream/jira.client";
import type { Site } from "../integrations/sites";
import type { Actor, AuditService } from "../audit/audit.service";
import type { UpstreamTargets } from "../integrations/upstream-targets";
import { callbackUrl, type IdentitySettings } from "./identity-settings.service";
import { sameSite, sealLinkSecret, type PersonIdentity } from "./person-identity";
import { atlassianScopes, kindOf, type LinkedAccount, type Providers } from "./providers";

type ApiTokenInput = z.output<typeof ApiTokenLinkInputSchema>;

/** A link attempt lives this long between "Connect" and the service's callback. */
const ATTEMPT_TTL_MS = 10 * 60_000;
const VERIFIER_PURPOSE = "account-link:pkce";

const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export const toAccountLinkDto = (row: AccountLinkRow): AccountLinkDto => ({
  integration: row.integration,
  kind: row.kind as AccountLinkDto["kind"],
  account: { displayName: row.displayName, accountId: row.accountId, email: row.email },
  siteUrl: row.siteUrl,
  scopes: row.scopes,
  linkedAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  state: row.state,
  problem: row.problem,
});

/** Where the callback sends the browser: back to where linking started, or My accounts, with the outcome. */
const backTo = (returnTo: string | null, integration: Integration, outcome: { linked: true } | { error: LinkErrorCode }): string => {
  if ("linked" in outcome && returnTo) return returnTo;
  const params = new URLSearchParams({ integration, ...("linked" in outcome ? { linked: "1" } : { link_error: outcome.error }) });
  return `${MY_ACCOUNTS_PATH}?${params}`;
};

/**
 * A person's own accounts (issue 27 item 2): linking with OAuth (the state bound to the session
 * and this attempt, PKCE, single use), or with a personal API token the service confirms; listing
 * and unlinking one's own; an administrator's view and unlink of anyone's (never a token). Every
 * change is audited, and the identity cache hears of it.
 */
export function createAccountLinksService(deps: {
  repos: Repos;
  transact: Transact;
  secretBox: SecretBox;
  settings: IdentitySettings;
  providers: Providers;
  people: PersonIdentity;
  targets: UpstreamTargets;
  http: UpstreamHttp;
  audit: AuditService;
  clock: Clock;
  log: Logger;
  publicUrl: string;
  destructiveTools: boolean;
}) {
  const { repos, settings } = deps;

  async function siteUrl(): Promise<string | null> {
    return (await deps.targets.state("atlassian"))?.settings.instanceUrl ?? null;
  }

  async function store(
    userId: string,
    integration: Integration,
    kind: "oauth" | "api-token" | "dc-token",
    fields: {
      account: LinkedAccount;
      secret: LinkSecret;
      scopes: string[];
      expiresIn: number | null;
      site: { url: string; cloudId: string | null } | null;
    },
    actor: Actor,
  ): Promise<AccountLinkRow> {
    const now = deps.clock.now();
    const row = await deps.transact(async (r) => {
      const saved = await r.accountsRepo.saveLink(
        {
          userId,
          integration,
          kind: kindOf(integration, kind),
          accountId: fields.account.accountId,
          displayName: fields.account.displayName,
          email: fields.account.email,
          siteUrl: fields.site?.url ?? null,
          cloudId: fields.site?.cloudId ?? null,
          scopes: fields.scopes,
          secretSealed: sealLinkSecret(deps.secretBox, integration, fields.secret),
          accessExpiresAt: fields.expiresIn === null ? null : new Date(now.getTime() + fields.expiresIn * 1000),
        },
        now,
      );
      await deps.audit.record(
        actor,
        {
          action: "account.linked",
          targetType: "user",
          targetId: userId,
          details: { integration, kind: saved.kind, accountId: saved.accountId, scopes: saved.scopes },
        },
        r.auditRepo,
      );
      return saved;
    });
    deps.people.forget(userId);
    return row;
  }

  async function remove(userId: string, integration: Integration, actor: Actor, reason: string): Promise<boolean> {
    const removed = await deps.transact(async (r) => {
      const row = await r.accountsRepo.deleteLink(userId, integration);
      if (row)
        await deps.audit.record(
          actor,
          { action: "account.unlinked", targetType: "user", targetId: userId, details: { integration, accountId: row.accountId, reason } },
          r.auditRepo,
        );
      return row;
    });
    deps.people.forget(userId);
    // Atlassian Cloud and Bitbucket Cloud offer no endpoint to revoke a 3LO or consumer token: the
    // tokens are forgotten here (the access token lapses within the hour), and the person can also
    // remove the app from their Atlassian account's connected apps.
    return Boolean(removed);
  }

  /**
   * Data Center's personal access tokens (issue 28 item 7), each confirmed by its own server before
   * anything is stored: Jira's `/rest/api/2/myself`, Confluence's `/rest/api/user/current`,
   * Bitbucket's user (through its Data Center client). Jira's and Confluence's must be one person's.
   */
  async function dataCenterTokens(
    integration: Integration,
    site: Site,
    input: ApiTokenInput,
  ): Promise<{ account: LinkedAccount; tokens: Partial<Record<UpstreamService, string>> }> {
    const label = INTEGRATION_LABELS[integration];
    const on = (service: UpstreamService, token: string) => {
      const target = { baseUrl: site.urls[service] ?? "", authorization: `Bearer ${token}`, deployment: site.deployment };
      return () => Promise.resolve(target);
    };
    /** Who a token is, or a field error naming it; an unreachable server is not the token's fault. */
    const whoIs = async (field: string, what: string, ask: () => Promise<LinkedAccount | null>): Promise<LinkedAccount> => {
      let account: LinkedAccount | null = null;
      try {
        account = await ask();
      } catch (err) {
        if (!isUpstreamError(err) || (err.kind !== "unauthorized" && err.kind !== "forbidden"))
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
    if (integration === "bitbucket") {
      const account = await whoIs("apiToken", label, async () => {
        const user = await createBitbucketClient(deps.http, on("bitbucket", input.apiToken)).user();
        return { accountId: user.account_id ?? user.nickname ?? user.uuid, displayName: user.display_name, email: null };
      });
      return { account, tokens: { bitbucket: input.apiToken } };
    }
    const jira = await whoIs("apiToken", "Jira", async () => {
      const me = await createJiraClient(deps.http, on("jira", input.apiToken)).myself();
      return { accountId: me.accountId, displayName: me.displayName, email: me.emailAddress ?? null };
    });
    if (site.urls.confluence === undefined) return { account: jira, tokens: { jira: input.apiToken } };
    if (!input.confluenceToken)
      throw new AppError("validation_failed", IDENTITY_MESSAGES.confluenceToken, {
        fields: { confluenceToken: IDENTITY_MESSAGES.confluenceToken },
      });
    const confluenceToken = input.confluenceToken;
    const confluence = await whoIs("confluenceToken", "Confluence", async () => {
      const res = await deps.http.request<{ username?: string; displayName?: string }>(
        "confluence",
        await on("confluence", confluenceToken)(),
        {
          path: "/rest/api/user/current",
        },
      );
      return res.data?.username
        ? { accountId: res.data.username, displayName: res.data.displayName ?? res.data.username, email: null }
        : null;
    });
    if (confluence.accountId.toLowerCase() !== jira.accountId.toLowerCase()) {
      const message = `The Confluence token is ${confluence.accountId}'s and the Jira token ${jira.accountId}'s: both must be yours`;
      throw new AppError("validation_failed", message, { fields: { confluenceToken: message } });
    }
    return { account: jira, tokens: { jira: input.apiToken, confluence: confluenceToken } };
  }

  return {
    /** Where an integration runs: its links are of that deployment's kinds. */
    deploymentOf: async (integration: Integration) => (await deps.targets.state(integration))?.site.deployment ?? "cloud",

    /** My accounts: each integration's mode and the person's link. */
    async mine(userId: string): Promise<MyAccountsDto> {
      const links = await repos.accountsRepo.linksOfUser(userId);
      const site = await siteUrl();
      const integrations = await Promise.all(
        INTEGRATIONS.map(async (integration) => {
          const [s, state, app] = await Promise.all([
            settings.get(integration),
            deps.targets.state(integration),
            settings.app(integration),
          ]);
          const link = links.find((l) => l.integration === integration);
          return {
            integration,
            label: INTEGRATION_LABELS[integration],
            configured: Boolean(state?.isActive),
            mode: s.mode,
            // Data Center's own OAuth 2.0 provider is not offered yet: its people link personal access tokens.
            oauthAvailable: app !== null && state?.site.deployment !== "datacenter",
            apiTokensAllowed: s.allowApiTokens,
            siteUrl: integration === "atlassian" ? site : null,
            deployment: state?.site.deployment ?? "cloud",
            confluenceTokenWanted:
              integration === "atlassian" && state?.site.deployment === "datacenter" && state.site.urls.confluence !== undefined,
            link: link ? toAccountLinkDto(link) : null,
          };
        }),
      );
      return { integrations };
    },

    /** Starts an OAuth link: the service's authorize address, the attempt stored (state hashed, PKCE verifier sealed). */
    async startOAuth(
      user: { userId: string; sessionId: string },
      integration: Integration,
      returnTo: string | undefined,
    ): Promise<{ authorizeUrl: string }> {
      const s = await settings.get(integration);
      const app = await settings.app(integration);
      const label = INTEGRATION_LABELS[integration];
      if (s.mode !== "per-person") throw new AppError("conflict", `${label} is used through the shared account: there is nothing to link`);
      if (!app)
        throw new AppError("conflict", `An administrator has not set up linking with ${label} yet (the OAuth app's client id and secret)`);
      if (!(await deps.targets.state(integration))) throw new AppError("conflict", `The ${label} integration is not configured`);
      const state = randomToken();
      const verifier = randomToken(48);
      const now = deps.clock.now();
      await repos.accountsRepo.insertRequest(
        {
          stateHash: sha256Hex(state),
          userId: user.userId,
          sessionHash: sha256Hex(user.sessionId),
          integration,
          codeVerifierSealed: deps.secretBox.seal(verifier, VERIFIER_PURPOSE),
          returnTo: returnTo ?? null,
          expiresAt: new Date(now.getTime() + ATTEMPT_TTL_MS),
        },
        now,
      );
      const redirectUri = callbackUrl(deps.publicUrl, integration);
      const authorizeUrl =
        integration === "atlassian"
          ? deps.providers.atlassian.authorizeUrl({
              app,
              redirectUri,
              state,
              challenge: challengeOf(verifier),
              scopes: atlassianScopes(deps.destructiveTools),
            })
          : deps.providers.bitbucket.authorizeUrl({ app, redirectUri, state, challenge: challengeOf(verifier) });
      return { authorizeUrl };
    },

    /**
     * The service's callback: where the browser goes next. Nothing is stored unless every check
     * passes: the attempt exists, is this session's and fresh, the person consented, the code is
     * exchanged, and (Atlassian) the grant is for the configured site.
     */
    async finishOAuth(
      integration: Integration,
      query: { code?: string; state?: string; error?: string },
      session: { userId: string; sessionId: string } | null,
      actor: Actor,
    ): Promise<string> {
      const fail = (error: LinkErrorCode, returnTo: string | null = null) => backTo(returnTo, integration, { error });
      if (!query.state) return fail("expired");
      const attempt = await repos.accountsRepo.takeRequest(sha256Hex(query.state));
      if (!attempt || attempt.integration !== integration || attempt.expiresAt <= deps.clock.now()) return fail("expired");
      if (!session || session.userId !== attempt.userId || sha256Hex(session.sessionId) !== attempt.sessionHash) return fail("session");
      if (query.error === "access_denied") return fail("denied");
      if (query.error || !query.code) return fail("code");
      const app = await settings.app(integration);
      if (!app) return fail("not-offered");
      const label = INTEGRATION_LABELS[integration];
      try {
        const verifier = deps.secretBox.open(attempt.codeVerifierSealed, VERIFIER_PURPOSE);
        const answer = await deps.providers.exchangeCode(integration, app, {
          code: query.code,
          redirectUri: callbackUrl(deps.publicUrl, integration),
          verifier,
        });
        if (!answer.ok) {
          deps.log.info({ integration, error: answer.error }, "a link's authorization code was refused");
          return fail("code");
        }
        const { tokens } = answer;
        let account: LinkedAccount | null;
        let site: { url: string; cloudId: string } | null = null;
        if (integration === "atlassian") {
          const found = await deps.providers.atlassian.identify(tokens.accessToken);
          const configured = await siteUrl();
          const match = configured ? found.sites.find((s) => sameSite(s.url, configured)) : undefined;
          if (!match) return fail("site");
          site = { url: match.url, cloudId: match.cloudId };
          account = found.account;
        } else {
          account = await deps.providers.bitbucket.identify(`Bearer ${tokens.accessToken}`);
        }
        if (!account) return fail("account");
        await store(
          attempt.userId,
          integration,
          "oauth",
          {
            account,
            secret: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
            scopes: tokens.scopes,
            expiresIn: tokens.expiresIn,
            site,
          },
          actor,
        );
        return backTo(attempt.returnTo, integration, { linked: true });
      } catch (err) {
        deps.log.warn({ err, integration }, `linking a ${label} account failed`);
        return fail("upstream");
      }
    },

    /** Links a personal API token, once the service confirms it (Jira's /myself, Bitbucket's /user). */
    async linkApiToken(userId: string, integration: Integration, input: ApiTokenInput, actor: Actor): Promise<AccountLinkDto> {
      const s = await settings.get(integration);
      const label = INTEGRATION_LABELS[integration];
      if (s.mode !== "per-person") throw new AppError("conflict", `${label} is used through the shared account: there is nothing to link`);
      if (!s.allowApiTokens) throw new AppError("forbidden", `An administrator does not allow personal API tokens for ${label}`);
      const state = await deps.targets.state(integration);
      if (!state) throw new AppError("conflict", `The ${label} integration is not configured`);
      if (state.site.deployment === "datacenter") {
        const found = await dataCenterTokens(integration, state.site, input);
        const row = await store(
          userId,
          integration,
          "dc-token",
          {
            account: found.account,
            secret: { personalAccessTokens: found.tokens },
            scopes: [],
            expiresIn: null,
            site: { url: state.site.instanceUrl, cloudId: null },
          },
          actor,
        );
        return toAccountLinkDto(row);
      }
      if (!input.email) throw new AppError("validation_failed", IDENTITY_MESSAGES.email, { fields: { email: IDENTITY_MESSAGES.email } });
      const email = input.email;
      const authorization = basic(email, input.apiToken);
      let account: LinkedAccount | null = null;
      try {
        if (integration === "atlassian") {
          const res = await deps.http.request<{ accountId?: string; displayName?: string; emailAddress?: string }>(
            "jira",
            { baseUrl: state.settings.instanceUrl ?? "", authorization },
            { path: "/rest/api/3/myself" },
          );
          if (res.data?.accountId)
            account = {
              accountId: res.data.accountId,
              displayName: res.data.displayName ?? email,
              email: res.data.emailAddress ?? email,
            };
        } else {
          account = await deps.providers.bitbucket.identify(authorization);
          if (account) account = { ...account, email };
        }
      } catch (err) {
        if (!isUpstreamError(err) || (err.kind !== "unauthorized" && err.kind !== "forbidden")) {
          throw new AppError(
            "upstream_failed",
            `${label} could not be reached to check the token: ${isUpstreamError(err) ? err.message : "try again later"}`,
          );
        }
      }
      if (!account) {
        const message = `${label} refused this e-mail and API token`;
        throw new AppError("validation_failed", message, { fields: { apiToken: message } });
      }
      const row = await store(
        userId,
        integration,
        "api-token",
        {
          account,
          secret: { email, apiToken: input.apiToken },
          scopes: [],
          expiresIn: null,
          site: null,
        },
        actor,
      );
      return toAccountLinkDto(row);
    },

    /** The person's own unlink; false when there was no link. */
    unlinkMine: (userId: string, integration: Integration, actor: Actor) => remove(userId, integration, actor, "unlinked by its owner"),

    /** An administrator's view of a user's links: states, never tokens. */
    async linksOf(userId: string): Promise<AccountLinkDto[]> {
      if (!(await repos.usersRepo.findById(userId))) throw new AppError("not_found", "User not found");
      return (await repos.accountsRepo.linksOfUser(userId)).map(toAccountLinkDto);
    },

    async unlinkFor(userId: string, integration: Integration, actor: Actor): Promise<void> {
      if (!(await repos.usersRepo.findById(userId))) throw new AppError("not_found", "User not found");
      if (!(await remove(userId, integration, actor, "unlinked by an administrator"))) throw new AppError("not_found", "No such link");
    },
  };
}

export type AccountLinksService = ReturnType<typeof createAccountLinksService>;
