import { once } from "node:events";
import { Router, type Request } from "express";
import { LOG_CSV_COLUMNS, LogFilterSchema, LogQuerySchema, logCsvFileName, type LogEntryDetailDto, type LogEntryDto } from "../../../contract/logs";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { NameReveal, RequestLogService } from "../../modules/request-log/request-log.service";
import type { ToolCallsService } from "../../modules/tool-calls/tool-calls.service";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

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
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (e: LogEntryDto): string => [e.createdAt, e.method, e.endpoint, e.statusCode, e.responseTime, e.clientId, e.ipAddress, e.userAgent].map(csvField).join(",") + "\r\n";

/** The names a reader may see beside the ids (request-log.service NameReveal). */
const revealFor = (req: Request): NameReveal => ({ clients: req.session?.permissions.has("oauth-clients.read") === true, users: req.session?.permissions.has("users.read") === true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Request Logs screen (spec §7, D22): newest first, filtered, paged by cursor; totals and the CSV over the same filters. */
export function logsRoutes(deps: { requestLog: RequestLogService; toolCalls: Pick<ToolCallsService, "forRequest">; clock: Clock; log: Logger }): Router {
  const router = Router();

  // The spec's answer is an array of entries; the next page's cursor travels in headers (RFC 8288 Link, and plainly).
  router.get("/admin/logs", can("logs.read"), async (req, res) => {
    const query = parseInput(LogQuerySchema, req.query);
    const { entries, nextCursor } = await deps.requestLog.page(query, revealFor(req));
    if (nextCursor) {
      const next = new URLSearchParams(Object.entries(req.query).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "cursor"));
      next.set("cursor", nextCursor);
      res.set({ "X-Next-Cursor": nextCursor, Link: `</api/admin/logs?${next.toString()}>; rel="next"` });
    }
    res.json(entries);
  });

  router.get("/admin/logs/summary", can("logs.read"), async (req, res) => {
    res.json(await deps.requestLog.summary(parseInput(LogFilterSchema, req.query)));
  });

  // D22: every matching row, streamed a page at a time (memory stays flat), respecting backpressure.
  router.get("/admin/logs/export", can("logs.read"), async (req, res) => {
    const filter = parseInput(LogFilterSchema, req.query);
    const rows = deps.requestLog.matching(filter);
    // The first page is read before the headers go out, so a failing database is still a clean error.
    const first = await rows.next();
    res.status(200).set({ "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${logCsvFileName(deps.clock.now())}"` });
    res.write(LOG_CSV_COLUMNS.join(",") + "\r\n");
    try {
      for (let page = first; !page.done; page = await rows.next()) {
        if (res.destroyed) return;
        if (!res.write(page.value.map(csvLine).join(""))) await once(res, "drain");
      }
      res.end();
    } catch (err) {
      // Headers are gone: the only honest signal left is a cut stream (the download fails, not a short file).
      deps.log.error({ err }, "CSV export failed midway");
      res.destroy();
    } finally {
      await rows.return(undefined);
    }
  });

  router.get("/admin/logs/:id", can("logs.read"), async (req, res) => {
    const id = String(req.params.id);
    const entry = UUID.test(id) ? await deps.requestLog.get(id, revealFor(req)) : undefined;
    if (!entry) throw new AppError("not_found", "No log entry with that id");
    const detail: LogEntryDetailDto = { ...entry, toolCall: entry.requestId && entry.toolName ? await deps.toolCalls.forRequest(entry.requestId) : null };
    res.json(detail);
  });
  return router;
}
