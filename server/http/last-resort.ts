import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Express } from "express";
import type { Logger } from "../lib/logger";
import { BODY_HEADERS } from "./middleware/error-handler";

/**
 * The request listener: the app, with a final handler of our own in place of Express's (which
 * answers in HTML, with a stack in development). It only runs for what no route or error handler
 * answered, such as a request target Express cannot route (`GET *`, `GET http:/x`) or an error
 * raised while an error was being written. Always JSON, never a stack trace.
 */
export function lastResort(app: Express, log: Logger): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const done = (err?: unknown, status = err ? 500 : 404) => {
      if (err) log.error({ err, url: req.url?.split("?")[0]?.slice(0, 200) }, "request failed outside the app's error handler");
      if (res.headersSent) {
        res.destroy();
        return;
      }
      for (const name of BODY_HEADERS) res.removeHeader(name);
      const error = status === 500 ? { code: "internal", message: "Internal server error" } : status === 400 ? { code: "bad_request", message: "The request target must be a path" } : { code: "not_found", message: "Not found" };
      const body = JSON.stringify({ error });
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
      res.end(body);
    };
    // RFC 9112 §3.2: origin-form only; `*` (OPTIONS) and absolute-form are not for this server.
    if (!req.url?.startsWith("/")) return done(undefined, 400);
    (app as unknown as (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void)(req, res, done);
  };
}
