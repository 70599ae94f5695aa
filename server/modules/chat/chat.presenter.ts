import type { ChatMessage, Conversation } from "../../../contract/chat";
import type { ChatConversationRow, ChatMessageRow } from "../../db/schema";

const STATUSES = new Set(["complete", "stopped", "error"]);

export const toChatMessage = (row: ChatMessageRow): ChatMessage => ({
  id: row.id,
  role: row.role === "assistant" ? "assistant" : "user",
  content: row.content,
  timestamp: row.createdAt.toISOString(),
  mcpCalls: row.mcpCalls.map((c) => ({ tool: c.tool, results: c.results, error: c.error ?? null })),
  citations: row.citations,
  usage: row.usage ?? null,
  status: STATUSES.has(row.status) ? (row.status as ChatMessage["status"]) : "complete",
});

export const toConversation = (row: ChatConversationRow): Conversation => ({
  id: row.id,
  title: row.title,
  providerId: row.providerId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
