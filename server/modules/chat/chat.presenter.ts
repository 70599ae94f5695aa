import { AI_PROVIDER_KINDS, type AiProviderKind } from "../../../contract/ai-providers";
import type { ChatMessage, ChatProvider, Conversation } from "../../../contract/chat";
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

export const toChatProvider = (row: { id: string; name: string; provider: string; model: string }): ChatProvider => ({
  id: row.id,
  name: row.name,
  provider: (AI_PROVIDER_KINDS as readonly string[]).includes(row.provider) ? (row.provider as AiProviderKind) : "openai-compatible",
  model: row.model,
});
