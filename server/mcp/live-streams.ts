import type { ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { memoryLimits, type Limits } from "../lib/limits";
import type { Logger } from "../lib/logger";

/**
 * Everything this process holds that another instance cannot see (issue 10 item 11): the open
 * long-lived streams and their owners. Shared state (the registry rows, tokens, the request log)
 * lives in the database; this module is the one place that is per process.
 */

/** Names the `/api/sse/stream` connection a request's response is delivered to as an `mcp-response` event (README). */
export const CONNECTION_HEADER = "x-connection-id";

export type StreamKind = "sse-stream" | "legacy-sse" | "listen";

/** Who a stream belongs to: the OAuth client and user its token was issued to (item 5). */
export interface StreamOwner {
  clientId: string;
  userId: string | null;
  grantId: string | null;
  /** Kept to re-check the token when access changes anywhere (revocation, deactivation, a role change). */
  token: string;
}

export const ownerOf = (auth: AuthInfo): StreamOwner => {
  const extra = (auth.extra ?? {}) as { userId?: string | null; grantId?: string | null };
  return { clientId: auth.clientId, userId: extra.userId ?? null, grantId: extra.grantId ?? null, token: auth.token };
};

export const sameOwner = (a: StreamOwner, b: StreamOwner): boolean => a.clientId === b.clientId && a.userId === b.userId;

export interface LiveStream {
  connectionId: string;
  kind: StreamKind;
  owner: StreamOwner;
  res: ServerResponse;
  /** Writes one server-sent event; false when the stream is gone. */
  send(event: string, data: unknown): boolean;
  /** Ends the stream with a final `error` event naming why (not for listen streams: they just close). */
  end(reason: string): void;
  /** For legacy sessions: where a POSTed message goes, with the verified token of the POST that carried it. */
  deliver?: (message: unknown, auth: AuthInfo) => Promise<void>;
}

export interface StreamLimits {
  /** New long-lived streams per OAuth client per minute (docs/decisions.md#rate-limits RATE_LIMIT_SSE_PER_MINUTE). */
  perMinute: number;
  /** Streams of one OAuth client open at once (RATE_LIMIT_SSE_MAX_CONCURRENT). */
  maxConcurrentPerClient: number;
  /** Streams this process holds at once (MCP_MAX_STREAMS). */
  maxPerProcess: number;
}

export type Admission = { ok: true } | { ok: false; message: string; retryAfterMs: number };

/** One server-sent event frame. `data` is JSON on one line, so no field can break the framing. */
export const sseFrame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function createLiveStreams(deps: {
  limits: StreamLimits;
  log: Logger;
  store?: Limits;
  /** A client's streams open on every instance (the connection registry); without it, or when it fails, this process's. */
  openOf?: (clientId: string) => Promise<number>;
}) {
  const streams = new Map<string, LiveStream>();
  const perClient = new Map<string, number>();
  const opened = (deps.store ?? memoryLimits()).create({ keyPrefix: "sse-open", points: deps.limits.perMinute, duration: 60 });
  let refusing = false;

  return {
    /**
     * docs/decisions.md#rate-limits: whether `clientId` may open one more long-lived stream now. Takes one of the minute's
     * points when it may; the caller answers 429 with Retry-After when it may not.
     */
    async admit(clientId: string): Promise<Admission> {
      if (refusing) return { ok: false, message: "The server is shutting down", retryAfterMs: 5_000 };
      if (streams.size >= deps.limits.maxPerProcess)
        return {
          ok: false,
          message: `This server holds its maximum of ${deps.limits.maxPerProcess} streams; try again later`,
          retryAfterMs: 30_000,
        };
      // Counted on every instance (issue 29 item 2): the registry's active rows of the client.
      const here = perClient.get(clientId) ?? 0;
      const everywhere = deps.openOf
        ? await deps.openOf(clientId).catch((err: unknown) => {
            deps.log.warn({ err }, "counting a client's open streams failed; counting this instance's");
            return here;
          })
        : here;
      if (Math.max(here, everywhere) >= deps.limits.maxConcurrentPerClient) {
        return {
          ok: false,
          message: `This client already has ${deps.limits.maxConcurrentPerClient} streams open; close one first`,
          retryAfterMs: 30_000,
        };
      }
      try {
        await opened.consume(clientId);
        return { ok: true };
      } catch (rejection) {
        if (rejection instanceof Error) throw rejection;
        const msBeforeNext = (rejection as { msBeforeNext: number }).msBeforeNext;
        return {
          ok: false,
          message: `More than ${deps.limits.perMinute} new streams a minute from this client; try again later`,
          retryAfterMs: msBeforeNext,
        };
      }
    },

    add(stream: LiveStream): void {
      streams.set(stream.connectionId, stream);
      perClient.set(stream.owner.clientId, (perClient.get(stream.owner.clientId) ?? 0) + 1);
    },

    /** Called once when a stream has ended, however it ended. */
    remove(connectionId: string): LiveStream | undefined {
      const stream = streams.get(connectionId);
      if (!stream) return undefined;
      streams.delete(connectionId);
      const left = (perClient.get(stream.owner.clientId) ?? 1) - 1;
      if (left > 0) perClient.set(stream.owner.clientId, left);
      else perClient.delete(stream.owner.clientId);
      return stream;
    },

    get: (connectionId: string): LiveStream | undefined => streams.get(connectionId),
    all: (): LiveStream[] => [...streams.values()],
    get size(): number {
      return streams.size;
    },

    /** Ends every stream for which `predicate` holds, each with `reason`. */
    endWhere(predicate: (stream: LiveStream) => boolean, reason: string): number {
      let n = 0;
      for (const stream of [...streams.values()]) {
        if (!predicate(stream)) continue;
        n += 1;
        try {
          stream.end(reason);
        } catch (err) {
          deps.log.warn({ err, connectionId: stream.connectionId }, "ending a stream failed");
        }
      }
      return n;
    },

    /** Shutdown: no new stream is admitted from now on. */
    refuseNew(): void {
      refusing = true;
    },
    /** Whether the process is shutting down (its registry rows are closed all at once then). */
    get stopping(): boolean {
      return refusing;
    },
  };
}

export type LiveStreams = ReturnType<typeof createLiveStreams>;
