/**
 * "Connect an AI client" (issue 25): what an MCP client needs to reach this server, and each
 * common client's own way to be told. The address is built from PUBLIC_URL, the protected
 * resource this server names in its metadata (RFC 9728), never from the page's address: a client
 * that checks the resource refuses any other spelling of it.
 */

/** GET /api/mcp-connection: the facts every "Connect an AI client" text is written from. */
export interface McpConnectionDto {
  /** The MCP endpoint as clients must name it: PUBLIC_URL and /mcp. */
  mcpUrl: string;
  /** PUBLIC_URL, or the default it falls back to (http://localhost:PORT). */
  publicUrl: string;
  /** Whether PUBLIC_URL is set, or publicUrl is the default. */
  publicUrlConfigured: boolean;
  /** RFC 7591 registration is on (OAUTH_DYNAMIC_REGISTRATION): a client registers itself. */
  dynamicRegistration: boolean;
  /** Client ID Metadata Documents are accepted (OAUTH_CLIENT_ID_METADATA_DOCUMENTS): an https client_id describes its client. */
  metadataDocuments: boolean;
}

export const AI_CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode"] as const;
export type AiClient = (typeof AI_CLIENTS)[number];

export interface ClientSetup {
  label: string;
  /** One plain sentence: where the snippet goes. */
  where: string;
  /** What to paste or run, for this server's address. */
  snippet: string;
  language: "json" | "shell" | "text";
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The server's name in each client's list of MCP servers. */
export const SERVER_NAME = "bridgekeeper";

/** Each client's configuration for `mcpUrl`, as its documentation gives it (Streamable HTTP, OAuth found from the 401). */
export function clientSetup(client: AiClient, mcpUrl: string): ClientSetup {
  switch (client) {
    case "claude-desktop":
      return {
        label: "Claude Desktop",
        where: "In Claude Desktop open Settings › Connectors › Add custom connector, and enter:",
        snippet: [`Name: Bridgekeeper`, `Remote MCP server URL: ${mcpUrl}`].join("\n"),
        language: "text",
      };
    case "claude-code":
      return {
        label: "Claude Code",
        where: "Run in a terminal, then /mcp in Claude Code to sign in:",
        snippet: `claude mcp add --transport http ${SERVER_NAME} ${mcpUrl}`,
        language: "shell",
      };
    case "cursor":
      return {
        label: "Cursor",
        where: "Add to ~/.cursor/mcp.json (or .cursor/mcp.json in a project):",
        snippet: json({ mcpServers: { [SERVER_NAME]: { url: mcpUrl } } }),
        language: "json",
      };
    case "vscode":
      return {
        label: "VS Code",
        where: "Add to .vscode/mcp.json in your workspace (or run MCP: Add Server…):",
        snippet: json({ servers: { [SERVER_NAME]: { type: "http", url: mcpUrl } } }),
        language: "json",
      };
  }
}

/** The MCP URL a snippet names (its first http(s) URL): what a client connects to when given it. */
export const urlInSnippet = (snippet: string): string | null => /https?:\/\/[^\s"']+/.exec(snippet)?.[0] ?? null;

/**
 * How signing in works in this installation, in one plain line, from the same settings the
 * authorization server's metadata is written from.
 */
export function signInLine(c: Pick<McpConnectionDto, "dynamicRegistration" | "metadataDocuments">): string {
  if (c.dynamicRegistration) {
    return "Sign-in: the AI client registers itself with this server (dynamic registration is on), then opens a browser where you sign in and approve what it may do.";
  }
  if (c.metadataDocuments) {
    return "Sign-in: dynamic registration is off. A client that identifies itself with a client ID metadata document (an https client ID) signs in directly; any other needs a client created first under OAuth Clients, whose client ID (and secret) you give the AI client when it asks.";
  }
  return "Sign-in: dynamic registration is off, so create a client first under OAuth Clients and give its client ID (and secret) to the AI client when it asks; you then sign in and approve in a browser.";
}

/** The console's warning when it is opened at another address than PUBLIC_URL, or null. */
export function originMismatch(pageOrigin: string, publicUrl: string): string | null {
  const expected = new URL(publicUrl).origin;
  if (pageOrigin === expected) return null;
  return `This console is open at ${pageOrigin}, but the server's public URL (PUBLIC_URL) is ${expected}. AI clients must use the public URL: set PUBLIC_URL to the address they reach this server at.`;
}

/** A Create Client preset: what a common AI client registers with (its redirect URIs and type) and which snippet it then needs. */
export interface ClientPreset {
  id: "claude" | "claude-code" | "cursor" | "vscode" | "custom";
  label: string;
  /** The client's name, filled in for the administrator (empty for Custom). */
  name: string;
  redirectUris: readonly string[];
  clientType: "confidential" | "public";
  /** The "Connect an AI client" tab that goes with it. */
  snippet: AiClient | null;
}

/**
 * The redirect URIs the common clients sign in with: Claude's connectors (claude.ai and Claude
 * Desktop) send users back to Anthropic's callback and can hold a client secret; Claude Code
 * listens on a loopback port of its choosing (any port matches a loopback URI, RFC 8252 §7.3);
 * Cursor and VS Code use their own scheme or a fixed loopback port (RFC 8252 §7.1).
 */
export const CLIENT_PRESETS: readonly ClientPreset[] = [
  {
    id: "claude",
    label: "Claude",
    name: "Claude",
    redirectUris: ["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"],
    clientType: "confidential",
    snippet: "claude-desktop",
  },
  {
    id: "claude-code",
    label: "Claude Code",
    name: "Claude Code",
    redirectUris: ["http://localhost/callback"],
    clientType: "public",
    snippet: "claude-code",
  },
  {
    id: "cursor",
    label: "Cursor",
    name: "Cursor",
    redirectUris: ["cursor://anysphere.cursor-retrieval/oauth/callback"],
    clientType: "public",
    snippet: "cursor",
  },
  {
    id: "vscode",
    label: "VS Code",
    name: "VS Code",
    redirectUris: ["http://127.0.0.1:33418", "http://127.0.0.1:33418/", "https://vscode.dev/redirect"],
    clientType: "public",
    snippet: "vscode",
  },
  { id: "custom", label: "Custom", name: "", redirectUris: [], clientType: "confidential", snippet: null },
];
