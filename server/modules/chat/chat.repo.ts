import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { chatConversations, chatMessages, type ChatConversationRow, type ChatMessageRow } from "../../db/schema";

export type ChatRepo = ReturnType<typeof createChatRepo>;
export type NewChatMessageRow = typeof chatMessages.$inferInsert;

/** Conversations and their messages (the only code touching chat_*). Every read is scoped to its owner. */
export function createChatRepo(db: Db) {
  const owned = (id: string, userId: string) => and(eq(chatConversations.id, id), eq(chatConversations.userId, userId));
  return {
    /** A new conversation with its first message, in one statement. */
    async startConversation(
      row: { id: string; userId: string; title: string; providerId: string; at: Date },
      first: NewChatMessageRow,
    ): Promise<void> {
      const conversation = db
        .$with("conversation")
        .as(
          db
            .insert(chatConversations)
            .values({ id: row.id, userId: row.userId, title: row.title, providerId: row.providerId, createdAt: row.at, updatedAt: row.at })
            .returning({ id: chatConversations.id }),
        );
      await db
        .with(conversation)
        .insert(chatMessages)
        .values({ ...first, conversationId: row.id });
    },

    findConversation: async (id: string, userId: string): Promise<ChatConversationRow | undefined> =>
      (await db.select().from(chatConversations).where(owned(id, userId)).limit(1))[0],

    /** The user's conversations, most recently used first. */
    listConversations: (userId: string, limit: number): Promise<ChatConversationRow[]> =>
      db
        .select()
        .from(chatConversations)
        .where(eq(chatConversations.userId, userId))
        .orderBy(desc(chatConversations.updatedAt), desc(chatConversations.id))
        .limit(limit),

    async renameConversation(id: string, userId: string, title: string, at: Date): Promise<ChatConversationRow | undefined> {
      const [row] = await db.update(chatConversations).set({ title, updatedAt: at }).where(owned(id, userId)).returning();
      return row;
    },

    /** Deletes the conversation and (by cascade) its messages; false when the user has no such conversation. */
    async deleteConversation(id: string, userId: string): Promise<boolean> {
      const rows = await db.delete(chatConversations).where(owned(id, userId)).returning({ id: chatConversations.id });
      return rows.length > 0;
    },

    /** A message added to a conversation, which becomes its most recent one (and takes `providerId`): one statement. */
    async appendMessage(row: NewChatMessageRow, touch: { providerId: string; at: Date }): Promise<ChatMessageRow> {
      const touched = db
        .$with("touched")
        .as(
          db
            .update(chatConversations)
            .set({ updatedAt: touch.at, providerId: touch.providerId })
            .where(eq(chatConversations.id, row.conversationId))
            .returning({ id: chatConversations.id }),
        );
      const [created] = await db.with(touched).insert(chatMessages).values(row).returning();
      return created!;
    },

    /** The conversation's messages in order. */
    messages: (conversationId: string): Promise<ChatMessageRow[]> =>
      db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.conversationId, conversationId))
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id)),

    /** The last `limit` messages in order: the context a new turn sends to the model. */
    async recentMessages(conversationId: string, limit: number): Promise<ChatMessageRow[]> {
      const rows = await db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.conversationId, conversationId))
        .orderBy(desc(chatMessages.createdAt), desc(sql`${chatMessages.id}`))
        .limit(limit);
      return rows.reverse();
    },
  };
}
