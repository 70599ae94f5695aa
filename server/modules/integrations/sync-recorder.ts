import type { Logger } from "../../lib/logger";
import type { UpstreamService } from "../../upstream/errors";
import type { Outcome, UpstreamMeter } from "../../upstream/meter";
import type { IntegrationsRepo } from "./integrations.repo";

/** A success is written to the database at most this often per service (a state change at once). */
const PERSIST_EVERY_MS = 60_000;

/**
 * Last sync survives a restart (D14): the meter's outcomes are written through, a success at most
 * once a minute per service, and read back into the meter at start. The only writer of
 * upstream_sync; it hears outcomes through the event bus (subscribed in container.ts).
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

    /** Restores last sync times stored by a previous run. */
    async restore(): Promise<void> {
      for (const row of await repo.listSync()) {
        meter.restoreHealth(row.service as UpstreamService, { lastSuccessAt: row.lastSuccessAt, lastFailureAt: row.lastFailureAt, lastError: row.lastError });
      }
    },
  };
}

export type SyncRecorder = ReturnType<typeof createSyncRecorder>;
