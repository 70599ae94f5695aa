/**
 * The AI chat (spec §2, §7; docs/decisions.md#chat-conversations): the active providers, the
 * signed-in user's conversations, the system-message generator, and the send, streamed as
 * server-sent events over a fetch POST (contract/chat.ts ChatStreamEvent; EventSource cannot POST).
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { ChatProvider, ChatSend, ChatStreamEvent, Conversation, ConversationDetail, GenerateSystemMessage } from "@contract/chat";
import { TOASTS } from "@contract/messages";
import { readSse } from "@/lib/sse";
import { apiFetch, apiRequest, type ApiError } from "./client";
import { useApiMutation } from "./mutation";

export const CHAT_PROVIDERS_QUERY_KEY = ["/api/chat/providers"] as const;
export const CONVERSATIONS_QUERY_KEY = ["/api/chat/conversations"] as const;
const conversationUrl = (id: string) => `/api/chat/conversations/${encodeURIComponent(id)}`;

export function useChatProviders() {
  return useQuery<ChatProvider[] | null, ApiError>({ queryKey: CHAT_PROVIDERS_QUERY_KEY, staleTime: 0 });
}

export function useConversations() {
  return useQuery<Conversation[] | null, ApiError>({ queryKey: CONVERSATIONS_QUERY_KEY });
}

/** One conversation with its messages; always asked again (another tab may have added to it). */
export const fetchConversation = (id: string): Promise<ConversationDetail> => apiRequest<ConversationDetail>("GET", conversationUrl(id));

export const refetchConversations = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY, exact: true });

export const useRenameConversation = () =>
  useApiMutation<Conversation, { id: string; title: string }>({
    request: ({ id, title }) => apiRequest<Conversation>("PATCH", conversationUrl(id), { title }),
    success: () => TOASTS.chat.renamed,
    refresh: refetchConversations,
  });

export const useDeleteConversation = () =>
  useApiMutation<void, { id: string }>({
    request: ({ id }) => apiRequest<void>("DELETE", conversationUrl(id)),
    success: () => TOASTS.chat.deleted,
    refresh: refetchConversations,
  });

/** Ask AI (spec §2): the answer's `systemMessage`; §8's own failure toast. */
export const useGenerateSystemMessage = () =>
  useApiMutation<{ systemMessage: string }, GenerateSystemMessage>({
    request: (body) => apiRequest<{ systemMessage: string }>("POST", "/api/chat/generate-system-message", body),
    success: () => ({ title: TOASTS.chat.generatedTitle, description: TOASTS.chat.generated }),
    failure: () => ({ title: TOASTS.chat.generationFailedTitle, description: TOASTS.chat.generationFailed }),
  });

/**
 * POST /api/chat/send with `Accept: text/event-stream`: calls `onEvent` for each event as it
 * arrives. Throws `ApiError` when the server refuses before the stream opens (400, 404, 401), and
 * an AbortError when `signal` fires (Stop): closing the request cancels the provider call and the
 * tools on the server. The CSRF check reads Origin / Sec-Fetch-Site, which fetch sets itself.
 */
export async function streamChat(body: ChatSend, onEvent: (event: ChatStreamEvent) => void, signal: AbortSignal): Promise<void> {
  const response = await apiFetch("/api/chat/send", {
    method: "POST",
    headers: { Accept: "text/event-stream", "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.body) throw new Error("The server sent no reply.");
  await readSse(response.body, (message) => {
    let event: ChatStreamEvent;
    try {
      event = JSON.parse(message.data) as ChatStreamEvent;
    } catch {
      return; // not ours: a proxy's keep-alive or garbage; the end of the stream decides
    }
    if (typeof event === "object" && event !== null && typeof event.type === "string") onEvent(event);
  });
}
