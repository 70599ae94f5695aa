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

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;
