import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Logger } from "../lib/logger";
import type { ConnectionsService } from "../modules/connections/connections.service";
import type { LiveStream, LiveStreams } from "./live-streams";

/**
 * Keeps this process's long-lived streams honest:
 * - every `intervalMs` (30 s, spec §9) each stream gets its heartbeat, and the registry rows their
 *   `last_heartbeat` in one update; a row an administrator ended (here or on another instance)
 *   comes back from that update, and its stream is ended;
 * - when access changes anywhere (a token or grant revoked, a client deactivated or deleted, a
 *   user deactivated or their roles changed: the event bus, wired in container.ts), every stream's
 *   token is checked again and the streams whose token no longer holds are ended (item 5).
 */
export function createStreamKeeper(deps: {
  streams: LiveStreams;
  connections: ConnectionsService;
  verify: (token: string) => Promise<AuthInfo>;
  intervalMs: number;
  log: Logger;
}) {
  const { streams, log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;

  async function beat(): Promise<void> {
    const live = streams.all();
    if (live.length === 0) return;
    const at = new Date().toISOString();
    for (const stream of live) stream.send("heartbeat", { connectionId: stream.connectionId, timestamp: at });
    try {
      const ended = await deps.connections.heartbeat(live.map((s) => s.connectionId));
      if (ended.length > 0) {
        const set = new Set(ended);
        streams.endWhere((s) => set.has(s.connectionId), "The connection was ended by an administrator");
      }
    } catch (err) {
      log.warn({ err }, "recording heartbeats failed");
    }
    // A token that expired or was revoked on another instance: found here within one interval.
    await checkOwners();
  }

  /** Re-checks each distinct token once; streams whose token fails are ended. */
  function checkOwners(filter: (s: LiveStream) => boolean = () => true): Promise<void> {
    if (checking) return checking.then(() => checkOwners(filter));
    checking = (async () => {
      const byToken = new Map<string, LiveStream[]>();
      for (const s of streams.all()) if (filter(s)) byToken.set(s.owner.token, [...(byToken.get(s.owner.token) ?? []), s]);
      for (const [token, owned] of byToken) {
        try {
          const info = await deps.verify(token);
          if (!info.scopes.includes("read")) throw new Error("The access token no longer holds the read scope");
        } catch (err) {
          const reason = err instanceof Error ? err.message : "The access token is no longer valid";
          const ids = new Set(owned.map((s) => s.connectionId));
          streams.endWhere((s) => ids.has(s.connectionId), reason);
        }
      }
    })().finally(() => {
      checking = undefined;
    });
    return checking;
  }

  return {
    start(): void {
      timer = setInterval(() => {
        beat().catch((err) => log.warn({ err }, "heartbeat failed"));
      }, deps.intervalMs);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    /** One heartbeat round now (tests drive it with fake timers or directly). */
    beat,
    checkOwners,
    /** Ends the streams of one OAuth client at once (deactivated, deleted, secret regenerated). */
    endClient: (clientId: string, reason: string) => streams.endWhere((s) => s.owner.clientId === clientId, reason),
    /** Ends one stream named by its connection id (an administrator's DELETE). */
    endConnection: (connectionId: string, reason: string) => streams.endWhere((s) => s.connectionId === connectionId, reason),
  };
}

export type StreamKeeper = ReturnType<typeof createStreamKeeper>;
