import { InvalidClientMetadataError, OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { RequestHandler } from "express";
import type { OAuthClientsService } from "../modules/oauth/oauth-clients.service";
import { RegistrationSchema } from "../../contract/oauth";
import { sendOAuthError } from "./oauth-error";

/**
 * RFC 7591 dynamic client registration, on with OAUTH_DYNAMIC_REGISTRATION. Our own handler (the
 * SDK's echoes whatever metadata it was sent and drops application_type): the request is checked
 * whole before anything is stored, and the answer repeats only what was stored.
 */
export function registrationHandler(deps: { clients: OAuthClientsService }): RequestHandler {
  return async (req, res, next) => {
    res.set("Cache-Control", "no-store");
    try {
      const parsed = RegistrationSchema.safeParse(req.body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new InvalidClientMetadataError(`${issue.path.join(".") || "metadata"}: ${issue.message}`);
      }
      res.status(201).json(await deps.clients.register(parsed.data));
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(res, 400, err);
      next(err);
    }
  };
}
