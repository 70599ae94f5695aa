import { INTEGRATION_LABELS, MY_ACCOUNTS_PATH, type Integration } from "../../../contract/accounts";
import type { AccountLinkRow, LinkSecret } from "../../db/schema";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { SecretBox } from "../../lib/secret-box";
import type { Repos, Transact } from "../../repos";
import { UpstreamError, type UpstreamService } from "../../upstream/errors";
import type { UpstreamTarget } from "../../upstream/http";
import type { IdentitySettings } from "./identity-settings.service";
import type { Site } from "../integrations/sites";
import type { Providers } from "./providers";

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
  function refresh(link: CachedLink, service: UpstreamService): Promise<CachedLink> {
    const id = link.row.id;
    let pending = refreshing.get(id);
    if (!pending) {
      pending = runRefresh(link.row, service).finally(() => refreshing.delete(id));
      refreshing.set(id, pending);
    }
    return pending;
  }

  async function runRefresh(stale: AccountLinkRow, service: UpstreamService): Promise<CachedLink> {
    const integration = stale.integration;
    const label = INTEGRATION_LABELS[integration];
    const app = await deps.settings.app(integration);
    if (!app)
      throw identityError(
        service,
        `Bridgekeeper cannot renew your ${label} link: an administrator must enter the OAuth app's client id and secret on the Configuration screen.`,
      );
    type Outcome = { row: AccountLinkRow } | { refused: string } | { failed: UpstreamError };
    const attempt = async (r: Repos): Promise<Outcome> => {
      const row =
        deps.dbKind === "postgres" ? await r.accountsRepo.lockLink(stale.id) : await r.accountsRepo.findLink(stale.userId, integration);
      if (!row || row.id !== stale.id)
        return { refused: `Your ${label} account was unlinked. Link it again at ${accountsUrl}, then try again.` };
      if (row.state === "needs-relinking") return { refused: relinkSentence(label, row.problem) };
      // Another request or instance refreshed it while this one waited for the lock.
      if (!expiresSoon(row, deps.clock.now().getTime())) return { row };
      const secret = JSON.parse(deps.secretBox.open(row.secretSealed, LINK_PURPOSE(integration))) as LinkSecret;
      if (!("accessToken" in secret) || !secret.refreshToken) return { refused: relinkSentence(label, "it cannot be renewed") };
      let answer;
      try {
        answer = await deps.providers.refresh(integration, app, secret.refreshToken);
      } catch (err) {
        return {
          failed:
            err instanceof UpstreamError
              ? err
              : new UpstreamError(service, "unreachable", `${label} could not be reached to renew your link`),
        };
      }
      const now = deps.clock.now();
      if (!answer.ok) {
        if (answer.error === "invalid_grant" || answer.error === "unauthorized_client" || answer.error === "access_denied") {
          const problem = `${label} refused to renew the link (${answer.error}${answer.description ? `: ${answer.description}` : ""})`;
          await r.accountsRepo.markNeedsRelinking(row.id, problem, now);
          return { refused: relinkSentence(label, problem) };
        }
        return { failed: new UpstreamError(service, "unreachable", `${label} did not renew your link (${answer.error}); try again later`) };
      }
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
      if (expiresSoon(link.row, deps.clock.now().getTime())) link = await refresh(link, service);
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
