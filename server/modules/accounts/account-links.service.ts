import type { z } from "zod";
import {
  IDENTITY_MESSAGES,
  INTEGRATION_LABELS,
  INTEGRATIONS,
  type AccountLinkDto,
  type ApiTokenLinkInputSchema,
  type Integration,
  type LinkErrorCode,
  type MyAccountsDto,
} from "../../../contract/accounts";
import type { AccountLinkRow, LinkSecret } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { EventBus } from "../../lib/event-bus";
import type { Logger } from "../../lib/logger";
import type { SecretBox } from "../../lib/secret-box";
import { sha256Hex } from "../../lib/tokens";
import type { Repos, Transact } from "../../repos";
import { isUpstreamError } from "../../upstream/errors";
import { basicAuthorization as basic, type UpstreamHttp } from "../../upstream/http";
import type { Actor, AuditService } from "../audit/audit.service";
import type { UpstreamTargets } from "../integrations/upstream-targets";
import { checkDataCenterTokens, createDataCenterOAuth, firstExpiry } from "./data-center-links";
import { backTo, createLinkAttempts } from "./link-attempts";
import { callbackUrl, type IdentitySettings } from "./identity-settings.service";
import { sameSite, sealLinkSecret } from "./person-identity";
import { atlassianScopes, kindOf, type LinkedAccount, type LinkHow, type Providers } from "./providers";

type ApiTokenInput = z.output<typeof ApiTokenLinkInputSchema>;

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
  targets: UpstreamTargets;
  http: UpstreamHttp;
  audit: AuditService;
  clock: Clock;
  events: EventBus;
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
    kind: LinkHow,
    fields: {
      account: LinkedAccount;
      secret: LinkSecret;
      scopes: string[];
      /** When the (first) access token expires; null for a token that does not. */
      expiresAt: Date | null;
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
          accessExpiresAt: fields.expiresAt,
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
    deps.events.emit("account.link-changed", { userId });
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
    deps.events.emit("account.link-changed", { userId });
    // Atlassian Cloud and Bitbucket Cloud offer no endpoint to revoke a 3LO or consumer token: the
    // tokens are forgotten here (the access token lapses within the hour), and the person can also
    // remove the app from their Atlassian account's connected apps.
    return Boolean(removed);
  }

  const attempts = createLinkAttempts(deps);
  const dataCenterOAuth = createDataCenterOAuth({
    ...deps,
    attempts,
    store: (userId, integration, link, actor) =>
      store(
        userId,
        integration,
        "dc-oauth",
        {
          account: link.account,
          secret: { grants: link.grants },
          scopes: link.scopes,
          expiresAt: firstExpiry(link.grants),
          site: { url: link.siteUrl, cloudId: null },
        },
        actor,
      ),
  });

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
            oauthAvailable: app !== null,
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
      const target = await deps.targets.state(integration);
      if (!target) throw new AppError("conflict", `The ${label} integration is not configured`);
      const who = { userId: user.userId, sessionHash: sha256Hex(user.sessionId) };
      if (target.site.deployment === "datacenter") {
        const authorizeUrl = await dataCenterOAuth.start(who, integration, returnTo ?? null);
        if (!authorizeUrl) throw new AppError("conflict", `The ${label} integration is not configured`);
        return { authorizeUrl };
      }
      const { state, challenge } = await attempts.begin(who, integration, { returnTo: returnTo ?? null, server: null, carried: null });
      const redirectUri = callbackUrl(deps.publicUrl, integration);
      const authorizeUrl =
        integration === "atlassian"
          ? deps.providers.atlassian.authorizeUrl({ app, redirectUri, state, challenge, scopes: atlassianScopes(deps.destructiveTools) })
          : deps.providers.bitbucket.authorizeUrl({ app, redirectUri, state, challenge });
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
      const attempt = await attempts.take(query.state);
      if (!attempt || attempt.integration !== integration) return fail("expired");
      if (!session || session.userId !== attempt.userId || sha256Hex(session.sessionId) !== attempt.sessionHash) return fail("session");
      if (query.error === "access_denied") return fail("denied");
      if (query.error || !query.code) return fail("code");
      const label = INTEGRATION_LABELS[integration];
      if (attempt.server) {
        try {
          return await dataCenterOAuth.finish(attempt, attempt.server, query.code, actor);
        } catch (err) {
          deps.log.warn({ err, integration, server: attempt.server }, `linking a ${label} account failed`);
          return fail("upstream");
        }
      }
      const app = await settings.app(integration);
      if (!app) return fail("not-offered");
      try {
        const answer = await deps.providers.exchangeCode(integration, app, {
          code: query.code,
          redirectUri: callbackUrl(deps.publicUrl, integration),
          verifier: attempts.verifierOf(attempt),
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
            expiresAt: new Date(deps.clock.now().getTime() + tokens.expiresIn * 1000),
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
        const found = await checkDataCenterTokens(deps.http, integration, state.site, input);
        const row = await store(
          userId,
          integration,
          "dc-token",
          {
            account: found.account,
            secret: { personalAccessTokens: found.tokens },
            scopes: [],
            expiresAt: null,
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
          expiresAt: null,
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
