import { and, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { oauthClients, oauthGrants, type OAuthClientRow } from "../../db/schema";

export type OAuthClientsRepo = ReturnType<typeof createOAuthClientsRepo>;
export type OAuthClientWithGrants = OAuthClientRow & { activeGrants: number };

export function createOAuthClientsRepo(db: Db) {
  return {
    /** Every client, newest first, with its count of live grants (unexpired, unrevoked). */
    async list(now: Date): Promise<OAuthClientWithGrants[]> {
      const live = db
        .select({ clientId: oauthGrants.clientId, n: sql<number>`count(*)::int`.as("n") })
        .from(oauthGrants)
        .where(and(isNull(oauthGrants.revokedAt), gt(oauthGrants.expiresAt, now)))
        .groupBy(oauthGrants.clientId)
        .as("live");
      const rows = await db
        .select({ client: oauthClients, n: live.n })
        .from(oauthClients)
        .leftJoin(live, eq(live.clientId, oauthClients.id))
        .orderBy(desc(oauthClients.createdAt), desc(oauthClients.id));
      return rows.map((r) => ({ ...r.client, activeGrants: r.n ?? 0 }));
    },

    /** How many clients there are (the dashboard's "OAuth Clients"). */
    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(oauthClients);
      return row?.n ?? 0;
    },

    /** The names of the clients with these public client ids (absent: no such client any more). */
    async namesOf(clientIds: readonly string[]): Promise<Map<string, string>> {
      if (clientIds.length === 0) return new Map();
      const rows = await db
        .select({ clientId: oauthClients.clientId, name: oauthClients.name })
        .from(oauthClients)
        .where(inArray(oauthClients.clientId, [...clientIds]));
      return new Map(rows.map((r) => [r.clientId, r.name]));
    },

    async findByClientId(clientId: string): Promise<OAuthClientRow | undefined> {
      const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
      return row;
    },

    async insert(values: typeof oauthClients.$inferInsert): Promise<OAuthClientRow> {
      const [row] = await db.insert(oauthClients).values(values).returning();
      return row!;
    },

    /**
     * A metadata document client as its document now says: made on first sight, its name and
     * redirect URIs refreshed after; its status (an administrator may deactivate it) is kept.
     */
    async upsertFromDocument(values: {
      clientId: string;
      name: string;
      redirectUris: string[];
      grantTypes: string[];
      scopes: string[];
      at: Date;
    }): Promise<OAuthClientRow> {
      const [row] = await db
        .insert(oauthClients)
        .values({
          clientId: values.clientId,
          name: values.name,
          secretSealed: null,
          redirectUris: values.redirectUris,
          scopes: values.scopes,
          grantTypes: values.grantTypes,
          tokenEndpointAuthMethod: "none",
          isActive: true,
          registeredVia: "metadata-document",
        })
        .onConflictDoUpdate({
          target: oauthClients.clientId,
          set: {
            name: values.name,
            redirectUris: values.redirectUris,
            grantTypes: values.grantTypes,
            scopes: values.scopes,
            updatedAt: values.at,
          },
          setWhere: eq(oauthClients.registeredVia, "metadata-document"),
        })
        .returning();
      return row ?? (await db.select().from(oauthClients).where(eq(oauthClients.clientId, values.clientId)).limit(1))[0]!;
    },

    async update(
      clientId: string,
      values: Partial<Pick<OAuthClientRow, "isActive" | "secretSealed" | "policy">> & { updatedAt: Date },
    ): Promise<OAuthClientRow | undefined> {
      const [row] = await db.update(oauthClients).set(values).where(eq(oauthClients.clientId, clientId)).returning();
      return row;
    },

    /**
     * Deletes self-registered clients created before `before` with no grant since then (none was
     * ever authorized, or the last authorization is that old). Returns how many.
     */
    async deleteUnusedDynamic(before: Date): Promise<number> {
      const rows = await db
        .delete(oauthClients)
        .where(
          and(
            eq(oauthClients.registeredVia, "dynamic"),
            lt(oauthClients.createdAt, before),
            sql`not exists (select 1 from ${oauthGrants} where ${oauthGrants.clientId} = ${oauthClients.id} and (${oauthGrants.createdAt} >= ${before.toISOString()}::timestamptz or (${oauthGrants.revokedAt} is null and ${oauthGrants.expiresAt} > ${before.toISOString()}::timestamptz)))`,
          ),
        )
        .returning({ id: oauthClients.id });
      return rows.length;
    },

    /** Deletes the client; its grants, codes and tokens go with it (foreign keys cascade). */
    async delete(clientId: string): Promise<OAuthClientRow | undefined> {
      const [row] = await db.delete(oauthClients).where(eq(oauthClients.clientId, clientId)).returning();
      return row;
    },
  };
}
