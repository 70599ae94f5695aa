import { and, eq, lt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sessions, users, type SessionRow, type UserRow } from "../../db/schema";
import { grantsOf, toGrants, type Grants } from "../users/user-roles.repo";

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;

/**
 * The session lookup as a prepared statement: built once, and on PostgreSQL parsed and planned once
 * per connection (about a quarter of its cost on PGlite, where only the building is saved).
 */
const prepareLookup = (db: Db) => {
  const grants = grantsOf(db, users.id);
  return db
    .select({ session: sessions, user: users, roleNames: grants.roleNames, permissionKeys: grants.permissionKeys })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoinLateral(grants, sql`true`)
    .where(eq(sessions.id, sql.placeholder("id")))
    .limit(1)
    .prepare("session_lookup");
};

export function createSessionsRepo(db: Db) {
  // Prepared on first use: repos are made for every transaction, and most never look a session up.
  let lookup: ReturnType<typeof prepareLookup> | undefined;
  return {
    async insert(row: Omit<SessionRow, "createdAt" | "lastSeenAt"> & { createdAt: Date }): Promise<void> {
      await db.insert(sessions).values({ ...row, lastSeenAt: row.createdAt });
    },

    /** The session with its user and the user's grants, in one round trip (every signed-in request reads it). */
    async findWithUser(id: string): Promise<{ session: SessionRow; user: UserRow; grants: Grants } | undefined> {
      lookup ??= prepareLookup(db);
      const [row] = await lookup.execute({ id });
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
      await db.delete(sessions).where(exceptId ? and(eq(sessions.userId, userId), ne(sessions.id, exceptId)) : eq(sessions.userId, userId));
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
