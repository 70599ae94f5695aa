import type { Access } from "../http/middleware/access";

/** The MCP endpoint: the protocol's own path, the 2026-07-28 revision and the 2025 ones on one endpoint (docs/decisions.md#mcp-transports). */
export const MCP_PATH = "/mcp";
/** The same JSON-RPC at the specification's path, which may deliver its answer to an event stream (X-Connection-Id). */
export const SPEC_PROTOCOL_PATH = "/api/mcp/protocol";
/** The specification's event stream: `connected`, `heartbeat`, `mcp-response` and `error` events. */
export const EVENT_STREAM_PATH = "/api/sse/stream";
/** The 2024-11-05 "HTTP with SSE" transport: the stream, and where its client posts messages. */
export const LEGACY_SSE_PATH = "/sse";
export const LEGACY_MESSAGES_PATH = "/messages";

const READ_TOKEN: Access = { kind: "bearer", scope: "read" };

/**
 * The MCP routes as the authorization matrix reads them (server/test/authz-matrix.ts): each needs
 * a read-scope access token. The pipeline (pipeline.ts) serves exactly these, and the other
 * methods of /mcp that the SDK answers (GET, DELETE: 405 on a stateless server).
 */
export const MCP_ROUTES: readonly { method: string; path: string; access: Access }[] = [
  { method: "POST", path: MCP_PATH, access: READ_TOKEN },
  { method: "POST", path: SPEC_PROTOCOL_PATH, access: READ_TOKEN },
  { method: "GET", path: EVENT_STREAM_PATH, access: READ_TOKEN },
  { method: "GET", path: LEGACY_SSE_PATH, access: READ_TOKEN },
  { method: "POST", path: LEGACY_MESSAGES_PATH, access: READ_TOKEN },
];
