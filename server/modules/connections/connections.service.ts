import type { SseConnectionDto } from "../../../contract/connections";
import type { SseConnectionRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { EventBus } from "../../lib/event-bus";
import type { Actor, AuditService } from "../audit/audit.service";
import type { ConnectionsRepo } from "./connections.repo";

export type ConnectionKind = "sse-stream" | "legacy-sse" | "listen";

/** The registry holds the newest rows; older closed ones are pruned. */
const LIST_LIMIT = 1000;
/**
 * A process that stopped heartbeating this long ago is gone (kill -9, a lost machine): two missed
 * heartbeats (30 s each). With the sweep every 15 s, its rows are inactive within 75 s of its end
 * (issue 29 item 6 asks 90).
 */
export const STALE_AFTER_MS = 60_000;

export const presentConnection = (row: SseConnectionRow): SseConnectionDto => ({
  id: row.id,
  connectionId: row.connectionId,
  clientId: row.clientId,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
  lastHeartbeat: row.lastHeartbeat.toISOString(),
  clientInfo: { userAgent: row.userAgent, ipAddress: row.ip },
  kind: row.kind,
  userId: row.userId,
  closedAt: row.closedAt?.toISOString() ?? null,
});

/**
 * The connection registry (docs/decisions.md#mcp-transports): every live long-lived stream is a row, so the console and other
 * instances see it. The process holding a stream reports it opened, alive (heartbeats) and
 * closed; rows a dead process left are swept.
 */
export function createConnectionsService(deps: {
  repo: ConnectionsRepo;
  clock: Clock;
  audit: AuditService;
  events: EventBus;
  instanceId: string;
}) {
  const { repo, clock } = deps;
  return {
    instanceId: deps.instanceId,

    async opened(c: {
      connectionId: string;
      kind: ConnectionKind;
      clientId: string;
      userId: string | null;
      ip: string | null;
      userAgent: string | null;
    }): Promise<void> {
      const now = clock.now();
      await repo.insert({
        ...c,
        userAgent: c.userAgent?.slice(0, 512) ?? null,
        instanceId: deps.instanceId,
        createdAt: now,
        lastHeartbeat: now,
        isActive: true,
      });
    },

    /** One update for all; returns the ids among them an administrator (or a sweep) ended meanwhile. */
    heartbeat: (connectionIds: string[]): Promise<string[]> => repo.heartbeat(connectionIds, clock.now()),

    closed: async (connectionId: string): Promise<void> => void (await repo.close({ connectionId }, clock.now())),

    /** Shutdown: this process's rows end with it. */
    closeAllOfInstance: (): Promise<number> => repo.close({ instanceId: deps.instanceId }, clock.now()),

    /** Rows whose holder stopped heartbeating `maxSilenceMs` ago belong to a dead process. */
    sweepStale: (maxSilenceMs = STALE_AFTER_MS): Promise<number> =>
      repo.close({ silentSince: new Date(clock.now().getTime() - maxSilenceMs) }, clock.now()),

    /**
     * At start: the embedded database is opened by one process only, so every active row belongs
     * to a process that is gone; on PostgreSQL other instances may be alive, so only stale rows.
     */
    sweepAtStart: (database: "pglite" | "postgres"): Promise<number> =>
      database === "pglite"
        ? repo.close({ all: true }, clock.now())
        : repo.close({ silentSince: new Date(clock.now().getTime() - STALE_AFTER_MS) }, clock.now()),

    list: async (): Promise<SseConnectionDto[]> => (await repo.list(LIST_LIMIT)).map(presentConnection),
    countActive: (): Promise<number> => repo.countActive(),
    pruneClosed: (olderThanMs: number): Promise<number> => repo.pruneClosed(new Date(clock.now().getTime() - olderThanMs)),

    /** An administrator ends a live connection: the row turns inactive and its holder ends the stream. */
    async terminate(connectionId: string, actor: Actor): Promise<void> {
      const row = await repo.find(connectionId);
      if (!row) throw new AppError("not_found", "SSE connection not found");
      await repo.close({ connectionId }, clock.now());
      await deps.audit.record(actor, {
        action: "sse-connection.terminate",
        targetType: "sse-connection",
        targetId: connectionId,
        details: { clientId: row.clientId, kind: row.kind, wasActive: row.isActive },
      });
      // This instance ends it now; another instance holding it finds the row inactive at its next heartbeat.
      deps.events.emit("connection.terminated", { connectionId });
    },
  };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;
