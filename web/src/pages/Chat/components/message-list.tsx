import { memo, useLayoutEffect, useRef, type ReactNode } from "react";
import type { ChatMessage } from "@contract/chat";
import type { Draft } from "../use-chat-session";
import { DraftBubble, MessageBubble } from "./message-bubble";

/** The finished messages: skipped entirely while only the streaming reply changes. */
const FinishedMessages = memo(function FinishedMessages({ messages }: { messages: ChatMessage[] }) {
  return messages.map((m) => <MessageBubble key={m.id} message={m} />);
});

/** How close to the bottom (px) still counts as "following" the conversation. */
const FOLLOW_SLACK = 80;

/**
 * The conversation as a log (role="log", polite): screen readers hear new messages without losing
 * their place. It keeps to the bottom while the reader is there, and leaves them alone once they
 * scroll up to read.
 */
export function MessageList({ messages, draft, empty }: { messages: ChatMessage[]; draft: Draft | null; empty: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const seen = useRef(0);

  useLayoutEffect(() => {
    // A new question (or another conversation opened) always brings the reader down to it.
    if (messages.length !== seen.current && (messages.at(-1)?.role === "user" || messages.length < seen.current || seen.current === 0))
      following.current = true;
    seen.current = messages.length;
    const el = ref.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [messages, draft]);

  return (
    <div
      ref={ref}
      role="log"
      aria-live="polite"
      aria-label="Conversation"
      // While a reply streams the log is busy: screen readers read the answer once, when it is done.
      aria-busy={draft !== null}
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
      }}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-3 py-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring sm:px-5"
    >
      {messages.length === 0 && !draft ? (
        empty
      ) : (
        <div className="mx-auto flex max-w-4xl flex-col gap-5">
          <FinishedMessages messages={messages} />
          {draft && <DraftBubble draft={draft} />}
        </div>
      )}
    </div>
  );
}
