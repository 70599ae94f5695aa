import { STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Express } from "express";
import type { Logger } from "../lib/logger";
import { BODY_HEADERS } from "./middleware/error-handler";

/**
 * The server's request listener: the MCP pipeline takes its own requests (mcp/pipeline.ts), and
 * Express the rest (the console API, OAuth, static files), with a final handler of ours in place
 * of Express's (which answers in HTML, with a stack in development). That handler only runs for
 * what no route or error handler answered, such as an error raised while an error was being
 * written. A request target that is not a path (`OPTIONS *`, absolute-form) is refused before
 * either sees it. Always JSON, never a stack trace.
 */
export function requestListener(deps: {
  mcp: (req: IncomingMessage, res: ServerResponse) => boolean;
  app: Express;
  log: Logger;
}): RequestListener {
  const { app, log } = deps;
  return (req: IncomingMessage, res: ServerResponse) => {
    const done = (err?: unknown, status = err ? 500 : 404) => {
      if (err) log.error({ err, url: req.url?.split("?")[0]?.slice(0, 200) }, "request failed outside the app's error handler");
      if (res.headersSent) {
        res.destroy();
        return;
      }
      for (const name of BODY_HEADERS) res.removeHeader(name);
      const error =
        status === 500
          ? { code: "internal", message: "Internal server error" }
          : status === 400
            ? { code: "bad_request", message: "The request target must be a path" }
            : { code: "not_found", message: "Not found" };
      const body = JSON.stringify({ error });
      res.writeHead(status, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(body),
        "cache-control": "no-store",
      });
      res.end(body);
    };
    // RFC 9112 §3.2: origin-form only; `*` (OPTIONS) and absolute-form are not for this server.
    if (!req.url?.startsWith("/")) return done(undefined, 400);
    if (deps.mcp(req, res)) return;
    (app as unknown as (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void)(req, res, done);
  };
}

/**
 * What Node's HTTP parser refuses before the app sees it (a header block over the limit, a
 * malformed request line, a slow one) is answered in JSON too, instead of an empty status line.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
    const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    const body = JSON.stringify({
      error: {
        code: status === 400 ? "bad_request" : status === 431 ? "payload_too_large" : "request_timeout",
        message: STATUS_CODES[status] ?? "Bad request",
      },
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
