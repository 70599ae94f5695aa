import type { ClientOrigin, OAuthClientDto } from "../../../contract/oauth";
import { OPEN_POLICY } from "../../../contract/policy";
import type { OAuthClientRow } from "../../db/schema";

/** A client as the service hands it out: its row, its live grants, and its secret when the caller may see it. */
export type OAuthClientView = OAuthClientRow & { activeGrants: number; secret: string | null };

/** The stored origin of a client, as the API and the consent page name it. */
export const registeredViaOf = (value: string): ClientOrigin => (value === "dynamic" || value === "metadata-document" ? value : "console");

/** The only way a client leaves the server (an allow-list: the sealed secret never does). */
export const toOAuthClientDto = (c: OAuthClientView): OAuthClientDto => ({
  id: c.id,
  name: c.name,
  clientId: c.clientId,
  clientSecret: c.secret,
  clientType: c.secretSealed ? "confidential" : "public",
  redirectUris: c.redirectUris,
  scopes: c.scopes,
  isActive: c.isActive,
  registeredVia: registeredViaOf(c.registeredVia),
  activeGrants: c.activeGrants,
  policy: c.policy ?? OPEN_POLICY,
  createdAt: c.createdAt.toISOString(),
});
