/**
 * The one error taxonomy. The server's error handler maps each code to an HTTP status and writes
 * `{ error: { code, message, fields? }, requestId }`; the console reads the same shape.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  forbidden: 403,
  csrf_rejected: 403,
  account_inactive: 403,
  not_found: 404,
  conflict: 409,
  /** The AI provider a chat names is switched off (its row exists; an administrator may switch it on). */
  provider_inactive: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  service_unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Field name -> human message, as the forms show it under the field. */
export type FieldErrors = Record<string, string>;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldErrors };
  requestId?: string;
}
