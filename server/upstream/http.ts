import type { Deployment } from "../../contract/integrations";
import { BrokenCircuitError, circuitBreaker, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from "cockatiel";
import { Agent, ProxyAgent, type Dispatcher } from "undici";
import { SERVICE_NAMES, UpstreamError, type UpstreamService } from "./errors";
import type { UpstreamMeter } from "./meter";
import { isIP } from "node:net";
import { HostNotAllowedError, hostRuleMessage, type HostPolicy } from "./host-policy";
import type { OutboundProxy } from "./outbound-proxy";

/** Where a call goes and with which credentials (an `Authorization` header value). */
export interface UpstreamTarget {
  baseUrl: string;
  authorization: string;
  /** The API shape to speak (issue 28); Cloud when not said. */
  deployment?: Deployment;
  /** Told of each request sent on this target, retries included: the share of the caller it is made for (client-budget.ts). */
  spend?: () => void;
  /** A person's linked account (issue 27): where they link it again, named when the service refuses it. */
  relinkAt?: string;
}

export type TargetProvider = () => Promise<UpstreamTarget>;

/** An HTTP Basic `Authorization` value (an account's e-mail or username and its token). */
export const basicAuthorization = (user: string, secret: string): string =>
  `Basic ${Buffer.from(`${user}:${secret}`, "utf8").toString("base64")}`;

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

export interface UpstreamCall {
  method?: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  /** Relative to the target's base URL, or an absolute `next` link on the same base. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON; or use `form`. */
  body?: unknown;
  /** A multipart/form-data body (file uploads), encoded once with its boundary, so a retry sends the same bytes. */
  form?: FormData;
  /** Extra request headers (such as Jira's `X-Atlassian-Token` or a `Range`); they never replace the credentials, Accept or User-Agent. */
  headers?: Record<string, string>;
  /** "text" for diffs and raw files; "raw" passes any body through as text (the proxy paths). */
  accept?: "json" | "text" | "raw";
  timeoutMs?: number;
  /**
   * Error statuses whose JSON body is the answer rather than a failure: Jira's bulk create says
   * "none was created" with 400 and the same per-item errors it lists beside created issues.
   */
  answerStatuses?: readonly number[];
}

export interface UpstreamResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface UpstreamOptions {
  meter: UpstreamMeter;
  /** The whole call, retries and waits included, ends within this. */
  timeoutMs: number;
  maxAttempts?: number;
  /** A Retry-After longer than this is not waited for: the call fails at once with it. */
  maxRetryAfterMs?: number;
  maxResponseBytes?: number;
  breaker?: { consecutiveFailures: number; halfOpenAfterMs: number };
  backoff?: { baseMs: number; maxMs: number };
  userAgent?: string;
  /** Which addresses calls may reach (SSRF rule); without it, any (only tests of this layer omit it). */
  hostPolicy?: HostPolicy;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY (outbound-proxy.ts); null: every call connects directly. */
  proxy?: OutboundProxy | null;
  /** Told of each call's end (retries included): the service, "ok" or the error kind, and the seconds it took (the metrics). */
  observe?: (service: UpstreamService, outcome: string, seconds: number) => void;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE"]);
const RETRYABLE_STATUS = new Set([502, 503, 504]);

/**
 * The one HTTP layer for Jira, Confluence and Bitbucket: a keep-alive pool, a deadline per call,
 * bounded retries honouring Retry-After with jittered exponential backoff, a circuit breaker per
 * service and base URL, a cap on response size, and the accounting the status cards show.
 */
export function createUpstreamHttp(options: UpstreamOptions) {
  const maxAttempts = options.maxAttempts ?? 3;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  const maxResponseBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
  const breakerOptions = options.breaker ?? { consecutiveFailures: 5, halfOpenAfterMs: 30_000 };
  const backoff = options.backoff ?? { baseMs: 250, maxMs: 4_000 };
  const userAgent = options.userAgent ?? "Bridgekeeper";
  const hostRule = options.hostPolicy;
  // Every new connection resolves its host through the host rule: checked after DNS, each time.
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
    connections: 64,
    connect: { timeout: 10_000, ...(hostRule ? { lookup: hostRule.lookup } : {}) },
  });
  const breakers = new Map<string, CircuitBreakerPolicy>();
  // Through a proxy the proxy resolves the name, so the address rule is checked here first (cached briefly).
  const proxies = new Map<string, ProxyAgent>();
  const proxyAgent = (uri: string): ProxyAgent => {
    let found = proxies.get(uri);
    if (!found) {
      found = new ProxyAgent({
        uri,
        keepAliveTimeout: 30_000,
        keepAliveMaxTimeout: 120_000,
        connections: 64,
        connect: { timeout: 10_000 },
      });
      proxies.set(uri, found);
    }
    return found;
  };
  const checkedHosts = new Map<string, { problem: string | null; at: number }>();
  async function hostProblem(host: string): Promise<string | null> {
    if (!hostRule) return null;
    const hit = checkedHosts.get(host);
    if (hit && Date.now() - hit.at < 30_000) return hit.problem;
    const problem = await hostRule.problem(host);
    if (checkedHosts.size > 1000) checkedHosts.clear();
    checkedHosts.set(host, { problem, at: Date.now() });
    return problem;
  }

  const breakerFor = (service: UpstreamService, origin: string): CircuitBreakerPolicy => {
    const key = `${service} ${origin}`;
    let breaker = breakers.get(key);
    if (!breaker) {
      breaker = circuitBreaker(
        handleWhen((err) => err instanceof UpstreamError && err.isOutage),
        { halfOpenAfter: breakerOptions.halfOpenAfterMs, breaker: new ConsecutiveBreaker(breakerOptions.consecutiveFailures) },
      );
      breakers.set(key, breaker);
    }
    return breaker;
  };

  async function request<T>(service: UpstreamService, target: UpstreamTarget, call: UpstreamCall): Promise<UpstreamResponse<T>> {
    const name = SERVICE_NAMES[service];
    const method = call.method ?? "GET";
    const { origin, path } = resolveUrl(service, target.baseUrl, call.path, call.query);
    // A literal address never passes through DNS (nor the pool's lookup): checked here.
    const host = new URL(origin).hostname;
    if (hostRule && isIP(host.replace(/^\[|\]$/g, "")) && !hostRule.permits(host, host.replace(/^\[|\]$/g, ""))) {
      throw new UpstreamError(service, "host_not_allowed", hostRuleMessage(host, host));
    }
    const timeoutMs = call.timeoutMs ?? options.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const extra = Object.fromEntries(Object.entries(call.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const headers: Record<string, string> = {
      ...extra,
      authorization: target.authorization,
      accept:
        call.accept === "text"
          ? "text/plain, */*"
          : call.accept === "raw"
            ? "application/json, text/plain;q=0.9, */*;q=0.8"
            : "application/json",
      "user-agent": userAgent,
    };
    let body: string | Buffer | undefined;
    if (call.form !== undefined) {
      // The Fetch standard's encoding of form data (a fresh boundary, the content type naming it).
      const encoded = new Response(call.form);
      body = Buffer.from(await encoded.arrayBuffer());
      headers["content-type"] = encoded.headers.get("content-type") ?? "multipart/form-data";
    } else if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers["content-type"] = "application/json";
    }
    const breaker = breakerFor(service, origin);
    const started = performance.now();
    const observed = (outcome: string) => options.observe?.(service, outcome, (performance.now() - started) / 1000);

    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const response = await breaker.execute(() =>
            attemptOnce<T>(service, {
              origin,
              path,
              method,
              headers,
              body,
              signal: controller.signal,
              accept: call.accept ?? "json",
              timeoutMs,
              answerStatuses: call.answerStatuses ?? [],
              spend: target.spend,
            }),
          );
          options.meter.recordOutcome(service, true);
          observed("ok");
          return response;
        } catch (raw) {
          const pause = Math.ceil(breakerOptions.halfOpenAfterMs / 1000);
          const err =
            raw instanceof BrokenCircuitError
              ? new UpstreamError(
                  service,
                  "circuit_open",
                  `${name} failed ${breakerOptions.consecutiveFailures} times in a row; calls are paused for up to ${pause} s`,
                  { retryAfterSeconds: pause },
                )
              : toUpstreamError(service, raw, timeoutMs, origin);
          const wait = attempt < maxAttempts ? retryDelay(err, method, attempt) : null;
          if (wait === null || Date.now() + wait >= deadline) {
            options.meter.recordOutcome(service, err.reachedService, err.reachedService ? null : err.message);
            observed(err.kind);
            if (target.relinkAt && (err.kind === "unauthorized" || err.kind === "forbidden"))
              throw new UpstreamError(service, err.kind, err.message, { ...err.details, relinkAt: target.relinkAt });
            throw err;
          }
          await sleep(wait, controller.signal).catch(() => {
            throw new UpstreamError(service, "timeout", `${name} did not answer within ${formatSeconds(timeoutMs)}`);
          });
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** null: do not retry. Otherwise the wait in ms: Retry-After exactly (plus jitter, never less), or backoff. */
  function retryDelay(err: UpstreamError, method: string, attempt: number): number | null {
    if (err.kind === "rate_limited") {
      const after = err.details.retryAfterSeconds;
      if (after === undefined) return jittered(attempt);
      const ms = after * 1000;
      return ms > maxRetryAfterMs ? null : ms + Math.floor(Math.random() * 100);
    }
    // A refused connection sent nothing, so even a POST may go again; anything else only when
    // repeating the request cannot do it twice.
    const idempotent = IDEMPOTENT.has(method);
    const retryable =
      (err.kind === "server_error" && RETRYABLE_STATUS.has(err.status ?? 0) && idempotent) ||
      (err.kind === "unreachable" && (idempotent || err.message.includes("ECONNREFUSED")));
    return retryable ? jittered(attempt) : null;
  }

  const jittered = (attempt: number): number => {
    const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
    return Math.floor(ceiling / 2 + Math.random() * (ceiling / 2));
  };

  async function attemptOnce<T>(
    service: UpstreamService,
    req: {
      origin: string;
      path: string;
      method: string;
      headers: Record<string, string>;
      body: string | Buffer | undefined;
      signal: AbortSignal;
      accept: "json" | "text" | "raw";
      timeoutMs: number;
      answerStatuses: readonly number[];
      spend: (() => void) | undefined;
    },
  ): Promise<UpstreamResponse<T>> {
    options.meter.recordCall(service);
    req.spend?.();
    const proxied = options.proxy?.proxyFor(req.origin) ?? null;
    if (proxied) {
      const problem = await hostProblem(new URL(req.origin).hostname);
      if (problem) throw new HostNotAllowedError(problem);
    }
    const res: Dispatcher.ResponseData = await (proxied ? proxyAgent(proxied) : agent).request({
      origin: req.origin,
      path: req.path,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    options.meter.recordRateLimitHeaders(service, res.headers);
    const text = await readBounded(service, res, maxResponseBytes);
    if (req.answerStatuses.includes(res.statusCode) && req.accept === "json") {
      try {
        return { status: res.statusCode, data: JSON.parse(text) as T, headers: res.headers };
      } catch {
        // Not the JSON answer expected: an ordinary failure below.
      }
    }
    if (res.statusCode >= 200 && res.statusCode < 300) {
      if (req.accept !== "json") return { status: res.statusCode, data: text as T, headers: res.headers };
      if (text === "") return { status: res.statusCode, data: undefined as T, headers: res.headers };
      try {
        return { status: res.statusCode, data: JSON.parse(text) as T, headers: res.headers };
      } catch {
        throw new UpstreamError(service, "invalid_response", `${SERVICE_NAMES[service]} sent a response that is not JSON`, {
          status: res.statusCode,
        });
      }
    }
    throw errorForStatus(service, res.statusCode, res.headers, text);
  }

  /**
   * One request to an authorization server (Atlassian's or Bitbucket's token endpoint, or an
   * account lookup made while linking): the same pool, address rule, proxy and deadline as the API
   * calls, but not metered, retried or behind a circuit (a token request is not an API call, and a
   * refresh must not be sent twice). Any status is an answer: the caller reads OAuth's error body.
   */
  async function exchange(
    service: UpstreamService,
    call: { url: string; method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  ): Promise<{ status: number; json: unknown }> {
    const url = new URL(call.url);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (hostRule && isIP(host) && !hostRule.permits(url.hostname, host))
      throw new UpstreamError(service, "host_not_allowed", hostRuleMessage(url.hostname, host));
    const proxied = options.proxy?.proxyFor(url.origin) ?? null;
    if (proxied) {
      const problem = await hostProblem(url.hostname);
      if (problem) throw new UpstreamError(service, "host_not_allowed", problem);
    }
    const timeoutMs = Math.min(options.timeoutMs, 15_000);
    try {
      const res = await (proxied ? proxyAgent(proxied) : agent).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: call.method ?? "POST",
        headers: { accept: "application/json", "user-agent": userAgent, ...call.headers },
        body: call.body,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await readBounded(service, res, 256 * 1024);
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      return { status: res.statusCode, json };
    } catch (err) {
      throw toUpstreamError(service, err, timeoutMs, url.origin);
    }
  }

  return {
    request,
    exchange,
    /** Drops the circuit state of a service (after its configuration changed). */
    resetCircuits(service: UpstreamService): void {
      for (const key of [...breakers.keys()]) if (key.startsWith(`${service} `)) breakers.delete(key);
    },
    close: () => Promise.all([agent.close(), ...[...proxies.values()].map((p) => p.close())]).then(() => undefined),
  };
}

export type UpstreamHttp = ReturnType<typeof createUpstreamHttp>;

/**
 * Base URL + path + query. An absolute path (a `next` link) must stay on the base URL: credentials
 * are never sent to another host because a response said so.
 */
export function resolveUrl(
  service: UpstreamService,
  baseUrl: string,
  path: string,
  query?: Record<string, QueryValue>,
): { origin: string; path: string } {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  let url: URL;
  if (/^https?:\/\//i.test(path)) {
    url = new URL(path);
    if (url.origin !== base.origin || !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) {
      throw new UpstreamError(service, "invalid_response", `${SERVICE_NAMES[service]} pointed to a URL outside its base URL`);
    }
  } else {
    url = new URL(`${base.origin}${basePath}${path.startsWith("/") ? path : `/${path}`}`);
    // "..", "%2e%2e" and friends are resolved by URL: the result must still be under the base path.
    if (basePath && !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) {
      throw new UpstreamError(service, "bad_request", `The path leaves ${SERVICE_NAMES[service]}'s base URL`);
    }
  }
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v));
    else url.searchParams.set(key, String(value));
  }
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

async function readBounded(service: UpstreamService, res: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  const declared = Number(res.headers["content-length"]);
  const tooLarge = () =>
    new UpstreamError(
      service,
      "too_large",
      `${SERVICE_NAMES[service]} sent a response larger than ${Math.round(maxBytes / 1024 / 1024)} MB`,
      { status: res.statusCode },
    );
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      res.body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The upstream's own words, from Jira's, Confluence's or Bitbucket's error body. */
export function upstreamMessage(text: string): string | null {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    // Jira: errorMessages, and errors by field (each named, so a caller knows which field to fix).
    const fieldErrors =
      body.errors && typeof body.errors === "object" && !Array.isArray(body.errors)
        ? Object.entries(body.errors as Record<string, unknown>)
            .filter(([, m]) => typeof m === "string" && m.trim() !== "")
            .map(([field, m]) => `${field}: ${String(m)}`)
        : [];
    const jira = [
      ...(Array.isArray(body.errorMessages) ? body.errorMessages.filter((m): m is string => typeof m === "string" && m.trim() !== "") : []),
      ...fieldErrors,
    ];
    // Bitbucket Data Center: errors: [{context, message, exceptionName}], a field's name in context.
    const bitbucketDc = Array.isArray(body.errors)
      ? (body.errors as { context?: unknown; message?: unknown }[])
          .filter((e) => typeof e?.message === "string" && e.message.trim() !== "")
          .map((e) => (typeof e.context === "string" && e.context ? `${e.context}: ${String(e.message)}` : String(e.message)))
      : [];
    const candidates: unknown[] = [
      jira.length ? jira.join("; ") : undefined,
      bitbucketDc.length ? bitbucketDc.join("; ") : undefined,
      (body.error as { message?: unknown } | undefined)?.message,
      body.message,
    ];
    const found = candidates.find((c): c is string => typeof c === "string" && c.trim() !== "");
    return found ? found.slice(0, 300) : null;
  } catch {
    const trimmed = text.trim();
    return trimmed && !trimmed.startsWith("<") ? trimmed.slice(0, 300) : null;
  }
}

export function errorForStatus(
  service: UpstreamService,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
): UpstreamError {
  const name = SERVICE_NAMES[service];
  const said = upstreamMessage(text);
  const suffix = said ? `: ${said}` : "";
  if (status === 401)
    return new UpstreamError(service, "unauthorized", `${name} refused the credentials (401); check the username or email and the token`, {
      status,
    });
  if (status === 403) return new UpstreamError(service, "forbidden", `${name} denied access (403)${suffix}`, { status });
  if (status === 404) return new UpstreamError(service, "not_found", `${name} found nothing there (404)${suffix}`, { status });
  if (status === 409) return new UpstreamError(service, "conflict", `${name} reported a conflict (409)${suffix}`, { status });
  if (status === 413) return new UpstreamError(service, "bad_request", `${name} refused the request as too large (413)`, { status });
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(headers["retry-after"]);
    const when = retryAfterSeconds === undefined ? "" : `; retry after ${retryAfterSeconds} s`;
    return new UpstreamError(service, "rate_limited", `${name} is rate limiting requests (429)${when}`, { status, retryAfterSeconds });
  }
  if (status >= 500) return new UpstreamError(service, "server_error", `${name} failed with ${status}${suffix}`, { status });
  if (status >= 300 && status < 400)
    return new UpstreamError(service, "invalid_response", `${name} answered with an unexpected redirect (${status})`, { status });
  return new UpstreamError(service, "bad_request", `${name} refused the request (${status})${suffix}`, { status });
}

/** Retry-After is seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function toUpstreamError(service: UpstreamService, err: unknown, timeoutMs: number, origin: string): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const name = SERVICE_NAMES[service];
  const e = err as { name?: string; code?: string; message?: string };
  if (
    e?.name === "AbortError" ||
    e?.code === "UND_ERR_ABORTED" ||
    e?.code === "UND_ERR_HEADERS_TIMEOUT" ||
    e?.code === "UND_ERR_BODY_TIMEOUT"
  ) {
    return new UpstreamError(service, "timeout", `${name} did not answer within ${formatSeconds(timeoutMs)}`);
  }
  const cause = (e as { cause?: unknown })?.cause;
  if (err instanceof HostNotAllowedError || cause instanceof HostNotAllowedError)
    return new UpstreamError(
      service,
      "host_not_allowed",
      `${name}: ${(cause instanceof HostNotAllowedError ? cause : (err as Error)).message}`,
    );
  const code = e?.code ?? (e as { cause?: { code?: string } })?.cause?.code;
  return new UpstreamError(service, "unreachable", `${name} could not be reached at ${origin}${code ? ` (${code})` : ""}`);
}

const formatSeconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("aborted"));
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error("aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
