import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { integrationConfigs, upstreamSync, type IntegrationConfigRow, type UpstreamReach, type UpstreamSyncRow } from "../../db/schema";

export type IntegrationKind = "atlassian" | "bitbucket";
export type IntegrationsRepo = ReturnType<typeof createIntegrationsRepo>;

export function createIntegrationsRepo(db: Db) {
  return {
    async find(kind: IntegrationKind): Promise<IntegrationConfigRow | undefined> {
      const [row] = await db.select().from(integrationConfigs).where(eq(integrationConfigs.kind, kind)).limit(1);
      return row;
    },

    async upsert(values: Omit<IntegrationConfigRow, "createdAt" | "updatedAt"> & { updatedAt: Date }): Promise<IntegrationConfigRow> {
      const [row] = await db
        .insert(integrationConfigs)
        .values(values)
        .onConflictDoUpdate({
          target: integrationConfigs.kind,
          set: {
            settings: values.settings,
            secretSealed: values.secretSealed,
            secretHint: values.secretHint,
            isActive: values.isActive,
            updatedBy: values.updatedBy,
            updatedAt: values.updatedAt,
          },
        })
        .returning();
      return row!;
    },

    listSync: (): Promise<UpstreamSyncRow[]> => db.select().from(upstreamSync),

    /** The outcome columns only: what a check learned (`reach`) is kept. */
    async upsertSync(row: Omit<UpstreamSyncRow, "reach">): Promise<void> {
      await db
        .insert(upstreamSync)
        .values(row)
        .onConflictDoUpdate({
          target: upstreamSync.service,
          set: { lastSuccessAt: row.lastSuccessAt, lastFailureAt: row.lastFailureAt, lastError: row.lastError },
        });
    },

    async findReach(services: string[]): Promise<Map<string, UpstreamReach>> {
      const rows = await db
        .select({ service: upstreamSync.service, reach: upstreamSync.reach })
        .from(upstreamSync)
        .where(inArray(upstreamSync.service, services));
      return new Map(rows.flatMap((r) => (r.reach ? [[r.service, r.reach] as const] : [])));
    },

    /** The reach column only: the outcome columns are the sync recorder's. */
    async saveReach(service: string, reach: UpstreamReach): Promise<void> {
      await db.insert(upstreamSync).values({ service, reach }).onConflictDoUpdate({ target: upstreamSync.service, set: { reach } });
    },
  };
}
