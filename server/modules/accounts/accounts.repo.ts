import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountLinkRequests, accountLinks, integrationIdentity, type AccountLinkRow, type IntegrationIdentityRow } from "../../db/schema";
import type { Integration } from "../../../contract/accounts";

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
export type AccountLinkRequestRow = typeof accountLinkRequests.$inferSelect;
export type NewAccountLink = Omit<AccountLinkRow, "id" | "createdAt" | "updatedAt" | "lastUsedAt" | "state" | "problem">;

/** Identity settings, people's account links and the link attempts in flight. */
export function createAccountsRepo(db: Db) {
  return {
    async findIdentity(integration: Integration): Promise<IntegrationIdentityRow | undefined> {
      const [row] = await db.select().from(integrationIdentity).where(eq(integrationIdentity.integration, integration)).limit(1);
      return row;
    },

    async upsertIdentity(values: IntegrationIdentityRow): Promise<IntegrationIdentityRow> {
      const { integration: _key, ...set } = values;
      const [row] = await db
        .insert(integrationIdentity)
        .values(values)
        .onConflictDoUpdate({ target: integrationIdentity.integration, set })
        .returning();
      return row!;
    },

    async findLink(userId: string, integration: Integration): Promise<AccountLinkRow | undefined> {
      const [row] = await db
        .select()
        .from(accountLinks)
        .where(and(eq(accountLinks.userId, userId), eq(accountLinks.integration, integration)))
        .limit(1);
      return row;
    },

    /** The link, locked until the transaction ends (PostgreSQL): one refresh of a link at a time, across instances. */
    async lockLink(id: string): Promise<AccountLinkRow | undefined> {
      const [row] = await db.select().from(accountLinks).where(eq(accountLinks.id, id)).for("update").limit(1);
      return row;
    },

    linksOfUser: (userId: string): Promise<AccountLinkRow[]> =>
      db.select().from(accountLinks).where(eq(accountLinks.userId, userId)).orderBy(accountLinks.integration),

    /** A new link replaces the person's previous one for the integration (re-linking). */
    async saveLink(values: NewAccountLink, now: Date): Promise<AccountLinkRow> {
      const fresh = { ...values, state: "working" as const, problem: null, lastUsedAt: null, createdAt: now, updatedAt: now };
      const [row] = await db
        .insert(accountLinks)
        .values(fresh)
        .onConflictDoUpdate({ target: [accountLinks.userId, accountLinks.integration], set: fresh })
        .returning();
      return row!;
    },

    async updateTokens(
      id: string,
      values: { secretSealed: string; accessExpiresAt: Date | null; scopes?: string[] },
      now: Date,
    ): Promise<void> {
      await db
        .update(accountLinks)
        .set({ ...values, state: "working", problem: null, updatedAt: now })
        .where(eq(accountLinks.id, id));
    },

    async markNeedsRelinking(id: string, problem: string, now: Date): Promise<void> {
      await db.update(accountLinks).set({ state: "needs-relinking", problem, updatedAt: now }).where(eq(accountLinks.id, id));
    },

    /** Last used, written at most once a minute per link (the caller decides when). */
    async touch(id: string, at: Date): Promise<void> {
      await db.update(accountLinks).set({ lastUsedAt: at }).where(eq(accountLinks.id, id));
    },

    async deleteLink(userId: string, integration: Integration): Promise<AccountLinkRow | undefined> {
      const [row] = await db
        .delete(accountLinks)
        .where(and(eq(accountLinks.userId, userId), eq(accountLinks.integration, integration)))
        .returning();
      return row;
    },

    deleteLinksOfUser: (userId: string): Promise<AccountLinkRow[]> =>
      db.delete(accountLinks).where(eq(accountLinks.userId, userId)).returning(),

    async insertRequest(values: AccountLinkRequestRow, now: Date): Promise<void> {
      await db.delete(accountLinkRequests).where(lt(accountLinkRequests.expiresAt, now));
      await db.insert(accountLinkRequests).values(values);
    },

    /** Takes the attempt (single use): a second callback with the same state finds nothing. */
    async takeRequest(stateHash: string): Promise<AccountLinkRequestRow | undefined> {
      const [row] = await db.delete(accountLinkRequests).where(eq(accountLinkRequests.stateHash, stateHash)).returning();
      return row;
    },
  };
}
