import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users, type NewUserRow, type UserRow } from "../../db/schema";

export type UsersRepo = ReturnType<typeof createUsersRepo>;

export function createUsersRepo(db: Db) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async findByUsername(username: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .limit(1);
      return row;
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .limit(1);
      return row;
    },

    async list(): Promise<UserRow[]> {
      return db.select().from(users).orderBy(asc(sql`lower(${users.username})`));
    },

    async update(id: string, values: Partial<NewUserRow>): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    async delete(id: string): Promise<boolean> {
      const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
      return rows.length > 0;
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      return row?.n ?? 0;
    },

    /** Inserts unless the username is taken; returns the row, or undefined when it was taken. */
    async insertIfUsernameFree(values: NewUserRow): Promise<UserRow | undefined> {
      const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
      return row;
    },

    async setActive(id: string, isActive: boolean): Promise<void> {
      await db.update(users).set({ isActive, updatedAt: new Date() }).where(eq(users.id, id));
    },

    async setLastLogin(id: string, at: Date): Promise<void> {
      await db.update(users).set({ lastLoginAt: at }).where(eq(users.id, id));
    },
  };
}
