import type { LogEntryDetailDto, LogEntryDto, McpOutcome } from "../../../contract/logs";
import type { ToolCallDto } from "../../../contract/tool-calls";
import type { RequestLogRow } from "../../db/schema";

/** Who the rows name, by id: the clients' and users' names while they exist (as far as the reader may see them). */
export interface LogNames {
  clients: ReadonlyMap<string, string>;
  users: ReadonlyMap<string, string>;
}

export const NO_NAMES: LogNames = { clients: new Map(), users: new Map() };

/** A request log row as the Logs screen and the CSV read it: durations to two decimals, times as ISO. */
export const presentLogEntry = (row: RequestLogRow, names: LogNames = NO_NAMES): LogEntryDto => ({
  id: row.id,
  method: row.method,
  endpoint: row.path,
  statusCode: row.statusCode,
  responseTime: Math.round(row.durationMs * 100) / 100,
  clientId: row.clientId,
  ipAddress: row.ip,
  userAgent: row.userAgent,
  createdAt: row.at.toISOString(),
  userId: row.userId,
  rpcMethod: row.rpcMethod,
  toolName: row.toolName,
  clientName: row.clientId === null ? null : (names.clients.get(row.clientId) ?? null),
  userName: row.userId === null ? null : (names.users.get(row.userId) ?? null),
  outcome: (row.outcome as McpOutcome | null) ?? null,
  error: row.error,
});

/** A log entry's detail panel: the entry, its request id and safe headers, and the tool call it made. */
export const presentLogEntryDetail = (row: RequestLogRow, names: LogNames, toolCall: ToolCallDto | null): LogEntryDetailDto => ({
  ...presentLogEntry(row, names),
  requestId: row.requestId,
  headers: row.headers ?? {},
  toolCall,
});

/**
 * A text a spreadsheet may run as a formula (OWASP "CSV injection"): a tab or carriage return
 * first, or =, +, - or @ (or their fullwidth forms, which some spreadsheets read as the same)
 * as the first character after any spaces, since spreadsheets skip leading spaces before a formula.
 */
const FORMULA = /^[\t\r]|^\s*[=+\-@\uff1d\uff0b\uff0d\uff20]/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
 * A field that would start a formula (FORMULA) is prefixed with an apostrophe: a user agent is
 * whatever a client sent.
 */
function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row of the CSV export, in LOG_CSV_COLUMNS order. */
export const presentCsvLine = (e: LogEntryDto): string =>
  [e.createdAt, e.method, e.endpoint, e.statusCode, e.responseTime, e.clientId, e.ipAddress, e.userAgent].map(csvField).join(",") + "\r\n";
