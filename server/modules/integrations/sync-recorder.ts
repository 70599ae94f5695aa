import type { UpstreamReach } from "../../db/schema";
import type { Logger } from "../../lib/logger";
import type { UpstreamService } from "../../upstream/errors";
import type { Outcome, UpstreamMeter } from "../../upstream/meter";
import type { IntegrationsRepo } from "./integrations.repo";

/** A success is written to the database at most this often per service (a state change at once). */
const PERSIST_EVERY_MS = 60_000;

/** What one check learned; absent fields keep their last known values. */
export type LearnedReach = Omit<UpstreamReach, "target" | "checkedAt">;

/**
 * Last sync survives a restart (docs/decisions.md#measured-numbers): the meter's outcomes are written through, a success at most
 * once a minute per service, and read back into the meter at start. The only writer of
 * upstream_sync; it hears outcomes through the event bus (subscribed in container.ts). It also
 * keeps what connection checks learned about each service's account and reach (issue 25), in the
 * database rather than in memory, so every instance and a restarted one shows the same.
 */
export function createSyncRecorder(deps: { repo: IntegrationsRepo; meter: UpstreamMeter; log: Logger }) {
  const { repo, meter, log } = deps;
  const persisted = new Map<UpstreamService, { ok: boolean; at: number }>();

  return {
    record(service: UpstreamService, outcome: Outcome): void {
      const last = persisted.get(service);
      const now = outcome.at.getTime();
      if (last && last.ok === outcome.ok && now - last.at < PERSIST_EVERY_MS) return;
      persisted.set(service, { ok: outcome.ok, at: now });
      const h = meter.health(service);
      repo
        .upsertSync({ service, lastSuccessAt: h.lastSuccessAt, lastFailureAt: h.lastFailureAt, lastError: h.lastError })
        .catch((err) => log.warn({ err, service }, "could not store the upstream sync state"));
    },

    /**
     * Stores what a check learned, over what was known for the same target (another target's
     * facts are replaced). Nothing learned (every call failed): the last known values and their
     * time stay. Awaited, so the next status read shows it; a failed write is only logged.
     */
    async learn(service: UpstreamService, target: string, learned: LearnedReach, at: Date): Promise<void> {
      if (Object.values(learned).every((v) => v === undefined)) return;
      try {
        const previous = (await repo.findReach([service])).get(service);
        const kept = previous?.target === target ? previous : {};
        const defined = Object.fromEntries(Object.entries(learned).filter(([, v]) => v !== undefined)) as LearnedReach;
        await repo.saveReach(service, { ...kept, ...defined, target, checkedAt: at.toISOString() });
      } catch (err) {
        log.warn({ err, service }, "could not store what the connection check learned");
      }
    },

    /** What checks learned, per service (whatever its target: the caller compares). A failed read is none known. */
    async known(services: UpstreamService[]): Promise<Map<UpstreamService, UpstreamReach>> {
      try {
        return (await repo.findReach(services)) as Map<UpstreamService, UpstreamReach>;
      } catch (err) {
        log.warn({ err }, "could not read what connection checks learned");
        return new Map();
      }
    },

    /** Restores last sync times stored by a previous run. */
    async restore(): Promise<void> {
      for (const row of await repo.listSync()) {
        meter.restoreHealth(row.service as UpstreamService, {
          lastSuccessAt: row.lastSuccessAt,
          lastFailureAt: row.lastFailureAt,
          lastError: row.lastError,
        });
      }
    },
  };
}

export type SyncRecorder = ReturnType<typeof createSyncRecorder>;
