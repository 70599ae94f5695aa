import type { Express } from "express";
import type { PermissionKey } from "../../contract/permissions";
import type { Access } from "../http/middleware/access";
import { MCP_ROUTES } from "../mcp/paths";

/**
 * Every /api route and who may call it. A route added to the app but not here fails the matrix
 * test, and so does a route whose guard disagrees with this table. Later issues add their rows.
 */
export const AUTHZ_MATRIX: Record<string, "public" | "session" | PermissionKey | "bearer:read" | "bearer:write"> = {
  "GET /api/mcp/health": "public",
  "GET /api/mcp/health/live": "public",
  "POST /api/login": "public",
  "POST /api/logout": "public",
  "GET /api/session": "session",
  "GET /api/mcp-connection": "session",
  "GET /api/openapi.json": "session",
  "GET /api/setup-status": "config.write",

  "GET /api/users": "users.read",
  "POST /api/users": "users.write",
  "GET /api/users/:id": "users.read",
  "PUT /api/users/:id": "users.write",
  "DELETE /api/users/:id": "users.write",
  "GET /api/users/:id/roles": "users.read",
  "PUT /api/users/:id/roles": "users.write",
  "GET /api/users/:id/links": "users.read",
  "DELETE /api/users/:id/links/:integration": "users.write",

  // A person's own accounts (issue 27): any signed-in user, their own links only; the services' callback is public (checked against the attempt and the session).
  "GET /api/account/links": "session",
  "POST /api/account/links/:integration/authorize": "session",
  "GET /api/account/links/:integration/callback": "public",
  "POST /api/account/links/:integration/api-token": "session",
  "DELETE /api/account/links/:integration": "session",
  "GET /api/admin/identity": "config.read",
  "PUT /api/admin/identity/:integration": "config.write",

  "GET /api/roles": "roles.read",
  "GET /api/permissions": "roles.read",
  "POST /api/roles": "roles.write",
  "PUT /api/roles/:id": "roles.write",
  "DELETE /api/roles/:id": "roles.write",

  "GET /api/admin/audit": "audit.read",

  "GET /api/admin/atlassian-config": "config.read",
  "POST /api/admin/atlassian-config": "config.write",
  "GET /api/admin/bitbucket-config": "config.read",
  "POST /api/admin/bitbucket-config": "config.write",
  "POST /api/admin/test-atlassian": "config.write",
  "POST /api/admin/test-bitbucket": "config.write",
  "GET /api/admin/config": "config.read",
  "GET /api/atlassian-status": "stats.read",
  "GET /api/admin/atlassian-status": "stats.read",
  "GET /api/bitbucket-status": "stats.read",

  "GET /api/admin/oauth-clients": "oauth-clients.read",
  "POST /api/admin/oauth-clients": "oauth-clients.write",
  "PATCH /api/admin/oauth-clients/:clientId": "oauth-clients.write",
  "POST /api/admin/oauth-clients/:clientId/secret": "oauth-clients.write",
  "GET /api/admin/oauth-clients/:clientId/policy": "oauth-clients.read",
  "GET /api/admin/tool-calls": "audit.read",
  "PUT /api/admin/oauth-clients/:clientId/policy": "oauth-clients.write",
  "GET /api/admin/policy-options": "oauth-clients.write",
  "DELETE /api/admin/oauth-clients/:clientId": "oauth-clients.write",
  "GET /api/oauth/requests/:id": "session",
  "POST /api/oauth/requests/:id/decision": "session",

  // The proxy paths (docs/decisions.md#read-only-proxy): bearer tokens only; a console cookie does not open them.
  "GET /api/atlassian/jira/*path": "bearer:read",
  "GET /api/atlassian/confluence/*path": "bearer:read",
  "GET /api/bitbucket/*path": "bearer:read",

  "GET /api/admin/logs": "logs.read",
  "GET /api/admin/logs/summary": "logs.read",
  "GET /api/admin/logs/export": "logs.read",
  "GET /api/admin/logs/:id": "logs.read",
  "GET /api/stats": "stats.read",
  "GET /api/admin/stats": "stats.read",
  "GET /api/admin/endpoint-stats": "stats.read",
  "GET /api/admin/stats/traffic": "stats.read",
  "GET /api/admin/sse-connections": "sse-connections.read",
  "DELETE /api/admin/sse-connections/:connectionId": "sse-connections.write",

  "GET /api/ai-providers": "ai-providers.read",
  "POST /api/ai-providers": "ai-providers.write",
  "PATCH /api/ai-providers/:id": "ai-providers.write",
  "DELETE /api/ai-providers/:id": "ai-providers.write",
  "POST /api/ai-providers/:id/test": "ai-providers.write",

  // Any signed-in user may chat (docs/decisions.md#roles-and-permissions); conversations are each
  // user's own (the chat tests prove the 404s).
  "GET /api/chat/providers": "session",
  "POST /api/chat/send": "session",
  "POST /api/chat/generate-system-message": "session",
  "GET /api/chat/conversations": "session",
  "GET /api/chat/conversations/:id": "session",
  "PATCH /api/chat/conversations/:id": "session",
  "DELETE /api/chat/conversations/:id": "session",

  // MCP and its streams (docs/decisions.md#mcp-transports, #bearer-tokens-and-scopes): bearer tokens
  // only (mounted beside /api, at their full paths).
  "POST /mcp": "bearer:read",
  "POST /api/mcp/protocol": "bearer:read",
  "GET /api/sse/stream": "bearer:read",
  "GET /sse": "bearer:read",
  "POST /messages": "bearer:read",
};

export interface DiscoveredRoute {
  key: string;
  method: string;
  path: string;
  access: Access | undefined;
}

interface Layer {
  rawPath?: string;
  handle: { stack?: Layer[]; access?: Access };
  route?: { path: string; methods: Record<string, boolean>; stack: Layer[] };
}

/**
 * Reads the routes under /api from the Express app itself, with the guard each one starts with,
 * and the MCP pipeline's routes (mcp/paths.ts: served before Express, each needing a read token).
 */
export function discoverApiRoutes(app: Express): DiscoveredRoute[] {
  const root = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const api = root.find((l) => l.rawPath === "/api");
  if (!api?.handle.stack) throw new Error("no /api router mounted");
  const routes: DiscoveredRoute[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const access = layer.route.stack.map((l) => l.handle.access).find(Boolean);
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== "_all")) {
          const path = `/api${layer.route.path}`;
          routes.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, access });
        }
      } else if (layer.handle.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk(api.handle.stack);
  return [...routes, ...MCP_ROUTES.map((r) => ({ key: `${r.method} ${r.path}`, ...r }))];
}

export const accessLabel = (access: Access | undefined): string =>
  !access
    ? "unguarded"
    : access.kind === "permission"
      ? access.permission
      : access.kind === "bearer"
        ? `bearer:${access.scope}`
        : access.kind;
