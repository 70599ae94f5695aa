import { timingSafeEqual } from "node:crypto";
import { InvalidClientError, InvalidRequestError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { RequestHandler } from "express";
import { BASIC_CHALLENGE, sendOAuthError } from "./oauth-error";
import type { OAuthClientsService } from "../modules/oauth/oauth-clients.service";
import { hasControlCharacters } from "../../contract/text";

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** RFC 6749 §2.3.1: the Basic credentials are form-encoded before base64. */
const formDecode = (s: string): string => decodeURIComponent(s.replace(/\+/g, " "));

/**
 * Client authentication for the token and revocation endpoints, before the SDK's handlers:
 * client_secret_basic (which the SDK does not read) becomes the form fields it does read, every
 * secret is compared in constant time, and a failure is 401 invalid_client (RFC 6749 §5.2).
 * `req.clientAuthenticated` tells later steps that a secret was presented and matched.
 */
export function authenticateClient(clients: OAuthClientsService): RequestHandler {
  return async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const header = req.headers.authorization;
      let clientId: unknown = body.client_id;
      let secret: unknown = body.client_secret;
      // RFC 6749 §5.2: an attempt at Basic, even a bare "Basic" without credentials, is answered
      // with 401 and a Basic challenge.
      const basic = typeof header === "string" && /^basic(?:\s|$)/i.test(header);
      const challenge = basic ? BASIC_CHALLENGE : undefined;
      if (basic) {
        if (body.client_secret !== undefined)
          return sendOAuthError(res, 400, new InvalidRequestError("Use one client authentication method, not two"));
        const decoded = Buffer.from(header.slice(5).trim(), "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        if (colon < 1) return sendOAuthError(res, 401, new InvalidClientError("Malformed Basic credentials"), BASIC_CHALLENGE);
        try {
          clientId = formDecode(decoded.slice(0, colon));
          secret = formDecode(decoded.slice(colon + 1));
        } catch {
          return sendOAuthError(res, 401, new InvalidClientError("Malformed Basic credentials"), BASIC_CHALLENGE);
        }
        // The form's fields were checked for control characters; the header's are checked here.
        if (hasControlCharacters(String(clientId)) || hasControlCharacters(String(secret)))
          return sendOAuthError(res, 401, new InvalidClientError("Malformed Basic credentials"), BASIC_CHALLENGE);
        if (body.client_id !== undefined && body.client_id !== clientId)
          return sendOAuthError(res, 400, new InvalidRequestError("client_id does not match the credentials"));
      }
      if (typeof clientId !== "string" || clientId === "")
        return sendOAuthError(res, 401, new InvalidClientError("Client authentication is required"), challenge);
      if (secret !== undefined && typeof secret !== "string")
        return sendOAuthError(res, 400, new InvalidRequestError("client_secret must be a string"));
      const client = await clients.forOAuth(clientId);
      if (!client) return sendOAuthError(res, 401, new InvalidClientError("Unknown or inactive client"), challenge);
      if (client.client_secret) {
        if (typeof secret !== "string" || !sameSecret(secret, client.client_secret))
          return sendOAuthError(res, 401, new InvalidClientError("Invalid client credentials"), challenge);
      } else if (secret !== undefined && secret !== "") {
        return sendOAuthError(res, 401, new InvalidClientError("This public client has no secret"), challenge);
      }
      // The SDK's handlers read the client from the form fields (and check the secret again).
      req.body = { ...body, client_id: clientId, ...(client.client_secret ? { client_secret: client.client_secret } : {}) };
      res.locals.oauthClient = client;
      res.locals.clientAuthenticated = Boolean(client.client_secret);
      next();
    } catch (err) {
      next(err);
    }
  };
}
