import { Send, Square } from "lucide-react";
import { useRef, useState, type KeyboardEvent } from "react";
import { CHAT_LIMITS, CHAT_TEXT } from "@contract/chat";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";

/** The message box's id (its label's target, and where focus goes back after the configuration). */
export const CHAT_INPUT_ID = "chat-input";

interface ChatComposerProps {
  /** No provider or no data source (spec §2): the input is disabled. */
  disabled: boolean;
  /** A reply is awaited: send is disabled and Stop takes its place. */
  awaiting: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** The message box: Enter sends, Shift+Enter is a new line (spec §2 and issue 13), Escape stops a reply. */
export function ChatComposer({ disabled, awaiting, onSend, onStop }: ChatComposerProps) {
  const [text, setText] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);
  const canSend = !disabled && !awaiting && text.trim() !== "";

  const submit = () => {
    if (!canSend) return;
    onSend(text);
    setText("");
    ref.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape" && awaiting) {
      event.preventDefault();
      onStop();
      return;
    }
    // An IME composing a character uses Enter to confirm it: not a send.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      className="flex items-end gap-2 border-t border-border bg-card p-3 sm:p-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={CHAT_INPUT_ID} className="sr-only">
        Message
      </label>
      <Textarea
        id={CHAT_INPUT_ID}
        ref={ref}
        rows={1}
        value={text}
        maxLength={CHAT_LIMITS.maxMessageChars}
        disabled={disabled}
        placeholder={CHAT_TEXT.placeholder}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        // Grows with its text up to 10rem, from one line.
        className="field-sizing-content max-h-40 min-h-9 flex-1 resize-none"
      />
      {awaiting && (
        <Button type="button" variant="outline" onClick={onStop} aria-label="Stop generating">
          <Square className="fill-current" aria-hidden="true" />
          <span className="hidden sm:inline">Stop</span>
        </Button>
      )}
      <Button type="submit" size="icon" disabled={!canSend} aria-label="Send message">
        <Send aria-hidden="true" />
      </Button>
    </form>
  );
}
