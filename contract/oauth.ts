import type { ClientPolicy } from "./policy";
import { z } from "zod";
import { line, multiline } from "./text";

/**
 * The scopes the server knows: read-only tools and proxy GETs, and tools that change things
 * (docs/decisions.md#bearer-tokens-and-scopes).
 */
export const OAUTH_SCOPES = ["read", "write"] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];
/** What each scope lets a client do, where a person grants it (Create Client, consent). */
export const SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  read: "Read Jira issues, Confluence pages and Bitbucket repositories",
  write: "Create and change Jira issues, Confluence pages and Bitbucket pull requests",
};
export const DEFAULT_SCOPES_TEXT = "read write";

/** Spec section 5 messages for the Create Client form, word for word. */
export const OAUTH_CLIENT_MESSAGES = {
  name: "Name is required",
  redirectUris: "At least one redirect URI is required",
  scopes: "At least one scope is required",
} as const;

/** Spec section 9: a secret is shown as 32 bullets until revealed. */
export const SECRET_MASK = "•".repeat(32);

/** The form's parsing rules (spec section 5): URIs one per line, scopes space-separated; empties dropped. */
export const splitRedirectUris = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
export const splitScopes = (text: string): string[] =>
  text
    .split(" ")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Schemes that are never an app's own (RFC 8252 §7.1 private-use schemes are): they run script,
 * read local or in-memory content, or hand the code to another program. Anything else that is a
 * scheme is taken as a native app's own, as desktop AI clients use them (cursor://, vscode://);
 * RFC 8252 recommends reverse-domain names but real clients do not all follow it.
 */
const FORBIDDEN_SCHEMES = new Set([
  "javascript",
  "vbscript",
  "data",
  "file",
  "blob",
  "filesystem",
  "about",
  "view-source",
  "ftp",
  "ws",
  "wss",
  "mailto",
  "tel",
  "sms",
  "urn",
  "jar",
  "intent",
]);

/**
 * A redirect URI we accept (RFC 9700 §4.1, OAuth 2.1 §2.3.1): absolute, no fragment, no
 * credentials; https, http only for loopback, or a native app's private-use scheme (RFC 8252
 * §7.1) such as com.example.app:/cb or cursor://…, never javascript:, data:, file:, blob: and the
 * like (FORBIDDEN_SCHEMES). `applicationType` (OpenID Connect Registration §2) narrows it: a web
 * client redirects to https on a real host, a native one to loopback or its own scheme.
 */
export function redirectUriProblem(uri: string, applicationType?: "web" | "native"): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URL`;
  }
  if (url.hash || uri.includes("#")) return `"${uri}" must not contain a fragment`;
  if (url.username || url.password) return `"${uri}" must not contain credentials`;
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (scheme === "http" && !loopback) return `"${uri}" must use https (http only for localhost)`;
  if (FORBIDDEN_SCHEMES.has(scheme))
    return `"${uri}" uses a forbidden scheme: https, http for localhost, or an app's own scheme such as com.example.app:/callback`;
  if (applicationType === "web" && (scheme !== "https" || loopback))
    return `"${uri}" is not a web redirect URI (https on a host other than localhost)`;
  if (applicationType === "native" && scheme === "https" && !loopback)
    return `"${uri}" is not a native redirect URI (http on localhost, or a private-use scheme)`;
  return null;
}

const redirectUris = z
  .array(line().max(2048, "A redirect URI must be at most 2048 characters"), { error: OAUTH_CLIENT_MESSAGES.redirectUris })
  .min(1, OAUTH_CLIENT_MESSAGES.redirectUris)
  .max(20, "At most 20 redirect URIs")
  .superRefine((uris, ctx) => {
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }
  });

const scopes = z
  .array(line(), { error: OAUTH_CLIENT_MESSAGES.scopes })
  .min(1, OAUTH_CLIENT_MESSAGES.scopes)
  .superRefine((list, ctx) => {
    const unknown = list.filter((s) => !(OAUTH_SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0)
      ctx.addIssue({ code: "custom", message: `Unknown scope: ${unknown.join(", ")} (known: ${OAUTH_SCOPES.join(", ")})` });
  })
  .transform((list) => [...new Set(list)]);

/** POST /api/admin/oauth-clients (spec section 7), plus the client type beyond the spec. */
export const OAuthClientCreateSchema = z.object({
  name: line({ error: OAUTH_CLIENT_MESSAGES.name })
    .trim()
    .min(1, OAUTH_CLIENT_MESSAGES.name)
    .max(100, "Name must be at most 100 characters"),
  redirectUris,
  scopes,
  isActive: z.boolean().default(true),
  /** Confidential (default): gets a secret. Public: no secret, PKCE only (docs/decisions.md#oauth-client-secrets). */
  clientType: z.enum(["confidential", "public"]).default("confidential"),
});
export type OAuthClientCreate = z.input<typeof OAuthClientCreateSchema>;

/** The console's form: text areas, parsed by the spec's rules into the API's lists. */
export const OAuthClientFormSchema = z.object({
  name: line().trim().min(1, OAUTH_CLIENT_MESSAGES.name).max(100, "Name must be at most 100 characters"),
  redirectUris: multiline().transform(splitRedirectUris).pipe(redirectUris),
  scopes: line().transform(splitScopes).pipe(scopes),
  isActive: z.boolean(),
  clientType: z.enum(["confidential", "public"]),
});
export type OAuthClientFormInput = z.input<typeof OAuthClientFormSchema>;

/** PATCH /api/admin/oauth-clients/{clientId}: activate or deactivate (beyond the spec). */
export const OAuthClientUpdateSchema = z.object({ isActive: z.boolean({ error: "isActive must be true or false" }) });

/** How a client came to be: made on the console, self-registered (RFC 7591), or self-described (a Client ID Metadata Document). */
export type ClientOrigin = "console" | "dynamic" | "metadata-document";

/**
 * GET /api/admin/oauth-clients item. `clientSecret` only for those who manage clients
 * (docs/decisions.md#oauth-client-secrets).
 */
export interface OAuthClientDto {
  id: string;
  name: string;
  clientId: string;
  /** null for a public client, or when the caller may not see secrets. */
  clientSecret: string | null;
  clientType: "confidential" | "public";
  redirectUris: string[];
  scopes: string[];
  isActive: boolean;
  registeredVia: ClientOrigin;
  /** Live grants of this client (unexpired, unrevoked). */
  activeGrants: number;
  /** What an administrator lets this client's AI touch (issue 11); OPEN_POLICY when unrestricted. */
  policy: ClientPolicy;
  createdAt: string;
}

/** GET /api/oauth/requests/{id}: what the consent page shows. */
export interface ConsentRequestDto {
  id: string;
  clientName: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  /** Requested scopes the signed-in user may not grant (write without mcp.write): left out on approval. */
  withheldScopes: string[];
  resource: string;
  expiresAt: string;
  /**
   * How the client came to be: made on the console by an administrator, or self-registered
   * (RFC 7591) or self-described (a Client ID Metadata Document): the latter two are unverified,
   * their name is their own claim, and the consent page says so beside where it returns to.
   */
  registeredVia: ClientOrigin;
  /** The host (or scheme, for a native app's) the browser is sent back to. */
  redirectHost: string;
  /** Why this user may not authorize any access (no mcp.read); null when they may. Denying is always possible. */
  refusal: string | null;
  /**
   * Scopes the token will carry but the client's policy leaves without effect as it stands (write
   * for a read-only client): not listed among what it will be able to do.
   */
  idleScopes: string[];
  /** The administrator's limits on where this client may reach, as they stand; null: none. */
  limits: { jiraProjects: string[] | null; confluenceSpaces: string[] | null; bitbucketRepositories: string[] | null } | null;
  /**
   * The accounts its calls run as upstream (the integrations' own, not the consenting user's):
   * in whose name its changes appear. null where the integration is not configured.
   */
  actsAs: { atlassian: string | null; bitbucket: string | null };
}

export const ConsentDecisionSchema = z.object({ approve: z.boolean({ error: "approve must be true or false" }) });

const registrationText = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/**
 * RFC 7591 §2 client metadata, what we take of it. Sizes are bounded; fields we do not use
 * (jwks, logos, contacts ...) are dropped, never stored or echoed back.
 */
export const RegistrationSchema = z.object({
  redirect_uris: z.array(registrationText(2048)).min(1, "at least one redirect URI is required").max(20, "at most 20 redirect URIs"),
  token_endpoint_auth_method: z
    .enum(["none", "client_secret_basic", "client_secret_post"], {
      error: "token_endpoint_auth_method must be none, client_secret_basic or client_secret_post",
    })
    .optional(),
  grant_types: z.array(registrationText(100)).max(10).optional(),
  response_types: z
    .array(z.literal("code", { error: "only the code response type is supported" }))
    .max(1)
    .optional(),
  client_name: registrationText(200).optional(),
  scope: registrationText(1000).optional(),
  /** OpenID Connect Registration §2: what the redirect URIs may be (contract/oauth.ts redirectUriProblem). */
  application_type: z.enum(["web", "native"], { error: "application_type must be web or native" }).optional(),
  software_id: registrationText(200).optional(),
  software_version: registrationText(200).optional(),
});

export type RegistrationRequest = z.infer<typeof RegistrationSchema>;
