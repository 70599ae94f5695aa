import { hostname } from "node:os";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { InstancesRepo } from "./instances.repo";

/** How often an instance says it is alive. */
export const INSTANCE_BEAT_MS = 15_000;
/** Three missed beats: the instance is gone (kill -9, a lost machine) and no longer listed. */
export const INSTANCE_GONE_AFTER_MS = 45_000;
/** A gone instance's row is dropped after this long. */
const INSTANCE_FORGOTTEN_AFTER_MS = 3_600_000;

/** One live instance, as the Dashboard's Server Status card lists it. */
export interface LiveInstance {
  id: string;
  version: string;
  hostname: string;
  startedAt: Date;
  lastSeenAt: Date;
  /** Streams the connection registry says it holds. */
  openStreams: number;
  /** The instance answering. */
  current: boolean;
}

/**
 * The instances serving on one database (issue 29 item 5): each notes itself in the `instances`
 * table when it starts, renews the note every 15 s and removes it when it stops cleanly; a crashed
 * one stops renewing and is dropped from the list 45 s later. With the embedded database, the list
 * is this process alone.
 */
export function createInstances(deps: {
  repo: InstancesRepo;
  clock: Clock;
  log: Logger;
  instanceId: string;
  version: string;
  startedAt: Date;
  beatMs?: number;
}) {
  const { repo, clock, log, instanceId } = deps;
  const host = hostname();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const beat = async () => {
    if (stopped) return;
    const now = clock.now();
    await repo.beat({ id: instanceId, version: deps.version, hostname: host, startedAt: deps.startedAt, lastSeenAt: now });
    await repo.pruneSilent(new Date(now.getTime() - INSTANCE_FORGOTTEN_AFTER_MS));
  };
  const beatLogged = () => beat().catch((err) => log.warn({ err }, "noting this instance alive failed"));

  return {
    instanceId,
    /** Notes this instance now and every beat after (an unref'd timer: it never holds the process open). */
    start(): Promise<void> {
      timer ??= setInterval(() => void beatLogged(), deps.beatMs ?? INSTANCE_BEAT_MS);
      timer.unref();
      return beatLogged();
    },

    /** A clean stop: the others stop listing this instance at once. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await repo.remove(instanceId).catch((err) => log.warn({ err }, "removing this instance's note failed"));
    },

    /** The live instances, oldest first; the one answering is always among them (noted again if its note was missed). */
    async live(): Promise<LiveInstance[]> {
      const seen = () => repo.seenSince(new Date(clock.now().getTime() - INSTANCE_GONE_AFTER_MS));
      let rows = await seen();
      if (!stopped && !rows.some((row) => row.id === instanceId)) {
        await beat();
        rows = await seen();
      }
      return rows.map((row) => ({ ...row, current: row.id === instanceId }));
    },
  };
}

export type Instances = ReturnType<typeof createInstances>;
