import { and, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  permissions,
  rolePermissions,
  roles,
  userRoles,
  oauthClients,
  oauthCodes,
  oauthGrants,
  oauthPendingRequests,
  oauthTokens,
  users,
  type OAuthClientRow,
  type OAuthCodeRow,
  type OAuthGrantRow,
  type OAuthPendingRequestRow,
  type OAuthTokenRow,
} from "../../db/schema";

export type OAuthGrantsRepo = ReturnType<typeof createOAuthGrantsRepo>;

/** A token with everything its verification needs: its grant, its client, and whether the consenting user is active. */
export interface TokenWithGrant {
  token: OAuthTokenRow;
  grant: OAuthGrantRow;
  client: OAuthClientRow;
  /** null for a client_credentials grant (no user). */
  userActive: boolean | null;
}

/** Consent requests, grants, codes and tokens: the authorization server's state. */
export function createOAuthGrantsRepo(db: Db) {
  return {
    async insertPending(values: OAuthPendingRequestRow): Promise<void> {
      await db.insert(oauthPendingRequests).values(values);
    },

    async findPending(id: string, now: Date): Promise<(OAuthPendingRequestRow & { client: OAuthClientRow }) | undefined> {
      const [row] = await db
        .select({ pending: oauthPendingRequests, client: oauthClients })
        .from(oauthPendingRequests)
        .innerJoin(oauthClients, eq(oauthClients.id, oauthPendingRequests.clientId))
        .where(and(eq(oauthPendingRequests.id, id), gt(oauthPendingRequests.expiresAt, now)))
        .limit(1);
      return row ? { ...row.pending, client: row.client } : undefined;
    },

    /** Removes a pending request and returns it: whoever gets it decides it, once. */
    async takePending(id: string, now: Date): Promise<OAuthPendingRequestRow | undefined> {
      const [row] = await db
        .delete(oauthPendingRequests)
        .where(and(eq(oauthPendingRequests.id, id), gt(oauthPendingRequests.expiresAt, now)))
        .returning();
      return row;
    },

    async insertGrant(values: typeof oauthGrants.$inferInsert): Promise<OAuthGrantRow> {
      const [row] = await db.insert(oauthGrants).values(values).returning();
      return row!;
    },

    async revokeGrant(id: string, reason: string, at: Date): Promise<void> {
      await db
        .update(oauthGrants)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)));
    },

    /** Ends every live grant of a client (by its row id): all its codes and tokens stop working for good. */
    async revokeGrantsOfClient(clientRowId: string, reason: string, at: Date): Promise<void> {
      await db
        .update(oauthGrants)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(oauthGrants.clientId, clientRowId), isNull(oauthGrants.revokedAt)));
    },

    async revokeGrantsOfUser(userId: string, reason: string, at: Date): Promise<void> {
      await db
        .update(oauthGrants)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)));
    },

    /**
     * OAuth access follows the consenting user's permissions now, not at the moment of consent
     * (issue 9): a live grant of a user without `mcp.read` is revoked; one of a user without
     * `mcp.write` loses the write scope, with its tokens. Returns how many grants changed.
     */
    async reconcileWithPermissions(at: Date): Promise<number> {
      const holds = (action: "read" | "write") => sql`exists (
        select 1 from ${userRoles}
        join ${roles} on ${roles.id} = ${userRoles.roleId} and ${roles.isActive}
        join ${rolePermissions} on ${rolePermissions.roleId} = ${roles.id}
        join ${permissions} on ${permissions.id} = ${rolePermissions.permissionId}
        where ${userRoles.userId} = ${oauthGrants.userId} and ${permissions.resource} = 'mcp' and ${permissions.action} = ${action})`;
      const live = and(isNull(oauthGrants.revokedAt), isNotNull(oauthGrants.userId), gt(oauthGrants.expiresAt, at));
      const revoked = await db
        .update(oauthGrants)
        .set({ revokedAt: at, revokedReason: "the user no longer holds mcp.read" })
        .where(and(live, sql`not ${holds("read")}`))
        .returning({ id: oauthGrants.id });
      const narrowed = await db
        .update(oauthGrants)
        .set({ scopes: sql`${oauthGrants.scopes} - 'write'` })
        .where(and(live, sql`${oauthGrants.scopes} ? 'write'`, sql`not ${holds("write")}`))
        .returning({ id: oauthGrants.id, scopes: oauthGrants.scopes });
      if (narrowed.length > 0) {
        const ids = narrowed.map((g) => g.id);
        await db
          .update(oauthTokens)
          .set({ scopes: sql`${oauthTokens.scopes} - 'write'` })
          .where(inArray(oauthTokens.grantId, ids));
        const empty = narrowed.filter((g) => g.scopes.length === 0).map((g) => g.id);
        if (empty.length > 0)
          await db.update(oauthGrants).set({ revokedAt: at, revokedReason: "no scope left" }).where(inArray(oauthGrants.id, empty));
      }
      return revoked.length + narrowed.length;
    },

    async insertCode(values: typeof oauthCodes.$inferInsert): Promise<void> {
      await db.insert(oauthCodes).values(values);
    },

    async findCode(codeHash: string): Promise<(OAuthCodeRow & { grant: OAuthGrantRow }) | undefined> {
      const [row] = await db
        .select({ code: oauthCodes, grant: oauthGrants })
        .from(oauthCodes)
        .innerJoin(oauthGrants, eq(oauthGrants.id, oauthCodes.grantId))
        .where(eq(oauthCodes.codeHash, codeHash))
        .limit(1);
      return row ? { ...row.code, grant: row.grant } : undefined;
    },

    /** Marks a code used; false when it already was (atomic: two redemptions race, one wins). */
    async consumeCode(codeHash: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(oauthCodes)
        .set({ consumedAt: at })
        .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.consumedAt)))
        .returning({ codeHash: oauthCodes.codeHash });
      return rows.length === 1;
    },

    async insertTokens(values: (typeof oauthTokens.$inferInsert)[]): Promise<void> {
      await db.insert(oauthTokens).values(values);
    },

    async findToken(tokenHash: string): Promise<TokenWithGrant | undefined> {
      const [row] = await db
        .select({ token: oauthTokens, grant: oauthGrants, client: oauthClients, userActive: users.isActive })
        .from(oauthTokens)
        .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
        .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
        .leftJoin(users, eq(users.id, oauthGrants.userId))
        .where(eq(oauthTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    /** Marks a refresh token exchanged (keeping its sealed successor); false when it already was (a replay, or a parallel refresh). */
    async rotateRefreshToken(tokenHash: string, at: Date, successorSealed: string | null): Promise<boolean> {
      const rows = await db
        .update(oauthTokens)
        .set({ rotatedAt: at, successorSealed })
        .where(
          and(
            eq(oauthTokens.tokenHash, tokenHash),
            eq(oauthTokens.kind, "refresh"),
            isNull(oauthTokens.rotatedAt),
            isNull(oauthTokens.revokedAt),
          ),
        )
        .returning({ tokenHash: oauthTokens.tokenHash });
      return rows.length === 1;
    },

    async deleteTokens(tokenHashes: string[]): Promise<void> {
      await db.delete(oauthTokens).where(inArray(oauthTokens.tokenHash, tokenHashes));
    },

    async revokeToken(tokenHash: string, at: Date): Promise<void> {
      await db
        .update(oauthTokens)
        .set({ revokedAt: at })
        .where(and(eq(oauthTokens.tokenHash, tokenHash), isNull(oauthTokens.revokedAt)));
    },

    /** Live grants: the dashboard's "active OAuth sessions" (docs/decisions.md#oauth-authorization-server). */
    async countLiveGrants(now: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(oauthGrants)
        .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
        // Sessions are users' consents: a client_credentials grant (no user) is not one.
        .where(
          and(
            isNull(oauthGrants.revokedAt),
            gt(oauthGrants.expiresAt, now),
            eq(oauthClients.isActive, true),
            isNotNull(oauthGrants.userId),
          ),
        );
      return row?.n ?? 0;
    },

    /** Forgets what can no longer be used: expired requests, codes and tokens, and grants dead for a day. */
    async prune(now: Date, refreshGraceSeconds = 0): Promise<void> {
      const dayAgo = new Date(now.getTime() - 86_400_000);
      // A rotated token's successor is kept sealed only for the grace window.
      await db
        .update(oauthTokens)
        .set({ successorSealed: null })
        .where(
          and(isNotNull(oauthTokens.successorSealed), lt(oauthTokens.rotatedAt, new Date(now.getTime() - refreshGraceSeconds * 1000))),
        );
      await db.delete(oauthPendingRequests).where(lt(oauthPendingRequests.expiresAt, now));
      await db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, dayAgo));
      await db.delete(oauthTokens).where(lt(oauthTokens.expiresAt, dayAgo));
      await db.delete(oauthGrants).where(or(lt(oauthGrants.expiresAt, dayAgo), lt(oauthGrants.revokedAt, dayAgo)));
    },
  };
}
