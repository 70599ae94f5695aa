/** The sidebar, in the specification's order (spec section 2, "Access and shell"). */
export const NAV_ITEMS = [
  { path: "/", label: "Dashboard" },
  { path: "/chat", label: "AI Chat" },
  { path: "/ai-providers", label: "AI Providers" },
  { path: "/users", label: "Users" },
  { path: "/oauth-clients", label: "OAuth Clients" },
  { path: "/api-endpoints", label: "API Endpoints" },
  { path: "/sse-connections", label: "SSE Connections" },
  { path: "/logs", label: "Logs" },
  { path: "/configuration", label: "Configuration" },
] as const;

export type NavPath = (typeof NAV_ITEMS)[number]["path"];
