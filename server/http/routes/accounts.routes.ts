import { Router, type Request } from "express";
import { z } from "zod";
import {
  apiTokenLinkSchemaFor,
  AuthorizeLinkInputSchema,
  IdentitySettingsInputSchema,
  INTEGRATIONS,
  type Integration,
} from "../../../contract/accounts";
import type { AccountLinksService } from "../../modules/accounts/account-links.service";
import type { IdentitySettings } from "../../modules/accounts/identity-settings.service";
import { AppError } from "../../lib/app-error";
import { actorOf } from "../actor";
import { can, publicAccess, signedIn } from "../middleware/access";
import { uuidParam } from "../params";
import { parseInput } from "../validate";

const IntegrationParam = z.enum(INTEGRATIONS);

/** An integration in a path: anything else is simply not found. */
function integrationParam(value: string | string[] | undefined): Integration {
  const parsed = IntegrationParam.safeParse(value);
  if (!parsed.success) throw new AppError("not_found", "No such integration");
  return parsed.data;
}

/** One query parameter as a bounded string, or undefined (a repeated or oversized one is ignored). */
const queryText = (req: Request, name: string): string | undefined => {
  const value = req.query[name];
  return typeof value === "string" && value.length <= 4096 ? value : undefined;
};

/**
 * Acting as the person (issue 27): a person's own accounts (My accounts; any signed-in user, their
 * own links only), the services' OAuth callbacks, the identity settings of the Configuration
 * screen, and an administrator's view of a user's links (states, never tokens).
 */
export function accountsRoutes(deps: { links: AccountLinksService; identity: IdentitySettings }): Router {
  const { links, identity } = deps;
  const router = Router();

  router.get("/account/links", signedIn, async (req, res) => {
    res.json(await links.mine(req.session!.user.id));
  });

  router.post("/account/links/:integration/authorize", signedIn, async (req, res) => {
    const integration = integrationParam(req.params.integration);
    const { returnTo } = parseInput(AuthorizeLinkInputSchema, req.body);
    res.json(await links.startOAuth({ userId: req.session!.user.id, sessionId: req.session!.session.id }, integration, returnTo));
  });

  // The service sends the browser here after consent: checked against the attempt and this session, then back to the console.
  router.get("/account/links/:integration/callback", publicAccess, async (req, res) => {
    const integration = integrationParam(req.params.integration);
    const session = req.session ? { userId: req.session.user.id, sessionId: req.session.session.id } : null;
    const query = { code: queryText(req, "code"), state: queryText(req, "state"), error: queryText(req, "error") };
    // No body: Express's redirect would write an HTML page for a browser, and this API answers none.
    res
      .status(303)
      .location(await links.finishOAuth(integration, query, session, actorOf(req)))
      .end();
  });

  router.post("/account/links/:integration/api-token", signedIn, async (req, res) => {
    const integration = integrationParam(req.params.integration);
    const input = parseInput(apiTokenLinkSchemaFor(await links.deploymentOf(integration)), req.body);
    res.status(201).json(await links.linkApiToken(req.session!.user.id, integration, input, actorOf(req)));
  });

  router.delete("/account/links/:integration", signedIn, async (req, res) => {
    const integration = integrationParam(req.params.integration);
    if (!(await links.unlinkMine(req.session!.user.id, integration, actorOf(req)))) throw new AppError("not_found", "No such link");
    res.status(204).end();
  });

  router.get("/admin/identity", can("config.read"), async (_req, res) => {
    res.json(await Promise.all(INTEGRATIONS.map(async (integration) => identity.dto(integration))));
  });

  router.put("/admin/identity/:integration", can("config.write"), async (req, res) => {
    const integration = integrationParam(req.params.integration);
    res.json(await identity.save(integration, parseInput(IdentitySettingsInputSchema, req.body), actorOf(req)));
  });

  router.get("/users/:id/links", can("users.read"), async (req, res) => {
    res.json(await links.linksOf(uuidParam(req.params.id, "User")));
  });

  router.delete("/users/:id/links/:integration", can("users.write"), async (req, res) => {
    const id = uuidParam(req.params.id, "User");
    await links.unlinkFor(id, integrationParam(req.params.integration), actorOf(req));
    res.status(204).end();
  });

  return router;
}
