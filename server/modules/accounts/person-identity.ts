import { INTEGRATION_LABELS, MY_ACCOUNTS_PATH, type Integration } from "../../../contract/accounts";
import type { AccountLinkRow, LinkSecret, ServerGrant } from "../../db/schema";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { SecretBox } from "../../lib/secret-box";
import type { Repos, Transact } from "../../repos";
import { SERVICE_NAMES, UpstreamError, type UpstreamService } from "../../upstream/errors";
import type { UpstreamTarget } from "../../upstream/http";
import { callbackUrl, type IdentitySettings } from "./identity-settings.service";
import { serviceUrl, type Site } from "../integrations/sites";
import { firstExpiry } from "./data-center-links";
import type { Providers, TokenAnswer } from "./providers";

/** Whom a call is made for: a person (a user-bound token, the chat) or a machine client (null). */
export interface CallFor {
  userId: string | null;
  /** Told whom the call acted as, once it is known: "shared", or the person's account id (the tool-call audit). */
  used?: (identity: string) => void;
}

/** An access token this close to expiry is refreshed before it is used. */
const REFRESH_MARGIN_MS = 60_000;
/** A person's link is re-read this often (another instance may have refreshed or removed it). */
const LINK_CACHE_MS = 15_000;
/** Last used is written at most this often per link. */
const TOUCH_EVERY_MS = 60_000;

/** Two site addresses name the same site (case and a trailing slash aside). */
export const sameSite = (a: string, b: string): boolean => a.replace(/\/+$/, "").toLowerCase() === b.replace(/\/+$/, "").toLowerCase();

const LINK_PURPOSE = (integration: Integration) => `account-link:${integration}`;
export const sealLinkSecret = (box: SecretBox, integration: Integration, secret: LinkSecret): string =>
  box.seal(JSON.stringify(secret), LINK_PURPOSE(integration));

interface CachedLink {
  row: AccountLinkRow;
  secret: LinkSecret;
  /** When the row was read. */
  at: number;
  /** The targets made from it, per service (cleared when the tokens change). */
  targets: Map<UpstreamService, UpstreamTarget>;
}

/** The sentence a model (and the person) reads when no identity of theirs may be used. */
export const identityError = (service: UpstreamService, sentence: string) => new UpstreamError(service, "identity", sentence);

/**
 * Acting as the person (issue 27 items 1 and 3). For an integration in per-person mode, a call made
 * for a person uses that person's linked account: its access token is kept in memory while it is
 * valid (a tool call then costs a map lookup), and refreshed shortly before it expires, one refresh
 * per link at a time: in this process by sharing the promise, across instances on PostgreSQL by a
 * row lock held over the refresh (Atlassian's refresh tokens rotate, and a second refresh with the
 * old one inside its leeway is tolerated but outside it revokes the grant). A refused refresh marks
 * the link "needs re-linking".
 */
export function createPersonIdentity(deps: {
  repos: Repos;
  transact: Transact;
  /** PGlite serves one process: the in-process single flight is the whole rule there. */
  dbKind: "pglite" | "postgres";
  secretBox: SecretBox;
  settings: IdentitySettings;
  providers: Providers;
  clock: Clock;
  log: Logger;
  publicUrl: string;
}) {
  const links = new Map<string, CachedLink>();
  const refreshing = new Map<string, Promise<CachedLink>>();
  const touched = new Map<string, number>();
  const accountsUrl = `${deps.publicUrl}${MY_ACCOUNTS_PATH}`;
  const key = (userId: string, integration: Integration) => `${userId}\u0000${integration}`;

  function open(row: AccountLinkRow): CachedLink {
    const secret = JSON.parse(deps.secretBox.open(row.secretSealed, LINK_PURPOSE(row.integration))) as LinkSecret;
    return { row, secret, at: Date.now(), targets: new Map() };
  }

  async function load(userId: string, integration: Integration): Promise<CachedLink | null> {
    const k = key(userId, integration);
    const hit = links.get(k);
    if (hit && Date.now() - hit.at < LINK_CACHE_MS) return hit;
    const row = await deps.repos.accountsRepo.findLink(userId, integration);
    if (!row) {
      links.delete(k);
      return null;
    }
    try {
      const fresh = open(row);
      links.set(k, fresh);
      return fresh;
    } catch {
      return null; // sealed under another SECRET_KEY: as if not linked
    }
  }

  const expiresSoon = (row: AccountLinkRow, now: number) =>
    row.accessExpiresAt !== null && row.accessExpiresAt.getTime() - now < REFRESH_MARGIN_MS;

  /** Refreshes the link's tokens: one refresh per link at a time, here and (PostgreSQL) across instances. */
  function refresh(link: CachedLink, service: UpstreamService, site: Site): Promise<CachedLink> {
    const id = link.row.id;
    let pending = refreshing.get(id);
    if (!pending) {
      pending = runRefresh(link.row, service, site).finally(() => refreshing.delete(id));
      refreshing.set(id, pending);
    }
    return pending;
  }

  type Outcome = { row: AccountLinkRow } | { refused: string } | { failed: UpstreamError };
  const noApp = (label: string) =>
    `Bridgekeeper cannot renew your ${label} link: an administrator must enter the OAuth app's client id and secret on the Configuration screen.`;

  /** A refresh that did not give tokens: refused for good (re-link; marked so under the lock) or failed for now. */
  async function notRenewed(
    r: Repos,
    row: AccountLinkRow,
    label: string,
    service: UpstreamService,
    answer: Extract<TokenAnswer, { ok: false }>,
  ): Promise<Outcome> {
    if (answer.error === "invalid_grant" || answer.error === "unauthorized_client" || answer.error === "access_denied") {
      const problem = `${label} refused to renew the link (${answer.error}${answer.description ? `: ${answer.description}` : ""})`;
      await r.accountsRepo.markNeedsRelinking(row.id, problem, deps.clock.now());
      return { refused: relinkSentence(label, problem) };
    }
    return { failed: new UpstreamError(service, "unreachable", `${label} did not renew your link (${answer.error}); try again later`) };
  }

  const unreachable = (err: unknown, service: UpstreamService, label: string) =>
    err instanceof UpstreamError ? err : new UpstreamError(service, "unreachable", `${label} could not be reached to renew your link`);

  /**
   * Data Center's grants (issue 28 item 7), one per server: each that expires soon is renewed at its
   * own server, `redirect_uri` included. Data Center rotates refresh tokens without leeway, so what
   * was renewed is stored even when another server's renewal then fails.
   */
  async function renewGrants(
    r: Repos,
    row: AccountLinkRow,
    grants: Partial<Record<UpstreamService, ServerGrant>>,
    service: UpstreamService,
    site: Site,
  ): Promise<Outcome> {
    const integration = row.integration;
    const renewed = { ...grants };
    let changed = false;
    /** Why the renewal stopped, as an outcome or a refused answer (marked only after the renewed tokens are stored). */
    let stopped: Outcome | { label: string; answer: Extract<TokenAnswer, { ok: false }> } | null = null;
    for (const server of Object.keys(grants) as UpstreamService[]) {
      const grant = grants[server]!;
      if (grant.expiresAt - deps.clock.now().getTime() >= REFRESH_MARGIN_MS) continue;
      const label = SERVICE_NAMES[server];
      const app = await deps.settings.app(integration, server === "confluence" ? "confluence" : "main");
      if (!app || !grant.refreshToken) {
        stopped = { refused: app ? relinkSentence(label, "it cannot be renewed") : noApp(label) };
        break;
      }
      let answer: TokenAnswer;
      try {
        const redirectUri = callbackUrl(deps.publicUrl, integration);
        answer = await deps.providers.dataCenter.refresh(server, serviceUrl(site, server), app, grant.refreshToken, redirectUri);
      } catch (err) {
        stopped = { failed: unreachable(err, service, label) };
        break;
      }
      if (!answer.ok) {
        stopped = { label, answer };
        break;
      }
      renewed[server] = {
        accessToken: answer.tokens.accessToken,
        refreshToken: answer.tokens.refreshToken ?? grant.refreshToken,
        expiresAt: deps.clock.now().getTime() + answer.tokens.expiresIn * 1000,
      };
      changed = true;
    }
    const now = deps.clock.now();
    const values = {
      secretSealed: sealLinkSecret(deps.secretBox, integration, { grants: renewed }),
      accessExpiresAt: firstExpiry(renewed),
    };
    if (changed) await r.accountsRepo.updateTokens(row.id, values, now);
    if (stopped && "answer" in stopped) return notRenewed(r, row, stopped.label, service, stopped.answer);
    if (stopped) return stopped;
    return { row: changed ? { ...row, ...values, state: "working", problem: null, updatedAt: now } : row };
  }

  async function runRefresh(stale: AccountLinkRow, service: UpstreamService, site: Site): Promise<CachedLink> {
    const integration = stale.integration;
    const label = INTEGRATION_LABELS[integration];
    const attempt = async (r: Repos): Promise<Outcome> => {
      const row =
        deps.dbKind === "postgres" ? await r.accountsRepo.lockLink(stale.id) : await r.accountsRepo.findLink(stale.userId, integration);
      if (!row || row.id !== stale.id)
        return { refused: `Your ${label} account was unlinked. Link it again at ${accountsUrl}, then try again.` };
      if (row.state === "needs-relinking") return { refused: relinkSentence(label, row.problem) };
      // Another request or instance refreshed it while this one waited for the lock.
      if (!expiresSoon(row, deps.clock.now().getTime())) return { row };
      const secret = JSON.parse(deps.secretBox.open(row.secretSealed, LINK_PURPOSE(integration))) as LinkSecret;
      if ("grants" in secret) return renewGrants(r, row, secret.grants, service, site);
      if (!("accessToken" in secret) || !secret.refreshToken) return { refused: relinkSentence(label, "it cannot be renewed") };
      const app = await deps.settings.app(integration);
      if (!app) return { refused: noApp(label) };
      let answer;
      try {
        answer = await deps.providers.refresh(integration, app, secret.refreshToken);
      } catch (err) {
        return { failed: unreachable(err, service, label) };
      }
      const now = deps.clock.now();
      if (!answer.ok) return notRenewed(r, row, label, service, answer);
      const renewed: LinkSecret = {
        accessToken: answer.tokens.accessToken,
        refreshToken: answer.tokens.refreshToken ?? secret.refreshToken,
      };
      const values = {
        secretSealed: sealLinkSecret(deps.secretBox, integration, renewed),
        accessExpiresAt: new Date(now.getTime() + answer.tokens.expiresIn * 1000),
        ...(answer.tokens.scopes.length > 0 ? { scopes: answer.tokens.scopes } : {}),
      };
      await r.accountsRepo.updateTokens(row.id, values, now);
      return { row: { ...row, ...values, state: "working", problem: null, updatedAt: now } };
    };
    // The refused outcome is returned, not thrown, so the "needs re-linking" mark commits.
    const outcome = deps.dbKind === "postgres" ? await deps.transact(attempt) : await attempt(deps.repos);
    if ("failed" in outcome) throw outcome.failed;
    if ("refused" in outcome) {
      links.delete(key(stale.userId, integration));
      throw identityError(service, outcome.refused);
    }
    const fresh = open(outcome.row);
    links.set(key(stale.userId, integration), fresh);
    return fresh;
  }

  const relinkSentence = (label: string, problem: string | null) =>
    `Your ${label} link needs re-linking${problem ? ` (${problem})` : ""}. Link it again at ${accountsUrl}, then try again.`;

  function touch(row: AccountLinkRow): void {
    const now = Date.now();
    if (now - (touched.get(row.id) ?? 0) < TOUCH_EVERY_MS) return;
    touched.set(row.id, now);
    deps.repos.accountsRepo.touch(row.id, deps.clock.now()).catch((err) => deps.log.warn({ err }, "could not record a link's last use"));
  }

  return {
    /**
     * The target of a call for `who` on `service`, or null when it goes as the shared account.
     * Throws a tool-ready UpstreamError (kind "identity") when no identity of theirs may be used.
     */
    async targetFor(who: CallFor, integration: Integration, service: UpstreamService, site: Site): Promise<UpstreamTarget | null> {
      const settings = await deps.settings.get(integration);
      const label = INTEGRATION_LABELS[integration];
      if (settings.mode === "shared") {
        who.used?.("shared");
        return null;
      }
      if (who.userId === null) {
        if (settings.allowMachineClients) {
          who.used?.("shared");
          return null;
        }
        throw identityError(
          service,
          `Bridgekeeper reaches ${label} as each person's own account, and this client acts for no person (a machine client): an administrator must allow machine clients on the Configuration screen for it to use the shared account.`,
        );
      }
      let link = await load(who.userId, integration);
      if (!link)
        throw identityError(
          service,
          `Bridgekeeper reaches ${label} as you, and you have not linked your ${label} account yet. Link it at ${accountsUrl}, then try again.`,
        );
      if (link.row.state === "needs-relinking") throw identityError(service, relinkSentence(label, link.row.problem));
      // A grant for the site configured when it was made: another site since is not reached with it.
      if (link.row.siteUrl !== null && !sameSite(link.row.siteUrl, site.instanceUrl))
        throw identityError(
          service,
          `Your ${label} link is for ${link.row.siteUrl}, and Bridgekeeper now works with ${site.instanceUrl}. Link your account again at ${accountsUrl}, then try again.`,
        );
      if (expiresSoon(link.row, deps.clock.now().getTime())) link = await refresh(link, service, site);
      who.used?.(link.row.accountId);
      touch(link.row);
      let target = link.targets.get(service);
      if (!target) {
        target = { ...deps.providers.target(link.row, link.secret, service, site), relinkAt: accountsUrl };
        link.targets.set(service, target);
      }
      return target;
    },

    /** A link changed here (linked, unlinked, a user deactivated): the next call reads it again. */
    forget(userId: string | null): void {
      if (userId === null) links.clear();
      else for (const integration of ["atlassian", "bitbucket"] as const) links.delete(key(userId, integration));
    },
  };
}

export type PersonIdentity = ReturnType<typeof createPersonIdentity>;
