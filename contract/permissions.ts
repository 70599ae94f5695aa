/**
 * The permissions the server enforces, as `resource.action`
 * (docs/decisions.md#roles-and-permissions). Roles are sets of these; every /api route names the
 * one it needs. Order here is the order the roles editor lists them in.
 */
export const PERMISSION_CATALOGUE = [
  { resource: "stats", action: "read", description: "See the dashboard, server and integration status" },
  { resource: "logs", action: "read", description: "See request logs" },
  { resource: "sse-connections", action: "read", description: "See live SSE connections" },
  { resource: "sse-connections", action: "write", description: "End live SSE connections" },
  { resource: "oauth-clients", action: "read", description: "See OAuth clients (without secrets)" },
  { resource: "oauth-clients", action: "write", description: "Create and delete OAuth clients, see their secrets" },
  { resource: "config", action: "read", description: "See configuration" },
  { resource: "config", action: "write", description: "Change Atlassian and Bitbucket configuration" },
  {
    resource: "mcp",
    action: "read",
    description: "Authorize MCP clients to read Jira, Confluence and Bitbucket on your behalf (the read scope)",
  },
  { resource: "mcp", action: "write", description: "Grant MCP clients the write scope (change Jira, Confluence and Bitbucket)" },
  { resource: "ai-providers", action: "read", description: "See AI providers" },
  { resource: "ai-providers", action: "write", description: "Add, change and delete AI providers" },
  { resource: "users", action: "read", description: "See users and their roles" },
  { resource: "users", action: "write", description: "Create, change and delete users and their roles" },
  { resource: "roles", action: "read", description: "See roles and permissions" },
  { resource: "roles", action: "write", description: "Create, change and delete roles" },
  { resource: "audit", action: "read", description: "See the audit trail" },
] as const;

export type PermissionKey = `${(typeof PERMISSION_CATALOGUE)[number]["resource"]}.${(typeof PERMISSION_CATALOGUE)[number]["action"]}`;

export const permissionKey = (p: { resource: string; action: string }): string => `${p.resource}.${p.action}`;

export const ALL_PERMISSIONS = PERMISSION_CATALOGUE.map(permissionKey) as PermissionKey[];

const READ_EVERYTHING = ALL_PERMISSIONS.filter((p) => p.endsWith(".read") && p !== "audit.read");

/**
 * Built-in roles (docs/decisions.md#roles-and-permissions). They cannot be deleted or edited; their
 * permissions are set at every start.
 */
export const BUILTIN_ROLES = {
  admin: { description: "Every permission, including users, roles and the audit trail", permissions: ALL_PERMISSIONS },
  operator: {
    description: "Reads everything; manages integrations, OAuth clients and AI providers; no user management",
    permissions: [
      ...READ_EVERYTHING,
      "config.write",
      "oauth-clients.write",
      "sse-connections.write",
      "mcp.write",
      "ai-providers.write",
    ] as PermissionKey[],
  },
  viewer: { description: "Read-only console", permissions: READ_EVERYTHING },
} as const satisfies Record<string, { description: string; permissions: PermissionKey[] }>;

export type BuiltinRoleName = keyof typeof BUILTIN_ROLES;
export const ADMIN_ROLE: BuiltinRoleName = "admin";
