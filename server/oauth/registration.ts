import { InvalidClientMetadataError, OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { RequestHandler } from "express";
import { z } from "zod";
import type { OAuthClientsService } from "../modules/oauth/oauth-clients.service";
import { sendOAuthError } from "./oauth-error";

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/**
 * RFC 7591 §2 client metadata, what we take of it. Sizes are bounded; fields we do not use
 * (jwks, logos, contacts ...) are dropped, never stored or echoed back.
 */
const RegistrationSchema = z.object({
  redirect_uris: z.array(text(2048)).min(1, "at least one redirect URI is required").max(20, "at most 20 redirect URIs"),
  token_endpoint_auth_method: z.enum(["none", "client_secret_basic", "client_secret_post"], { error: "token_endpoint_auth_method must be none, client_secret_basic or client_secret_post" }).optional(),
  grant_types: z.array(text(100)).max(10).optional(),
  response_types: z.array(z.literal("code", { error: "only the code response type is supported" })).max(1).optional(),
  client_name: text(200).optional(),
  scope: text(1000).optional(),
  /** OpenID Connect Registration §2: what the redirect URIs may be (contract/oauth.ts redirectUriProblem). */
  application_type: z.enum(["web", "native"], { error: "application_type must be web or native" }).optional(),
  software_id: text(200).optional(),
  software_version: text(200).optional(),
});

export type RegistrationRequest = z.infer<typeof RegistrationSchema>;

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
