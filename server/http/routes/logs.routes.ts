import { once } from "node:events";
import { Router, type Request } from "express";
import { LOG_CSV_COLUMNS, LogFilterSchema, LogQuerySchema, logCsvFileName } from "../../../contract/logs";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { presentCsvLine, presentLogEntry, presentLogEntryDetail } from "../../modules/request-log/request-log.presenter";
import type { NameReveal, RequestLogService } from "../../modules/request-log/request-log.service";
import { toToolCallDto } from "../../modules/tool-calls/tool-calls.presenter";
import type { ToolCallsService } from "../../modules/tool-calls/tool-calls.service";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

/** The names a reader may see beside the ids (request-log.service NameReveal). */
const revealFor = (req: Request): NameReveal => ({
  clients: req.session?.permissions.has("oauth-clients.read") === true,
  users: req.session?.permissions.has("users.read") === true,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Request Logs screen (spec §7, docs/decisions.md#csv-export): newest first, filtered, paged by cursor; totals and the CSV over the same filters. */
export function logsRoutes(deps: {
  requestLog: RequestLogService;
  toolCalls: Pick<ToolCallsService, "forRequest">;
  clock: Clock;
  log: Logger;
}): Router {
  const router = Router();

  // The spec's answer is an array of entries; the next page's cursor travels in headers (RFC 8288 Link, and plainly).
  router.get("/admin/logs", can("logs.read"), async (req, res) => {
    const query = parseInput(LogQuerySchema, req.query);
    const { rows, names, nextCursor } = await deps.requestLog.page(query, revealFor(req));
    if (nextCursor) {
      const next = new URLSearchParams(
        Object.entries(req.query).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "cursor"),
      );
      next.set("cursor", nextCursor);
      res.set({ "X-Next-Cursor": nextCursor, Link: `</api/admin/logs?${next.toString()}>; rel="next"` });
    }
    res.json(rows.map((row) => presentLogEntry(row, names)));
  });

  router.get("/admin/logs/summary", can("logs.read"), async (req, res) => {
    res.json(await deps.requestLog.summary(parseInput(LogFilterSchema, req.query)));
  });

  // docs/decisions.md#csv-export: every matching row, streamed a page at a time (memory stays flat), respecting backpressure.
  router.get("/admin/logs/export", can("logs.read"), async (req, res) => {
    const filter = parseInput(LogFilterSchema, req.query);
    const rows = deps.requestLog.matching(filter);
    // The first page is read before the headers go out, so a failing database is still a clean error.
    const first = await rows.next();
    res.status(200).set({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${logCsvFileName(deps.clock.now())}"`,
    });
    res.write(LOG_CSV_COLUMNS.join(",") + "\r\n");
    try {
      for (let page = first; !page.done; page = await rows.next()) {
        if (res.destroyed) return;
        if (!res.write(page.value.map((row) => presentCsvLine(presentLogEntry(row))).join(""))) await once(res, "drain");
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
    const found = UUID.test(id) ? await deps.requestLog.get(id, revealFor(req)) : undefined;
    if (!found) throw new AppError("not_found", "No log entry with that id");
    const { row, names } = found;
    const toolCall = row.requestId && row.toolName ? await deps.toolCalls.forRequest(row.requestId) : null;
    res.json(presentLogEntryDetail(row, names, toolCall && toToolCallDto(toolCall)));
  });
  return router;
}
