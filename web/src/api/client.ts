import type { QueryFunction } from "@tanstack/react-query";
import type { ErrorBody, FieldErrors } from "@contract/errors";

/**
 * Any non-OK response. `message` is exactly `${status}: ${bodyText || statusText}` (spec section 8);
 * `serverMessage` is the human sentence from the `{ error: { message } }` body, for toasts and
 * form alerts; `fields` carries per-field validation messages when the server sends them.
 */
export class ApiError extends Error {
  override readonly name: string = "ApiError";
  readonly status: number;
  readonly statusText: string;
  /** The parsed JSON body, or `undefined` when the body was empty or not JSON. */
  readonly body: unknown;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly fields: FieldErrors | undefined;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.status = status;
    this.statusText = statusText;
    this.body = parseJson(bodyText);
    const error = isErrorBody(this.body) ? this.body.error : undefined;
    this.code = error?.code;
    this.serverMessage = error?.message || undefined;
    this.fields = error?.fields;
  }
}

/** The request never got an answer (offline, DNS, server down). Status 0, like a CORS failure. */
export class NetworkError extends ApiError {
  override readonly name: string = "NetworkError";
  constructor(cause: unknown) {
    super(0, "Network error", "");
    this.cause = cause;
  }
  override readonly serverMessage = "Could not reach the server. Check your connection and try again.";
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string";
}

export async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text().catch(() => "");
  throw new ApiError(response.status, response.statusText, bodyText);
}

/** `fetch` with the session cookie; throws `ApiError` on a non-OK status, `NetworkError` offline. */
export async function apiFetch(url: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, credentials: "include" });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new NetworkError(error);
  }
  await throwIfNotOk(response);
  return response;
}

/** Reads a JSON answer; `undefined` for 204 or an empty body. */
async function readJson<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One JSON call: `apiRequest<{ user: SessionUser }>("POST", "/api/login", body)`.
 * Sends `Content-Type: application/json` only when there is a body (the server's CSRF check
 * relies on same-origin Origin / Sec-Fetch-Site, which fetch sets itself).
 */
export async function apiRequest<T = unknown>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const response = await apiFetch(url, {
    method,
    headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readJson<T>(response);
}

export type UnauthorizedBehavior = "returnNull" | "throw";

/**
 * The default query function: GETs the query key joined as a path (`["/api/users", id]` ->
 * `/api/users/<id>`) and parses JSON. Spec section 7: a 401 on a query yields an empty result,
 * so `on401: "returnNull"` is the default.
 */
export function getQueryFn<T>({ on401 = "returnNull" }: { on401?: UnauthorizedBehavior } = {}): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const url = queryKey.map(String).join("/");
    try {
      const response = await apiFetch(url, { headers: { Accept: "application/json" }, signal });
      return await readJson<T>(response);
    } catch (error) {
      if (on401 === "returnNull" && error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  };
}
