import { Router, type Request } from "express";
import { ConsentDecisionSchema, OAuthClientCreateSchema, OAuthClientUpdateSchema, type ConsentRequestDto } from "../../../contract/oauth";
import { clientPolicySchemaFor } from "../../../contract/policy-options";
import { toOAuthClientDto } from "../../modules/oauth/oauth-clients.presenter";
import type { IntegrationConfigService } from "../../modules/integrations/integration-config.service";
import type { OAuthClientsService } from "../../modules/oauth/oauth-clients.service";
import type { OAuthConsentService } from "../../modules/oauth/oauth-consent.service";
import type { PolicyOptionsService } from "../../modules/oauth/policy-options.service";
import { AppError } from "../../lib/app-error";
import { isMetadataDocumentUrl } from "../../oauth/client-metadata-documents";
import { actorOf } from "../actor";
import { can, signedIn } from "../middleware/access";
import { parseInput } from "../validate";

/** A client id in a path (ours, or a metadata document's URL, percent-encoded): anything else is simply not found. */
const clientIdParam = (value: unknown): string => {
  if (typeof value !== "string" || !(/^[\w-]{1,200}$/.test(value) || isMetadataDocumentUrl(value)))
    throw new AppError("not_found", "OAuth client not found");
  return value;
};

/** OAuth Clients screen (spec section 7; docs/decisions.md#oauth-client-secrets) and the consent page's two calls. */
export function oauthClientsRoutes(deps: {
  clients: OAuthClientsService;
  consent: Pick<OAuthConsentService, "consentRequest" | "decide">;
  integrations: Pick<IntegrationConfigService, "accountsInUse">;
  policyOptions: Pick<PolicyOptionsService, "options" | "toolNames">;
}): Router {
  const { clients, consent, integrations, policyOptions } = deps;
  const router = Router();
  // A tool switched off must be one of ours (issue 25 item 5): a typo would switch nothing off.
  const PolicySchema = clientPolicySchemaFor(policyOptions.toolNames);

  router.get("/admin/oauth-clients", can("oauth-clients.read"), async (req, res) => {
    // docs/decisions.md#oauth-client-secrets: secrets only for those who manage clients.
    res.json((await clients.list({ withSecrets: req.session?.permissions.has("oauth-clients.write") ?? false })).map(toOAuthClientDto));
  });
  router.post("/admin/oauth-clients", can("oauth-clients.write"), async (req, res) => {
    res.status(201).json(toOAuthClientDto(await clients.create(parseInput(OAuthClientCreateSchema, req.body), actorOf(req))));
  });
  router.patch("/admin/oauth-clients/:clientId", can("oauth-clients.write"), async (req, res) => {
    const { isActive } = parseInput(OAuthClientUpdateSchema, req.body);
    res.json(toOAuthClientDto(await clients.setActive(clientIdParam(req.params.clientId), isActive, actorOf(req))));
  });
  // What the client's AI may touch (issue 11 item 4): read by those who see clients, set by those who manage them.
  router.get("/admin/oauth-clients/:clientId/policy", can("oauth-clients.read"), async (req, res) => {
    res.json(await clients.policy(clientIdParam(req.params.clientId)));
  });
  router.put("/admin/oauth-clients/:clientId/policy", can("oauth-clients.write"), async (req, res) => {
    res.json(await clients.setPolicy(clientIdParam(req.params.clientId), parseInput(PolicySchema, req.body), actorOf(req)));
  });
  // What the policy editor picks from: read by those who may set a policy (it lists the integrations' keys).
  router.get("/admin/policy-options", can("oauth-clients.write"), async (_req, res) => {
    res.json(await policyOptions.options());
  });
  router.post("/admin/oauth-clients/:clientId/secret", can("oauth-clients.write"), async (req, res) => {
    res.json(toOAuthClientDto(await clients.regenerateSecret(clientIdParam(req.params.clientId), actorOf(req))));
  });
  router.delete("/admin/oauth-clients/:clientId", can("oauth-clients.write"), async (req, res) => {
    await clients.delete(clientIdParam(req.params.clientId), actorOf(req));
    res.status(204).end();
  });

  // The consent page: any signed-in user answers for themselves; the decision is a
  // cookie-authenticated write, so the CSRF guard has already checked where it came from.
  const requestId = (value: unknown): string => {
    if (typeof value !== "string" || !/^[\w-]{10,100}$/.test(value))
      throw new AppError("not_found", "This authorization request has expired or was already answered");
    return value;
  };
  const consenting = (req: Request) => ({
    mayConsent: req.session?.permissions.has("mcp.read") ?? false,
    mayGrantWrite: req.session?.permissions.has("mcp.write") ?? false,
  });
  router.get("/oauth/requests/:id", signedIn, async (req, res) => {
    const [request, accounts] = await Promise.all([
      consent.consentRequest(requestId(req.params.id), consenting(req)),
      integrations.accountsInUse(),
    ]);
    res.json({ ...request, actsAs: accounts } satisfies ConsentRequestDto);
  });
  router.post("/oauth/requests/:id/decision", signedIn, async (req, res) => {
    const { approve } = parseInput(ConsentDecisionSchema, req.body);
    res.json(await consent.decide(requestId(req.params.id), approve, actorOf(req), consenting(req)));
  });

  return router;
}
