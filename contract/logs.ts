import { z } from "zod";

export const LOG_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;

/** `GET /api/admin/logs` filters (spec §2 Request Logs: status, method, search). */
export const LogQuerySchema = z.object({
  limit: z.coerce.number({ error: "limit must be a number" }).int("limit must be a whole number").min(1, "limit must be at least 1").max(5000, "limit may be at most 5000").default(500),
  before: z.iso.datetime({ offset: true, error: "before must be an ISO date and time" }).transform((v) => new Date(v)).optional(),
  status: z.enum(["success", "error"], { error: "status must be success or error" }).optional(),
  method: z.string().toUpperCase().pipe(z.enum(LOG_METHODS, { error: `method must be one of ${LOG_METHODS.join(", ")}` })).optional(),
  search: z.string().max(200, "search may be at most 200 characters").optional(),
});
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
}
