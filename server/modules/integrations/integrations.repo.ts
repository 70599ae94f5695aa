import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { integrationConfigs, upstreamSync, type IntegrationConfigRow, type UpstreamSyncRow } from "../../db/schema";

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
          set: { settings: values.settings, secretSealed: values.secretSealed, secretHint: values.secretHint, isActive: values.isActive, updatedBy: values.updatedBy, updatedAt: values.updatedAt },
        })
        .returning();
      return row!;
    },

    listSync: (): Promise<UpstreamSyncRow[]> => db.select().from(upstreamSync),

    async upsertSync(row: UpstreamSyncRow): Promise<void> {
      await db
        .insert(upstreamSync)
        .values(row)
        .onConflictDoUpdate({ target: upstreamSync.service, set: { lastSuccessAt: row.lastSuccessAt, lastFailureAt: row.lastFailureAt, lastError: row.lastError } });
    },
  };
}
