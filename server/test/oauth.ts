import { createHash, randomBytes } from "node:crypto";
import type { TestClient } from "./http-client";

/** PKCE (RFC 7636) S256 pair. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/**
 * Plays the browser: opens the authorization URL, follows it to the consent page as the signed-in
 * `user`, answers, and returns where the server sends the browser back to (the client's redirect).
 */
export async function answerConsent(baseUrl: string, authorizationUrl: string | URL, user: TestClient, approve = true): Promise<URL> {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  const location = res.headers.get("location");
  if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  const target = new URL(location, baseUrl);
  const match = /^\/oauth-consent\/([\w-]+)$/.exec(target.pathname);
  if (!match) return target; // an error redirect straight back to the client
  const id = match[1]!;
  const shown = await user.get(`/api/oauth/requests/${id}`);
  if (shown.status !== 200) throw new Error(`consent request: ${shown.status} ${shown.text}`);
  const decided = await user.post(`/api/oauth/requests/${id}/decision`, { approve }, { origin: baseUrl });
  if (decided.status !== 200) throw new Error(`decision: ${decided.status} ${decided.text}`);
  return new URL(decided.body.redirectTo);
}

/** A form POST to the token or revocation endpoint. */
export async function formPost(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}

export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
