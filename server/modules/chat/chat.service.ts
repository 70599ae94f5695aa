import { generateText, type ModelMessage } from "ai";
import { OPEN_POLICY } from "../../../contract/policy";
import { AI_PROVIDER_LABELS, type AiProviderKind } from "../../../contract/ai-providers";
import { CHAT_LIMITS, DATA_SOURCES, type ChatReply, type ChatStreamEvent, type DataSource } from "../../../contract/chat";
import { randomUUID } from "node:crypto";
import type { ChatConversationRow, ChatMessageRow } from "../../db/schema";
import { runChatTurn, type TurnOutcome } from "../../ai/chat-turn";
import { describeProviderFailure } from "../../ai/provider-errors";
import type { ProviderFetch } from "../../ai/provider-fetch";
import { languageModelFor, type HostedBaseUrls, type ProviderTarget } from "../../ai/provider-model";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { Caller, McpCore } from "../../mcp/mcp-server";
import type { ChatRepo } from "./chat.repo";
import { toChatMessage } from "./chat.presenter";

/** A provider as a call needs it: its key opened from the secret box (only here and in the Test action). */
export interface ResolvedProvider extends ProviderTarget {
  id: string;
  name: string;
}

/** What the chat needs from the AI providers module. */
export interface ChatProviders {
  /** The provider, active, with its key; AppError not_found / conflict (inactive) otherwise. */
  resolveForCall(id: string): Promise<ResolvedProvider>;
  /** The active providers (rows; presented by chat.presenter's toChatProvider). */
  listActive(): Promise<{ id: string; name: string; provider: string; model: string }[]>;
}

/** The signed-in user a turn runs for: the tool layer sees them as the caller (policy, scopes, audit). */
export interface ChatUser {
  id: string;
  permissions: ReadonlySet<string>;
}

/** The audit's client id of tool calls the console's chat makes (an MCP client's is its OAuth client id). */
export const CHAT_CLIENT_ID = "bridgekeeper-chat";

export interface ChatServiceDeps {
  repo: ChatRepo;
  clock: Clock;
  log: Logger;
  providers: ChatProviders;
  tools: Pick<McpCore, "offer" | "callTool">;
  /** The provider fetch (server/ai/provider-fetch.ts): the host rules, and a word when a request is sent. */
  fetch: ProviderFetch;
  baseUrls?: HostedBaseUrls;
  /** The most one turn may take, provider and tools together. */
  timeoutMs: number;
}

/**
 * docs/decisions.md#roles-and-permissions and issue 13: the chat reads with the signed-in user's MCP permission (mcp.read: the read
 * scope). It does not write to Jira, Confluence or Bitbucket, even for users holding mcp.write:
 * a chat answer that changes an issue needs a confirmation step in the conversation, which the
 * console does not have yet; an MCP client with the write scope asks its user itself.
 */
export function chatCaller(user: ChatUser, requestId: string | null): Caller {
  return {
    scopes: user.permissions.has("mcp.read") ? ["read"] : [],
    policy: OPEN_POLICY,
    clientId: CHAT_CLIENT_ID,
    userId: user.id,
    requestId,
  };
}

const SOURCE_LINES = new Map(DATA_SOURCES.map((s) => [s.key, `${s.label} (${s.description.toLowerCase()})`]));

export function systemPrompt(options: {
  sources: readonly DataSource[];
  toolCount: number;
  today: Date;
  userSystemMessage?: string | undefined;
  canRead: boolean;
}): string {
  const sources = options.sources.map((s) => SOURCE_LINES.get(s)).join("; ");
  const lines = [
    "You are Bridgekeeper's assistant. You answer questions about the company's work in Jira, Confluence and Bitbucket.",
    `Today is ${options.today.toISOString().slice(0, 10)}. The user chose these data sources: ${sources}.`,
    options.toolCount > 0
      ? "Use the tools to find facts before answering; never invent issue keys, page titles, pull requests or links. Page through results only when the question needs it."
      : options.canRead
        ? "No tools for these data sources are available right now (their integration is not configured or switched off): say so when a question needs them."
        : "You have no access to the data sources (the user's role does not allow reading them): say so when a question needs them.",
    "When you mention a Jira issue, Confluence page or Bitbucket pull request, name it by its key, title or number and link it.",
    "Answer in Markdown, briefly. If a tool reports an error, tell the user what failed and what they can do.",
  ];
  if (options.userSystemMessage?.trim())
    lines.push("", "Instructions from the user's chat configuration:", options.userSystemMessage.trim());
  return lines.join("\n");
}

/** A conversation's title: its first question, on one line, cut at 80 characters. */
const titleOf = (message: string): string => {
  const flat = message.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
};

const providerName = (p: { name: string; provider: AiProviderKind }) => `${p.name} (${AI_PROVIDER_LABELS[p.provider]})`;

export interface TurnRequest {
  message: string;
  providerId: string;
  sessionId?: string | null | undefined;
  mcpTools: DataSource[];
  systemMessage?: string | undefined;
}

export function createChatService(deps: ChatServiceDeps) {
  const { repo, clock } = deps;

  async function ownConversation(id: string, userId: string): Promise<ChatConversationRow> {
    const found = await repo.findConversation(id, userId);
    // Another user's conversation is as absent as one that never existed.
    if (!found) throw new AppError("not_found", "Conversation not found");
    return found;
  }

  const history = (rows: Awaited<ReturnType<ChatRepo["recentMessages"]>>): ModelMessage[] =>
    rows
      .filter((r) => r.content.trim() !== "")
      .map((r) => (r.role === "user" ? { role: "user", content: r.content } : { role: "assistant", content: r.content }));

  const service = {
    listProviders: () => deps.providers.listActive(),

    listConversations: (userId: string) => repo.listConversations(userId, 200),

    async conversation(id: string, userId: string) {
      const conversation = await ownConversation(id, userId);
      return { conversation, messages: await repo.messages(id) };
    },

    async rename(id: string, userId: string, title: string) {
      const row = await repo.renameConversation(id, userId, title, clock.now());
      if (!row) throw new AppError("not_found", "Conversation not found");
      return row;
    },

    async remove(id: string, userId: string): Promise<void> {
      if (!(await repo.deleteConversation(id, userId))) throw new AppError("not_found", "Conversation not found");
    },

    /**
     * One turn (POST /api/chat/send): the user's message is stored first, so a failure keeps it
     * (spec §4); the answer is stored as it ended (complete, stopped, or cut by an error). Throws
     * AppError only before anything is stored (unknown or inactive provider, someone else's
     * conversation); after that, a provider failure is the result's `failure`.
     */
    async send(
      request: TurnRequest,
      user: ChatUser,
      options: { requestId: string | null; signal: AbortSignal; onEvent: (event: ChatStreamEvent) => void },
    ): Promise<{ sessionId: string; reply: ChatReply | null; outcome: TurnOutcome }> {
      const [provider, existing] = await Promise.all([
        deps.providers.resolveForCall(request.providerId),
        request.sessionId ? ownConversation(request.sessionId, user.id) : null,
      ]);
      const earlier = existing ? await repo.recentMessages(existing.id, CHAT_LIMITS.historyMessages) : [];
      const startedAt = clock.now();
      const conversationId = existing?.id ?? randomUUID();
      const userRow: ChatMessageRow = {
        id: randomUUID(),
        conversationId,
        role: "user",
        content: request.message,
        mcpCalls: [],
        citations: [],
        usage: null,
        status: "complete",
        createdAt: startedAt,
      };
      // The question is written while the provider thinks: once the provider has the request (the
      // embedded database runs on this thread, and written first it held the request back), at the
      // latest when the turn ends. It is in the database before the answer is.
      let questionStored: Promise<unknown> | null = null;
      const storeQuestion = () => {
        if (!questionStored) {
          // Either way the conversation is now the user's most recent one, held with this provider.
          questionStored = existing
            ? repo.appendMessage(userRow, { providerId: provider.id, at: startedAt })
            : repo.startConversation(
                { id: conversationId, userId: user.id, title: titleOf(request.message), providerId: provider.id, at: startedAt },
                userRow,
              );
          // Awaited when the turn ends; until then a failure must not go unhandled.
          questionStored.catch(() => {});
        }
        return questionStored;
      };
      options.onEvent({ type: "start", sessionId: conversationId, userMessage: toChatMessage(userRow) });

      let outcome: TurnOutcome;
      try {
        const caller = chatCaller(user, options.requestId);
        const offer = await deps.tools.offer(caller, request.mcpTools);
        outcome = await runChatTurn({
          model: languageModelFor(provider, {
            fetch: deps.fetch.notifying(storeQuestion),
            ...(deps.baseUrls ? { baseUrls: deps.baseUrls } : {}),
          }),
          providerName: providerName(provider),
          secrets: [provider.apiKey],
          system: systemPrompt({
            sources: request.mcpTools,
            toolCount: offer.tools.length,
            today: startedAt,
            userSystemMessage: request.systemMessage,
            canRead: caller.scopes.length > 0,
          }),
          messages: [...history(earlier), { role: "user", content: request.message }],
          tools: { specs: offer.tools, run: (spec, args, signal) => deps.tools.callTool(spec, args, offer.context(signal), caller) },
          signal: options.signal,
          timeoutMs: deps.timeoutMs,
          maxSteps: CHAT_LIMITS.maxSteps,
          onEvent: options.onEvent,
        });
      } finally {
        // Whatever happened, the question is kept (spec §4).
        await storeQuestion();
      }
      if (outcome.failure)
        deps.log.warn({ provider: provider.id, kind: provider.provider, status: outcome.failure.status }, "an AI provider call failed");
      const conversation = { id: conversationId };

      // Nothing written and nothing called: there is no answer to keep, only the user's message.
      if (outcome.status !== "complete" && outcome.text === "" && outcome.mcpCalls.length === 0)
        return { sessionId: conversation.id, reply: null, outcome };
      // Stored after the question even on a clock that did not move (a fake one in tests).
      const answeredAt = new Date(Math.max(clock.now().getTime(), startedAt.getTime() + 1));
      const row = await repo.appendMessage(
        {
          conversationId: conversation.id,
          role: "assistant",
          content: outcome.text,
          mcpCalls: outcome.mcpCalls,
          citations: outcome.citations,
          usage: outcome.usage,
          status: outcome.status,
          createdAt: answeredAt,
        },
        { providerId: provider.id, at: answeredAt },
      );
      return { sessionId: conversation.id, reply: { ...toChatMessage(row), sessionId: conversation.id }, outcome };
    },

    /** POST /api/chat/generate-system-message: the provider writes a system message for the chosen sources. */
    /**
     * One turn answered whole (POST /api/chat/send without an event stream, spec §7): the reply,
     * or an AppError for a provider failure, or for a turn stopped before it answered anything.
     */
    async reply(request: TurnRequest, user: ChatUser, options: { requestId: string | null; signal: AbortSignal }): Promise<ChatReply> {
      const { reply, outcome } = await service.send(request, user, { ...options, onEvent: () => {} });
      if (outcome.failure) throw new AppError(outcome.failure.code, outcome.failure.message);
      if (!reply) throw new AppError("upstream_failed", "The reply was stopped before it began.");
      return reply;
    },

    async generateSystemMessage(request: { providerId: string; mcpTools: DataSource[] }, signal: AbortSignal): Promise<string> {
      const provider = await deps.providers.resolveForCall(request.providerId);
      const sources = request.mcpTools.map((s) => SOURCE_LINES.get(s)).join("; ");
      const timeout = AbortSignal.timeout(deps.timeoutMs);
      try {
        const { text } = await generateText({
          model: languageModelFor(provider, { fetch: deps.fetch, ...(deps.baseUrls ? { baseUrls: deps.baseUrls } : {}) }),
          system:
            "You write system messages for an enterprise assistant that answers questions with tools over a company's Jira, Confluence and Bitbucket. Answer with the system message only: no preamble, no quotes, at most 150 words.",
          prompt: `Write a system message for an assistant that searches these data sources: ${sources}. It should say how to search them, to cite issue keys, page titles and pull requests with links, and to answer briefly.`,
          maxOutputTokens: 400,
          maxRetries: 1,
          abortSignal: AbortSignal.any([signal, timeout]),
        });
        const message = text.trim().slice(0, CHAT_LIMITS.maxSystemMessageChars);
        if (!message) throw new AppError("upstream_failed", `${providerName(provider)} answered with an empty message. Try again.`);
        return message;
      } catch (err) {
        if (err instanceof AppError) throw err;
        const failure = describeProviderFailure(err, providerName(provider), { timedOut: timeout.aborted, secrets: [provider.apiKey] });
        throw new AppError(failure.code, failure.message);
      }
    },
  };
  return service;
}

export type ChatService = ReturnType<typeof createChatService>;
