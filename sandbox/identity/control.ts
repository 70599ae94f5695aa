import { z } from "zod";
import { json, type Router } from "../core/http";
import { BITBUCKET_SCOPES } from "./bitbucket.routes";
import { validRedirectUri } from "./consent";
import type { IdentityContext } from "./context";
import { dataCenterScope } from "./datacenter.routes";
import { dataCenterServer, isDataCenterService, type OAuthService } from "./oauth-store";

/**
 * The control API of the imitated authorization servers, for tests and the demo: the OAuth clock,
 * access token lifetimes, the token endpoints' call log, and authorization codes minted as if a
 * person had consented (no browser needed), for the Cloud servers and each Data Center server.
 */

const SERVICES = ["atlassian", "bitbucket", "jira-dc", "confluence-dc", "bitbucket-dc"] as const satisfies readonly OAuthService[];
const ServiceSchema = z.enum(SERVICES);

const ClockSchema = z
  .object({
    advanceSeconds: z
      .number()
      .int()
      .min(0)
      .max(10 * 365 * 86_400),
  })
  .strict();

const Ttl = z
  .number()
  .int()
  .min(1)
  .max(365 * 86_400);
const SettingsSchema = z
  .object({
    /** Atlassian's access token lifetime (or the `service` named). */
    accessTokenTtlSeconds: Ttl.optional(),
    bitbucketAccessTokenTtlSeconds: Ttl.optional(),
    service: ServiceSchema.optional(),
  })
  .strict();

const CodeSchema = z
  .object({
    service: ServiceSchema,
    accountId: z.string().min(1),
    // null as absent: callers copy these from an authorize URL, where they may be missing.
    redirectUri: z.string().min(1).nullish(),
    scope: z.string().nullish(),
    codeChallenge: z.string().min(1).nullish(),
    cloudId: z.string().min(1).nullish(),
  })
  .strict();

export function identityControlRoutes(router: Router, ctx: IdentityContext): void {
  const settings = () => Object.fromEntries(SERVICES.map((s) => [s, { accessTokenTtlSeconds: ctx.oauth.ttl[s] }]));

  router.post("/__sandbox/clock", (req) => {
    const parsed = ClockSchema.safeParse(req.body);
    if (!parsed.success) return json({ error: z.prettifyError(parsed.error) }, 400);
    ctx.oauth.advance(parsed.data.advanceSeconds);
    return json({ now: new Date(ctx.oauth.now()).toISOString() });
  });
  router.get("/__sandbox/clock", () => json({ now: new Date(ctx.oauth.now()).toISOString() }));

  router.get("/__sandbox/oauth/settings", () => json(settings()));
  router.post("/__sandbox/oauth/settings", (req) => {
    const parsed = SettingsSchema.safeParse(req.body);
    if (!parsed.success) return json({ error: z.prettifyError(parsed.error) }, 400);
    const { accessTokenTtlSeconds, bitbucketAccessTokenTtlSeconds, service } = parsed.data;
    if (accessTokenTtlSeconds !== undefined) ctx.oauth.ttl[service ?? "atlassian"] = accessTokenTtlSeconds;
    if (bitbucketAccessTokenTtlSeconds !== undefined) ctx.oauth.ttl.bitbucket = bitbucketAccessTokenTtlSeconds;
    return json(settings());
  });

  router.get("/__sandbox/oauth/log", () => json(ctx.oauth.logEntries()));

  router.post("/__sandbox/oauth/codes", (req) => {
    const parsed = CodeSchema.safeParse(req.body);
    if (!parsed.success) return json({ error: z.prettifyError(parsed.error) }, 400);
    const d = parsed.data;
    if (!ctx.auth.byAccount(d.accountId)) return json({ error: `No account ${d.accountId}` }, 400);
    const redirectUri = d.redirectUri == null ? null : validRedirectUri(d.redirectUri);
    if (d.redirectUri != null && !redirectUri) return json({ error: "redirectUri must be an absolute http or https URL" }, 400);
    if (d.service === "atlassian" && !redirectUri) return json({ error: "redirectUri is required for an Atlassian code" }, 400);
    if (isDataCenterService(d.service)) {
      if (!redirectUri) return json({ error: "redirectUri is required for a Data Center code" }, 400);
      const server = dataCenterServer(d.service);
      const scope = dataCenterScope(server, d.scope);
      if (!scope) return json({ error: `Unknown scope ${d.scope} on ${d.service}` }, 400);
      const code = ctx.oauth.issueCode({
        service: d.service,
        clientId: ctx.accounts.dataCenter.oauthClients[server].clientId,
        accountId: d.accountId,
        redirectUri,
        scope,
        codeChallenge: d.codeChallenge ?? null,
        cloudId: null,
      });
      return json({ code });
    }
    const cloudId = d.service === "atlassian" ? (d.cloudId ?? ctx.accounts.cloudId) : null;
    if (cloudId !== null && cloudId !== ctx.accounts.cloudId && cloudId !== ctx.accounts.otherSite.cloudId)
      return json({ error: `Unknown cloudId ${cloudId}` }, 400);
    const code = ctx.oauth.issueCode({
      service: d.service,
      clientId: d.service === "atlassian" ? ctx.accounts.atlassianApp.clientId : ctx.accounts.bitbucketConsumer.key,
      accountId: d.accountId,
      redirectUri,
      scope: d.service === "bitbucket" ? BITBUCKET_SCOPES : (d.scope ?? "read:jira-work read:jira-user offline_access"),
      codeChallenge: d.codeChallenge ?? null,
      cloudId,
    });
    return json({ code });
  });
}
