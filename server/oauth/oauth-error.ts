import type { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { ServerResponse } from "node:http";
import { writeJson } from "../http/write-json";

/**
 * The one writer of RFC 6749 §5.2 / RFC 6750 §3 error bodies (`{ error, error_description }`),
 * for /oauth/* and bearer challenges; never cached. `challenge` is a WWW-Authenticate value: a
 * Basic one for client authentication (RFC 6749 §5.2), a Bearer one on protected resources.
 * (The MCP SDK's own handlers write the same shape for what they refuse themselves.)
 */
export function sendOAuthError(res: ServerResponse, status: number, error: OAuthError, challenge?: string): void {
  writeJson(res, status, error.toResponseObject(), {
    "Cache-Control": "no-store",
    ...(challenge ? { "WWW-Authenticate": challenge } : {}),
  });
}

export const BASIC_CHALLENGE = 'Basic realm="bridgekeeper"';
