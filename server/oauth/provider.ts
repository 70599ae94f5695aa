import type { OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { InvalidClientError, InvalidRequestError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { Response } from "express";
import type { OAuthClientsService } from "../modules/oauth/oauth-clients.service";
import type { OAuthConsentService } from "../modules/oauth/oauth-consent.service";
import type { OAuthClient, OAuthTokensService } from "../modules/oauth/oauth-tokens.service";

/**
 * The MCP SDK's OAuth endpoints (parsing, PKCE S256 check, error responses) on our services: this
 * adapter only translates between the SDK's provider interface and them.
 */
export function createOAuthProvider(deps: {
  clients: OAuthClientsService;
  consent: Pick<OAuthConsentService, "authorize">;
  tokens: OAuthTokensService;
}): OAuthServerProvider {
  const { clients, consent, tokens } = deps;

  // Registration is ours (oauth/registration.ts), not the SDK's: the store only looks clients up.
  const clientsStore: OAuthRegisteredClientsStore = { getClient: (clientId) => clients.forOAuth(clientId) };

  /** The SDK hands back the object getClient returned; make sure it is one of ours. */
  const ours = (client: unknown): OAuthClient => {
    if (!client || typeof client !== "object" || !("rowId" in client)) throw new InvalidClientError("Unknown client");
    return client as OAuthClient;
  };

  return {
    clientsStore,
    async authorize(client, params, res: Response) {
      // RFC 7636 §4.2: S256 of a 43-128 character verifier is 43 base64url characters; nothing else is a challenge.
      if (!/^[A-Za-z0-9_-]{43,128}$/.test(params.codeChallenge))
        throw new InvalidRequestError("code_challenge must be 43 to 128 base64url characters (RFC 7636)");
      // The SDK fills in a lone registered redirect URI; whether the client named it was noted
      // before the SDK ran (oauth.routes.ts).
      res.redirect(
        302,
        await consent.authorize(ours(client), { ...params, redirectUriExplicit: res.locals.redirectUriExplicit !== false }),
      );
    },
    challengeForAuthorizationCode: (client, code) => tokens.challengeForCode(ours(client), code),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) =>
      tokens.exchangeCode(ours(client), code, redirectUri, resource),
    exchangeRefreshToken: (client, refreshToken, scopes, resource) => tokens.exchangeRefresh(ours(client), refreshToken, scopes, resource),
    verifyAccessToken: (token) => tokens.verifyAccessToken(token),
    revokeToken: (client, request) => tokens.revoke(ours(client), request.token),
  };
}
