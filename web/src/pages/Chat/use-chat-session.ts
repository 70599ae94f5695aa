import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { ChatMessage, ChatStreamEvent, ConversationDetail, DataSource, McpCall } from "@contract/chat";
import { TOASTS } from "@contract/messages";
import { fetchConversation, refetchConversations, streamChat } from "@/api/chat";
import { ApiError } from "@/api/client";
import { toastFailure } from "@/api/mutation";
import { SESSION_QUERY_KEY } from "@/api/session";
import { toast } from "@/hooks/use-toast";
import { toastSendFailed } from "./components/send-failed-toast";

export interface ChatConfig {
  providerId: string | null;
  sources: DataSource[];
  systemMessage: string;
}

/** A tool call of the reply being written: running until its `tool-end` arrives. */
export interface ToolChip {
  id: string;
  tool: string;
  state: "running" | "done";
  results: number;
  error: string | null;
}

/** The reply being written: its text so far and its tool calls. */
export interface Draft {
  text: string;
  tools: ToolChip[];
}

/**
 * Performance marks a benchmark reads (bench/chat-paint.bench.mjs): the first text of a reply as
 * parsed from the stream, and the first frame painted after it was rendered.
 */
export const FIRST_TOKEN_RECEIVED = "chat:first-token-received";
export const FIRST_TOKEN_PAINTED = "chat:first-token-painted";

const CONNECTION_LOST = "The connection closed before the reply was complete.";

/**
 * The chat's requests run outside TanStack Query (a stream, an imperative read), so the client's
 * 401 rule (api/query-client.ts) does not see them: an ended session is checked here the same way.
 */
function signedOutIf(client: QueryClient, error: ApiError) {
  if (error.status === 401) void client.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

const finishedCalls = (tools: ToolChip[]): McpCall[] =>
  tools.filter((t) => t.state === "done").map((t) => ({ tool: t.tool, results: t.results, error: t.error }));

/**
 * One conversation on screen (spec §4 "Chat session", docs/decisions.md#chat-conversations): each
 * send appends the user message, shows the thinking state, streams the reply and appends it. Text
 * deltas are gathered and painted once per animation frame (the first at once), so a long answer
 * re-renders only its own bubble, about 60 times a second at most. Stop aborts the request; the
 * partial answer stays, marked stopped. A failure keeps the user's message and shows the §8 toast
 * with the server's reason.
 */
export function useChatSession() {
  const client = useQueryClient();
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [opening, setOpening] = useState(false);

  const abortRef = useRef<AbortController | null>(null);
  const textRef = useRef("");
  const toolsRef = useRef<ToolChip[]>([]);
  const frameRef = useRef<number | null>(null);
  const sessionRef = useRef<string | null>(null);
  const paintMarkRef = useRef(false);
  // Bumped whenever the screen switches conversation: a late answer for the old one is dropped.
  const generationRef = useRef(0);

  const cancelFrame = () => {
    if (frameRef.current !== null) cancelAnimationFrame(frameRef.current);
    frameRef.current = null;
  };
  const flushText = useCallback(() => {
    frameRef.current = null;
    const text = textRef.current;
    setDraft((d) => (d ? { ...d, text } : d));
  }, []);

  // The first commit after the first text arrived shows it (in the draft, or in the finished reply
  // when the whole answer came in one read): mark the paint that follows. A frame callback runs
  // before the paint; a task queued from it runs after.
  useLayoutEffect(() => {
    if (!paintMarkRef.current) return;
    paintMarkRef.current = false;
    requestAnimationFrame(() => setTimeout(() => performance.mark(FIRST_TOKEN_PAINTED), 0));
  });

  useEffect(
    () => () => {
      abortRef.current?.abort();
      cancelFrame();
    },
    [],
  );

  const send = useCallback(
    async (text: string, config: ChatConfig): Promise<void> => {
      if (abortRef.current || !config.providerId || config.sources.length === 0 || text.trim() === "") return;
      const generation = generationRef.current;
      const controller = new AbortController();
      abortRef.current = controller;
      const local: ChatMessage = {
        id: `local-${Date.now()}`,
        role: "user",
        content: text,
        timestamp: new Date().toISOString(),
        mcpCalls: [],
        citations: [],
        usage: null,
        status: "complete",
      };
      setMessages((m) => [...m, local]);
      textRef.current = "";
      toolsRef.current = [];
      setDraft({ text: "", tools: [] });

      let finished = false;
      let failure: string | null = null;
      let stopped = false;
      const current = () => generation === generationRef.current;
      const onEvent = (event: ChatStreamEvent) => {
        if (!current()) return;
        switch (event.type) {
          case "start":
            if (sessionRef.current !== event.sessionId) {
              sessionRef.current = event.sessionId;
              setSessionId(event.sessionId);
              void refetchConversations(client);
            }
            setMessages((m) => m.map((x) => (x.id === local.id ? event.userMessage : x)));
            break;
          case "text": {
            const first = textRef.current === "";
            textRef.current += event.delta;
            if (first) {
              performance.mark(FIRST_TOKEN_RECEIVED);
              paintMarkRef.current = true;
              flushText();
            } else if (frameRef.current === null) frameRef.current = requestAnimationFrame(flushText);
            break;
          }
          case "tool-start":
            toolsRef.current = [...toolsRef.current, { id: event.id, tool: event.tool, state: "running", results: 0, error: null }];
            setDraft((d) => (d ? { ...d, tools: toolsRef.current } : d));
            break;
          case "tool-end":
            toolsRef.current = toolsRef.current.some((t) => t.id === event.id)
              ? toolsRef.current.map((t) => (t.id === event.id ? { ...t, state: "done", results: event.results, error: event.error } : t))
              : [...toolsRef.current, { id: event.id, tool: event.tool, state: "done", results: event.results, error: event.error }];
            setDraft((d) => (d ? { ...d, tools: toolsRef.current } : d));
            break;
          case "done": {
            finished = true;
            cancelFrame();
            const { sessionId: _session, ...message } = event.message;
            setMessages((m) => [...m, message]);
            setDraft(null);
            break;
          }
          case "error":
            failure = event.message;
            break;
        }
      };

      try {
        await streamChat(
          {
            message: text,
            providerId: config.providerId,
            sessionId: sessionRef.current,
            mcpTools: config.sources,
            ...(config.systemMessage.trim() ? { systemMessage: config.systemMessage } : {}),
          },
          onEvent,
          controller.signal,
        );
        if (!finished && failure === null) failure = CONNECTION_LOST;
      } catch (error) {
        if (isAbort(error)) stopped = true;
        else if (error instanceof ApiError) {
          failure = error.serverMessage ?? error.message;
          signedOutIf(client, error);
        } else failure = error instanceof Error ? error.message : CONNECTION_LOST;
      } finally {
        if (abortRef.current === controller) abortRef.current = null;
        cancelFrame();
        if (current()) {
          // Whatever was written before Stop (or a failure) stays on screen, marked as such.
          if (!finished && (textRef.current !== "" || toolsRef.current.length > 0 || stopped)) {
            const partial: ChatMessage = {
              id: `local-reply-${Date.now()}`,
              role: "assistant",
              content: textRef.current,
              timestamp: new Date().toISOString(),
              mcpCalls: finishedCalls(toolsRef.current),
              citations: [],
              usage: null,
              status: stopped ? "stopped" : "error",
            };
            setMessages((m) => [...m, partial]);
          }
          setDraft(null);
        }
        if (failure !== null && !stopped) toastSendFailed(failure);
        void refetchConversations(client);
      }
    },
    [flushText, client],
  );

  const stop = useCallback(() => abortRef.current?.abort(), []);

  const reset = useCallback(() => {
    generationRef.current++;
    abortRef.current?.abort();
    abortRef.current = null;
    cancelFrame();
    sessionRef.current = null;
    setSessionId(null);
    setMessages([]);
    setDraft(null);
    setOpening(false);
  }, []);

  /**
   * Opens a stored conversation; later sends continue it (docs/decisions.md#chat-conversations).
   * Resolves to it, or null when it could not be read.
   */
  const open = useCallback(
    async (id: string): Promise<ConversationDetail | null> => {
      reset();
      const generation = generationRef.current;
      sessionRef.current = id;
      setSessionId(id);
      setOpening(true);
      try {
        const detail = await fetchConversation(id);
        if (generation !== generationRef.current) return null;
        setMessages(detail.messages);
        return detail;
      } catch (error) {
        if (generation === generationRef.current) {
          if (error instanceof ApiError) {
            toastFailure(error);
            signedOutIf(client, error);
          } else toast({ variant: "destructive", title: TOASTS.errorTitle, description: CONNECTION_LOST });
          sessionRef.current = null;
          setSessionId(null);
        }
        return null;
      } finally {
        if (generation === generationRef.current) setOpening(false);
      }
    },
    [reset, client],
  );

  return { sessionId, messages, draft, awaiting: draft !== null, opening, send, stop, newChat: reset, open };
}
