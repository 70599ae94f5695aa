import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { aiProviders, type AiProviderRow, type NewAiProviderRow } from "../../db/schema";

export type AiProvidersRepo = ReturnType<typeof createAiProvidersRepo>;

/** What a change may set: everything but the id and the creation facts. */
export type AiProviderChanges = Partial<
  Pick<AiProviderRow, "name" | "provider" | "model" | "baseUrl" | "keySealed" | "keyHint" | "isActive">
> & { updatedAt: Date };

export function createAiProvidersRepo(db: Db) {
  return {
    /** Every provider, newest first (the screen's card order). */
    list: (): Promise<AiProviderRow[]> => db.select().from(aiProviders).orderBy(desc(aiProviders.createdAt), desc(aiProviders.id)),

    /** The active providers, oldest first: the chat auto-selects the first (spec §4). */
    listActive: (): Promise<AiProviderRow[]> =>
      db.select().from(aiProviders).where(eq(aiProviders.isActive, true)).orderBy(asc(aiProviders.createdAt), asc(aiProviders.id)),

    async findById(id: string): Promise<AiProviderRow | undefined> {
      const [row] = await db.select().from(aiProviders).where(eq(aiProviders.id, id)).limit(1);
      return row;
    },

    /** The row, locked until the transaction ends: two edits of one provider do not interleave. */
    async lockById(id: string): Promise<AiProviderRow | undefined> {
      const [row] = await db.select().from(aiProviders).where(eq(aiProviders.id, id)).limit(1).for("update");
      return row;
    },

    async insert(values: NewAiProviderRow): Promise<AiProviderRow> {
      const [row] = await db.insert(aiProviders).values(values).returning();
      return row!;
    },

    async update(id: string, values: AiProviderChanges): Promise<AiProviderRow | undefined> {
      const [row] = await db.update(aiProviders).set(values).where(eq(aiProviders.id, id)).returning();
      return row;
    },

    async delete(id: string): Promise<AiProviderRow | undefined> {
      const [row] = await db.delete(aiProviders).where(eq(aiProviders.id, id)).returning();
      return row;
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(aiProviders);
      return row?.n ?? 0;
    },
  };
}
