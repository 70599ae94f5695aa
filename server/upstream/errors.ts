export type UpstreamService = "jira" | "confluence" | "bitbucket";

/** How a call to an upstream service ended: the meter keeps the newest, and the event bus carries it. */
export interface Outcome {
  ok: boolean;
  at: Date;
  error: string | null;
}

export const SERVICE_NAMES: Record<UpstreamService, string> = { jira: "Jira", confluence: "Confluence", bitbucket: "Bitbucket" };

export type UpstreamErrorKind =
  | "not_configured"
  | "unreachable"
  | "timeout"
  | "circuit_open"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "bad_request"
  | "conflict"
  | "rate_limited"
  | "server_error"
  | "too_large"
  | "invalid_response"
  /** The address is loopback, private, link-local or a metadata service, and not allowed (host-policy.ts). */
  | "host_not_allowed"
  /** No identity of the caller's may be used (issue 27: nothing linked, a link to renew, a machine client): the message is the whole sentence. */
  | "identity";

/**
 * Every failure of an upstream call, with a message a person can act on. It never carries the
 * credentials or the request's headers, so it is safe to log and to show.
 */
export class UpstreamError extends Error {
  override name = "UpstreamError";

  constructor(
    readonly service: UpstreamService,
    readonly kind: UpstreamErrorKind,
    message: string,
    readonly details: { status?: number; retryAfterSeconds?: number; relinkAt?: string } = {},
  ) {
    super(message);
  }

  get status(): number | undefined {
    return this.details.status;
  }

  /** Failures that say the service is down (not that our request was wrong): they open the circuit. */
  get isOutage(): boolean {
    return this.kind === "unreachable" || this.kind === "timeout" || this.kind === "server_error";
  }

  /** Whether the service answered and accepted our credentials, whatever it said. */
  get reachedService(): boolean {
    return (
      this.kind === "not_found" ||
      this.kind === "bad_request" ||
      this.kind === "conflict" ||
      this.kind === "rate_limited" ||
      this.kind === "too_large" ||
      this.kind === "invalid_response"
    );
  }
}

export const isUpstreamError = (e: unknown): e is UpstreamError => e instanceof UpstreamError;
