import { z } from "zod";
import { AI_PROVIDER_KINDS } from "./ai-providers";
import { multiline, line } from "./text";

/** Spec §2 AI Chat: the data sources, their labels and descriptions, in this order; all three by default (§9). */
export const DATA_SOURCES = [
  { key: "jira", label: "Jira Issues", description: "Tickets, bugs, project tasks" },
  { key: "confluence", label: "Confluence Pages", description: "Documentation and wiki" },
  { key: "bitbucket", label: "Bitbucket Repositories", description: "Code repositories and projects" },
] as const;
export const DATA_SOURCE_KEYS = ["jira", "confluence", "bitbucket"] as const;
export type DataSource = (typeof DATA_SOURCE_KEYS)[number];

/** Spec §2, §5 and §8 texts of the chat, word for word. */
export const CHAT_TEXT = {
  title: "AI Chat Assistant",
  subtitle: "Enterprise data-enabled conversations",
  configure: "Configure",
  emptyTitle: "Ready to assist",
  setUp: "Set up configuration",
  thinking: "Thinking...",
  placeholder: "Ask about your enterprise data...",
  dialogTitle: "Chat Configuration",
  askAi: "Ask AI",
  generating: "Generating...",
  apply: "Apply Configuration",
  sourcesWarning: "Select at least one data source to enable enterprise search",
  configRequiredTitle: "Configuration Required",
  configRequired: "Please select an AI provider and at least one data source first",
} as const;

/** Limits of one chat turn. A message beyond MAX_MESSAGE_CHARS is refused (400), not cut. */
export const CHAT_LIMITS = {
  maxMessageChars: 32_000,
  maxSystemMessageChars: 8_000,
  /** Model steps in one turn (each step may call tools); the loop stops there and answers. */
  maxSteps: 8,
  /** Earlier messages of the conversation sent to the model as context. */
  historyMessages: 40,
} as const;

export const CHAT_MESSAGES = {
  message: "Message is required",
  tooLong: `Message must be at most ${CHAT_LIMITS.maxMessageChars} characters`,
  providerId: "Please select an AI provider",
  mcpTools: "Select at least one data source",
} as const;

const providerId = z.uuid({ error: CHAT_MESSAGES.providerId });
const mcpTools = z
  .array(z.enum(DATA_SOURCE_KEYS, { error: "Unknown data source: use jira, confluence or bitbucket" }), { error: CHAT_MESSAGES.mcpTools })
  .min(1, CHAT_MESSAGES.mcpTools)
  .max(3)
  .transform((keys) => [...new Set(keys)]);
const systemMessage = multiline()
  .max(CHAT_LIMITS.maxSystemMessageChars, `System message must be at most ${CHAT_LIMITS.maxSystemMessageChars} characters`)
  .optional();

/**
 * POST /api/chat/send (spec §7). `sessionId` null starts a conversation; the reply carries the
 * new one, which later messages send back (docs/decisions.md#chat-conversations).
 */
export const ChatSendSchema = z.object({
  message: multiline({ error: CHAT_MESSAGES.message })
    .max(CHAT_LIMITS.maxMessageChars, CHAT_MESSAGES.tooLong)
    .refine((v) => v.trim() !== "", CHAT_MESSAGES.message),
  providerId,
  sessionId: z.uuid({ error: "sessionId must be a conversation id or null" }).nullable().optional(),
  mcpTools,
  systemMessage,
});
export type ChatSend = z.input<typeof ChatSendSchema>;

/**
 * GET /api/chat/providers: the active providers the chat may use (spec §2: "active providers only,
 * each showing name, provider, model"), for any signed-in user
 * (docs/decisions.md#roles-and-permissions: anyone may chat; the AI Providers screen's list needs
 * ai-providers.read).
 */
export const ChatProviderSchema = z.object({ id: z.string(), name: z.string(), provider: z.enum(AI_PROVIDER_KINDS), model: z.string() });
export type ChatProvider = z.infer<typeof ChatProviderSchema>;

/** POST /api/chat/generate-system-message (spec §7); the answer is `{ systemMessage }`. */
export const GenerateSystemMessageSchema = z.object({ providerId, mcpTools });
export type GenerateSystemMessage = z.input<typeof GenerateSystemMessageSchema>;

/** One tool call of a reply (spec §3: {tool, results count}); `error` when the tool failed. */
export const McpCallSchema = z.object({ tool: z.string(), results: z.number(), error: z.string().nullable().optional() });
export type McpCall = z.infer<typeof McpCallSchema>;

/** A Jira issue, Confluence page or Bitbucket pull request (or repository) a reply used. */
export const CitationSchema = z.object({ kind: z.enum(["jira", "confluence", "bitbucket"]), title: z.string(), url: z.string() });
export type Citation = z.infer<typeof CitationSchema>;

export const TokenUsageSchema = z.object({ inputTokens: z.number().nullable(), outputTokens: z.number().nullable() });
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** A chat message (spec §3), with what this product adds: citations, token usage, how it ended. */
export const ChatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  timestamp: z.string(),
  mcpCalls: z.array(McpCallSchema),
  citations: z.array(CitationSchema),
  usage: TokenUsageSchema.nullable(),
  /** "stopped" when the user pressed Stop; "error" when the provider failed mid-reply. */
  status: z.enum(["complete", "stopped", "error"]),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/**
 * The answer of POST /api/chat/send: the assistant message and its conversation
 * (docs/decisions.md#chat-conversations).
 */
export const ChatReplySchema = ChatMessageSchema.extend({ sessionId: z.string() });
export type ChatReply = z.infer<typeof ChatReplySchema>;

export const ConversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  providerId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationDetailSchema = ConversationSchema.extend({ messages: z.array(ChatMessageSchema) });
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>;

/** PATCH /api/chat/conversations/{id}. */
export const ConversationRenameSchema = z.object({
  title: line({ error: "Title is required" }).trim().min(1, "Title is required").max(200, "Must be at most 200 characters"),
});

/**
 * POST /api/chat/send with `Accept: text/event-stream` streams the reply as server-sent events,
 * one JSON object per `data:` line, each named by its `event:` (the `type` below):
 * - `start`: the conversation id and the user message as stored;
 * - `text`: a piece of the answer;
 * - `tool-start` / `tool-end`: a tool call as it begins and ends (results counted, error sentence);
 * - `done`: the assistant message as stored (the JSON answer's body);
 * - `error`: the reason the turn failed; the conversation keeps the user's message.
 * Closing the request (Stop) cancels the provider call and the running tools.
 */
export type ChatStreamEvent =
  | { type: "start"; sessionId: string; userMessage: ChatMessage }
  | { type: "text"; delta: string }
  | { type: "tool-start"; id: string; tool: string }
  | { type: "tool-end"; id: string; tool: string; results: number; error: string | null }
  | { type: "done"; message: ChatReply }
  | { type: "error"; message: string; code: string };
