import { z } from "zod";
import type { ToolCallDto } from "./tool-calls";

export const LOG_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;

/**
 * How an MCP exchange ended, as its JSON-RPC answer says: a result (`ok`), a tool result with
 * isError (`tool_error`: the tool ran and explains what went wrong), or a JSON-RPC error
 * (`rpc_error`: an unknown tool or method, bad params, a refused request). Other requests have none.
 */
export const MCP_OUTCOMES = ["ok", "tool_error", "rpc_error"] as const;
export type McpOutcome = (typeof MCP_OUTCOMES)[number];

/**
 * Whose requests: `traffic` is what clients send (MCP, OAuth, discovery, the proxy), `console`
 * the admin console's own API calls (/api/admin/…); absent, both.
 */
export const LOG_SOURCES = ["traffic", "console"] as const;
export type LogSource = (typeof LOG_SOURCES)[number];
/** The path prefix of the console's own API calls. */
export const CONSOLE_API_PREFIX = "/api/admin/";

const instant = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `${field} must be an ISO date and time such as 2026-11-25T08:00:00Z` })
    .transform((v) => new Date(v))
    .optional();

/**
 * What narrows the request log (spec §2 Request Logs: status, method, search; beyond it a time
 * range (`from` inclusive, `to` exclusive), an exact status code, a client and a tool). The Logs screen's list, its stat cards and
 * its CSV export all take these, so the three always describe the same rows.
 */
export const LogFilterSchema = z
  .object({
    status: z.enum(["success", "error"], { error: "status must be success or error" }).optional(),
    statusCode: z.coerce
      .number({ error: "statusCode must be a number" })
      .int("statusCode must be a whole number")
      .min(100, "statusCode must be between 100 and 599")
      .max(599, "statusCode must be between 100 and 599")
      .optional(),
    method: z
      .string()
      .toUpperCase()
      .pipe(z.enum(LOG_METHODS, { error: `method must be one of ${LOG_METHODS.join(", ")}` }))
      .optional(),
    /** Part of the path, the HTTP or JSON-RPC method, the client id or the tool name (case-insensitive). */
    search: z.string().max(200, "search may be at most 200 characters").optional(),
    clientId: z.string().min(1, "clientId must not be empty").max(300, "clientId may be at most 300 characters").optional(),
    tool: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, "tool must be a tool name such as jira_search")
      .optional(),
    outcome: z.enum(MCP_OUTCOMES, { error: `outcome must be one of ${MCP_OUTCOMES.join(", ")}` }).optional(),
    source: z.enum(LOG_SOURCES, { error: `source must be one of ${LOG_SOURCES.join(", ")}` }).optional(),
    from: instant("from"),
    to: instant("to"),
  })
  .refine((f) => !(f.from && f.to && f.from > f.to), { message: "from must not be after to", path: ["from"] });
export type LogFilter = z.infer<typeof LogFilterSchema>;

/** `GET /api/admin/logs`: the filters, a page size and the next page's cursor (sent back in `X-Next-Cursor` and a `Link` header). */
export const LogQuerySchema = z.intersection(
  LogFilterSchema,
  z.object({
    limit: z.coerce
      .number({ error: "limit must be a number" })
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(5000, "limit may be at most 5000")
      .default(500),
    /** Rows older than this instant (kept for callers that page by time). */
    before: instant("before"),
    cursor: z
      .string()
      .regex(/^[\w-]{1,400}\.[\w-]{1,100}$/, "cursor must be the X-Next-Cursor of a previous page")
      .optional(),
  }),
);
export type LogQuery = z.infer<typeof LogQuerySchema>;

/** A request log row as the Logs screen reads it (spec §3, plus who and what for MCP). */
export interface LogEntryDto {
  id: string;
  method: string;
  endpoint: string;
  statusCode: number;
  responseTime: number;
  clientId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: string;
  userId: string | null;
  rpcMethod: string | null;
  toolName: string | null;
  /** The client's name while it exists (its id is clientId). */
  clientName: string | null;
  /** The user's name (or e-mail) while they exist. */
  userName: string | null;
  /** MCP: how the answer ended; null for other requests. */
  outcome: McpOutcome | null;
  /** The tool error's sentence or the JSON-RPC error's message. */
  error: string | null;
}

/** A log entry's detail panel: the entry, the headers safe to show, and the tool call it made. */
export interface LogEntryDetailDto extends LogEntryDto {
  requestId: string | null;
  /** Accept, Content-Type, Origin, the MCP headers…; never a credential or a cookie. */
  headers: Record<string, string>;
  /** The tool-call audit entry of a tools/call request; null otherwise. */
  toolCall: ToolCallDto | null;
}

/** The Logs screen's four stat cards, computed by the server over every row the filters match. */
export interface LogSummaryDto {
  total: number;
  successful: number;
  errors: number;
  /** Mean response time in ms; null when no row matches. */
  averageResponseTime: number | null;
}

/** spec §9: the CSV export's columns, in order. */
export const LOG_CSV_COLUMNS = [
  "Timestamp",
  "Method",
  "Endpoint",
  "Status Code",
  "Response Time",
  "Client ID",
  "IP Address",
  "User Agent",
] as const;

/**
 * The export's file name, `mcp-server-logs-YYYY-MM-DD.csv`: the date it was made (UTC;
 * docs/decisions.md#csv-export).
 */
export const logCsvFileName = (now: Date): string => `mcp-server-logs-${now.toISOString().slice(0, 10)}.csv`;
