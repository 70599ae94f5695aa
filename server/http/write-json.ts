import type { ServerResponse } from "node:http";

/**
 * Writes a whole JSON answer with plain node calls, so the MCP pipeline (which runs before
 * Express) and Express's routes answer byte for byte alike: the same content type as Express's
 * `res.json`, and a Content-Length, since the body is known whole.
 */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(json));
  res.end(json);
}
