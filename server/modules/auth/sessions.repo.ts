import { and, eq, lt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sessions, users, type SessionRow, type UserRow } from "../../db/schema";
import { grantsOf, toGrants, type Grants } from "../users/user-roles.repo";

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;

export function createSessionsRepo(db: Db) {
  return {
    async insert(row: Omit<SessionRow, "createdAt" | "lastSeenAt"> & { createdAt: Date }): Promise<void> {
      await db.insert(sessions).values({ ...row, lastSeenAt: row.createdAt });
    },

    /** The session with its user and the user's grants, in one round trip (every signed-in request reads it). */
    async findWithUser(id: string): Promise<{ session: SessionRow; user: UserRow; grants: Grants } | undefined> {
      const grants = grantsOf(db, users.id);
      const [row] = await db
        .select({ session: sessions, user: users, roleNames: grants.roleNames, permissionKeys: grants.permissionKeys })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .leftJoinLateral(grants, sql`true`)
        .where(eq(sessions.id, id))
        .limit(1);
      return row && { session: row.session, user: row.user, grants: toGrants(row) };
    },

    async touch(id: string, at: Date): Promise<void> {
      await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
    },

    async delete(id: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.id, id));
    },

    /** Ends every session of the user, or every one but `exceptId` (the caller's own). */
    async deleteForUser(userId: string, exceptId?: string): Promise<void> {
      await db
        .delete(sessions)
        .where(exceptId ? and(eq(sessions.userId, userId), ne(sessions.id, exceptId)) : eq(sessions.userId, userId));
    },

    /** Sessions past their absolute expiry or idle longer than `idleMs`. */
    async deleteStale(now: Date, idleMs: number): Promise<number> {
      const rows = await db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - idleMs))))
        .returning({ id: sessions.id });
      return rows.length;
    },
  };
}
