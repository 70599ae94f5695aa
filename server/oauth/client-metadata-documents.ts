import { isIP } from "node:net";
import { Agent } from "undici";
import { z } from "zod";
import { redirectUriProblem } from "../../contract/oauth";
import type { Clock } from "../lib/clock";
import { hostRuleMessage, type HostPolicy } from "../upstream/host-policy";

/**
 * OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; MCP
 * 2025-11-25 "Client ID Metadata Documents", which 2026-07-28 prefers to dynamic registration): a
 * client whose client_id is an https URL describes itself in a JSON document at that URL. We fetch
 * it under the upstream host rule (no loopback, private or metadata addresses unless allowed),
 * bounded in size and time, cache it as its HTTP caching headers say, and check it: its client_id
 * is the URL itself, its redirect URIs follow our rules, and it is a public client (we do not
 * support private_key_jwt).
 */
export interface ClientMetadata {
  clientId: string;
  name: string;
  redirectUris: string[];
  /** As the document asks; the clients service decides what a self-described client may hold. */
  grantTypes: string[] | undefined;
  scope: string | undefined;
}

export class ClientMetadataError extends Error {
  override name = "ClientMetadataError";
}

const MAX_BYTES = 16 * 1024;
const TIMEOUT_MS = 5_000;
const CACHE_MIN_MS = 60_000;
const CACHE_MAX_MS = 24 * 3_600_000;
const CACHE_DEFAULT_MS = 5 * 60_000;
const CACHE_ENTRIES = 1_000;

const DocumentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().max(200).optional(),
  redirect_uris: z.array(z.string().max(2048)).min(1).max(20),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(5).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
  scope: z.string().max(1000).optional(),
});

/** Whether a client_id names a metadata document: an https URL with a path (the draft's §3 rules). */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith("https://") || clientId.length > 2048 || !URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  return (
    url.pathname !== "/" &&
    !url.hash &&
    !clientId.includes("#") &&
    !url.username &&
    !url.password &&
    !/\/\.\.?(\/|$)/.test(url.pathname) &&
    url.href === clientId
  );
}

/** max-age of Cache-Control, clamped; no-store or no-cache: not kept. */
function freshFor(cacheControl: string | undefined): number {
  const value = (cacheControl ?? "").toLowerCase();
  if (/\b(no-store|no-cache)\b/.test(value)) return 0;
  const maxAge = /\bmax-age=(\d+)/.exec(value)?.[1];
  if (maxAge === undefined) return CACHE_DEFAULT_MS;
  return Math.min(CACHE_MAX_MS, Math.max(CACHE_MIN_MS, Number(maxAge) * 1000));
}

export function createClientMetadataDocuments(deps: { hostPolicy: HostPolicy; clock: Clock; tls?: { ca?: string } }) {
  const agent = new Agent({
    connections: 8,
    keepAliveTimeout: 10_000,
    connect: { timeout: TIMEOUT_MS, lookup: deps.hostPolicy.lookup, ...(deps.tls?.ca ? { ca: deps.tls.ca } : {}) },
  });
  const cache = new Map<string, { metadata: ClientMetadata; until: number }>();
  const pending = new Map<string, Promise<ClientMetadata>>();

  async function fetchDocument(url: string): Promise<ClientMetadata> {
    const { hostname } = new URL(url);
    const bare = hostname.replace(/^\[|\]$/g, "");
    if (isIP(bare) && !deps.hostPolicy.permits(bare, bare)) throw new ClientMetadataError(hostRuleMessage(bare, bare));
    let res;
    try {
      res = await agent.request({
        origin: new URL(url).origin,
        path: new URL(url).pathname + new URL(url).search,
        method: "GET",
        headers: { accept: "application/json" },
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      throw new ClientMetadataError(
        `The client metadata document could not be fetched: ${cause instanceof Error ? cause.message : (err as Error).message}`,
      );
    }
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => undefined);
      throw new ClientMetadataError(`The client metadata document answered ${res.statusCode}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      // Leaving the loop ends the stream (the iterator's return destroys it).
      if (size > MAX_BYTES) throw new ClientMetadataError(`The client metadata document is larger than ${MAX_BYTES / 1024} KB`);
      chunks.push(chunk as Buffer);
    }
    let json: unknown;
    try {
      json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      throw new ClientMetadataError("The client metadata document is not JSON");
    }
    const parsed = DocumentSchema.safeParse(json);
    if (!parsed.success)
      throw new ClientMetadataError(
        `The client metadata document is invalid: ${parsed.error.issues[0]!.path.join(".")} ${parsed.error.issues[0]!.message}`,
      );
    const doc = parsed.data;
    // Draft §4.1: the document must name itself, exactly.
    if (doc.client_id !== url) throw new ClientMetadataError("The client metadata document's client_id is not its own URL");
    if (doc.token_endpoint_auth_method && doc.token_endpoint_auth_method !== "none")
      throw new ClientMetadataError(
        `token_endpoint_auth_method ${doc.token_endpoint_auth_method} is not supported for metadata document clients; use none (PKCE)`,
      );
    const problem = doc.redirect_uris.map((u) => redirectUriProblem(u)).find(Boolean);
    if (problem) throw new ClientMetadataError(problem);
    const metadata: ClientMetadata = {
      clientId: url,
      name: doc.client_name?.trim() || new URL(url).host,
      redirectUris: doc.redirect_uris,
      grantTypes: doc.grant_types,
      scope: doc.scope,
    };
    const ttl = freshFor(res.headers["cache-control"] as string | undefined);
    if (ttl > 0) {
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(url, { metadata, until: deps.clock.now().getTime() + ttl });
    }
    return metadata;
  }

  return {
    /** The client's metadata, from the cache while fresh; one fetch at a time per URL. */
    async get(url: string): Promise<ClientMetadata> {
      const hit = cache.get(url);
      if (hit && hit.until > deps.clock.now().getTime()) return hit.metadata;
      let inflight = pending.get(url);
      if (!inflight) {
        inflight = fetchDocument(url).finally(() => pending.delete(url));
        pending.set(url, inflight);
      }
      return inflight;
    },
    close: () => agent.close(),
  };
}

export type ClientMetadataDocuments = ReturnType<typeof createClientMetadataDocuments>;
