import type { ErrorRequestHandler, RequestHandler } from "express";
import type { ErrorBody, ErrorCode } from "../../../contract/errors";
import { AppError, isAppError } from "../../lib/app-error";

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
  const status = err.status ?? err.statusCode;
  if (status === 400) return new AppError("bad_request", "Bad request");
  if (status === 413) return new AppError("payload_too_large", "Request body is too large");
  return undefined;
}

export function sendError(res: Parameters<RequestHandler>[1], error: AppError, requestId: string): void {
  if (error.headers) res.set(error.headers);
  const body: ErrorBody = {
    error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) },
    requestId,
  };
  res.status(error.status).json(body);
}

/**
 * The one place errors become HTTP responses: the house body, never a stack trace or an HTML page.
 * Anything that is not an AppError is logged in full and answered with a bare 500.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const known = isAppError(err) ? err : fromParserError(err as HttpishError);
  const error = known ?? new AppError("internal" satisfies ErrorCode, "Internal server error");
  if (!known) req.log.error({ err }, "unhandled error");
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
