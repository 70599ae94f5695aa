import { ERROR_STATUS, type ErrorCode, type FieldErrors } from "../../contract/errors";

/**
 * The only error type services throw on purpose. The HTTP error handler turns it into
 * `{ error: { code, message, fields? }, requestId }` with the status of `ERROR_STATUS[code]`.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: FieldErrors | undefined;
  /** Extra response headers, e.g. Retry-After on rate_limited. */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: { fields?: FieldErrors; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** RFC 9110 §10.2.3 in whole seconds, never 0 (a client told "retry after 0" would not wait at all). */
export const retryAfter = (ms: number): Record<string, string> => ({ "Retry-After": String(Math.max(1, Math.ceil(ms / 1000))) });

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;
