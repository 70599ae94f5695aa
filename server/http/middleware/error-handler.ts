import type { ServerResponse } from "node:http";
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { ErrorBody, ErrorCode } from "../../../contract/errors";
import { AppError, isAppError } from "../../lib/app-error";
import { redactUrl } from "../../lib/logger";
import { isUpstreamError, type UpstreamError } from "../../upstream/errors";
import { writeJson } from "../write-json";

/** body-parser and friends mark their errors with `type` and `status`. */
interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
}

function fromParserError(err: HttpishError): AppError | undefined {
  switch (err.type) {
    case "entity.too.large":
      return new AppError("payload_too_large", "Request body is too large");
    case "entity.parse.failed":
      return new AppError("invalid_json", "Request body is not valid JSON");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new AppError("unsupported_media_type", "Unsupported request encoding");
    case "request.aborted":
      return new AppError("bad_request", "Request was aborted");
  }
  // http-errors from Express's own layers (a static file not found, a path it cannot decode).
  const status = err.status ?? err.statusCode;
  if (status === 404) return new AppError("not_found", "Not found");
  if (status === 403) return new AppError("forbidden", "Forbidden");
  if (status === 413) return new AppError("payload_too_large", "Request body is too large");
  if (status === 415) return new AppError("unsupported_media_type", "Unsupported media type");
  if (typeof status === "number" && status >= 400 && status < 500) return new AppError("bad_request", "Bad request");
  return undefined;
}

/**
 * A Jira, Confluence or Bitbucket failure as our answer: what the caller can act on keeps its
 * status (404, 400, 409, 429), a failure of our stored credentials or of the service is 502, a
 * timeout 504, an integration that is off 503. The message never carries credentials.
 */
function fromUpstreamError(err: UpstreamError): AppError {
  switch (err.kind) {
    case "not_configured":
      return new AppError("service_unavailable", err.message);
    case "not_found":
      return new AppError("not_found", err.message);
    // Acting as the person (issue 27): no identity of the caller's may be used (nothing linked, a link to renew, a machine client).
    case "identity":
      return new AppError("forbidden", err.message);
    case "bad_request":
      return new AppError("bad_request", err.message);
    case "conflict":
      return new AppError("conflict", err.message);
    case "rate_limited":
      return new AppError(
        "rate_limited",
        err.message,
        err.details.retryAfterSeconds !== undefined ? { headers: { "Retry-After": String(err.details.retryAfterSeconds) } } : {},
      );
    case "timeout":
      return new AppError("upstream_timeout", err.message);
    case "circuit_open":
      return new AppError(
        "service_unavailable",
        err.message,
        err.details.retryAfterSeconds !== undefined ? { headers: { "Retry-After": String(err.details.retryAfterSeconds) } } : {},
      );
    default:
      return new AppError("upstream_failed", err.message);
  }
}

/** Headers that describe a body: a failed handler's must not describe our error body. */
export const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-disposition",
  "content-language",
  "content-range",
];

/** The house error body: `{ error: { code, message, fields? }, requestId }` with the error's status and headers. */
export function sendError(res: ServerResponse, error: AppError, requestId: string): void {
  // Whatever the failed handler had set (an upstream's content type, say) must not describe our body.
  for (const name of BODY_HEADERS) res.removeHeader(name);
  const body: ErrorBody = {
    error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) },
    requestId,
  };
  writeJson(res, error.status, body, error.headers);
}

/**
 * The one place errors become HTTP responses: the house body, never a stack trace or an HTML page.
 * Anything that is not an AppError is logged (kind, code and message: lib/safe-error.ts) and
 * answered with a bare 500.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const known = isAppError(err) ? err : isUpstreamError(err) ? fromUpstreamError(err) : fromParserError(err as HttpishError);
  const error = known ?? new AppError("internal" satisfies ErrorCode, "Internal server error");
  if (!known) req.log.error({ err, req: { id: req.id, method: req.method, url: redactUrl(req.originalUrl) } }, "unhandled error");
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, error, String(req.id));
};

export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new AppError("not_found", `No API route for ${req.method} ${req.originalUrl.split("?")[0]}`));
};

/** Whatever nothing else answered (say, a POST to a console path): JSON, never Express's HTML page. */
export const notFound: RequestHandler = (_req, _res, next) => {
  next(new AppError("not_found", "Not found"));
};
