import { AlertTriangle, Bot, CircleStop, ExternalLink, FileText, GitPullRequest, SquareCheckBig, User, Wrench } from "lucide-react";
import { memo, type ReactNode } from "react";
import { CHAT_TEXT, type ChatMessage, type Citation } from "@contract/chat";
import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/spinner";
import { Time } from "@/components/ui/time";
import { cn } from "@/lib/utils";
import { toolBadgeText, usageText } from "../lib/chat-format";
import { splitSettled } from "../lib/settled-markdown";
import type { Draft, ToolChip } from "../use-chat-session";
import { ChatMarkdown } from "./chat-markdown";

/** Only web links become citations (the server already keeps only those; this is the second guard). */
const WEB_LINK = /^https?:\/\//i;

const CITATION_ICON = { jira: SquareCheckBig, confluence: FileText, bitbucket: GitPullRequest } as const;
const CITATION_KIND = { jira: "Jira", confluence: "Confluence", bitbucket: "Bitbucket" } as const;

function BubbleTime({ iso }: { iso: string }) {
  return <Time iso={iso} as="time" className="text-xs tabular-nums text-muted-foreground" />;
}

function Avatar({ role }: { role: "user" | "assistant" }) {
  const Icon = role === "user" ? User : Bot;
  return (
    <span
      aria-hidden="true"
      className={cn(
        "mt-0.5 hidden size-7 shrink-0 items-center justify-center rounded-full sm:flex",
        role === "user" ? "bg-primary text-primary-foreground" : "bg-muted text-muted-foreground",
      )}
    >
      <Icon className="size-4" />
    </span>
  );
}

/** A tool call: running (spinner), finished with its results, or failed with its sentence. */
export function ToolBadge({
  tool,
  results,
  error,
  running = false,
}: {
  tool: string;
  results: number;
  error?: string | null;
  running?: boolean;
}) {
  if (running) {
    return (
      <Badge variant="outline" className="text-muted-foreground">
        <Spinner className="size-3" />
        <span className="font-mono">{tool}</span>
        <span className="sr-only">running</span>
      </Badge>
    );
  }
  return (
    <Badge variant={error ? "destructive" : "secondary"} className="max-w-full whitespace-normal break-words font-normal">
      {error ? <AlertTriangle aria-hidden="true" /> : <Wrench aria-hidden="true" />}
      <span className="font-mono">{toolBadgeText({ tool, results, error: error ?? null })}</span>
    </Badge>
  );
}

function Citations({ citations }: { citations: Citation[] }) {
  if (citations.length === 0) return null;
  return (
    <nav aria-label="Sources" className="mt-3 border-t border-border pt-2">
      <p className="mb-1 text-xs font-medium text-muted-foreground">Sources</p>
      <ul className="flex flex-col gap-1">
        {citations
          .filter((c) => WEB_LINK.test(c.url))
          .map((c) => {
            const Icon = CITATION_ICON[c.kind];
            return (
              <li key={c.url} className="min-w-0">
                <a
                  href={c.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex max-w-full items-center gap-1.5 rounded-sm text-xs text-primary underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <Icon className="size-3.5 shrink-0" aria-hidden="true" />
                  <span className="sr-only">{CITATION_KIND[c.kind]}:</span>
                  <span className="truncate">{c.title}</span>
                  <ExternalLink className="size-3 shrink-0 opacity-70" aria-hidden="true" />
                </a>
              </li>
            );
          })}
      </ul>
    </nav>
  );
}

function BubbleFrame({ role, children, footer }: { role: "user" | "assistant"; children: ReactNode; footer?: ReactNode }) {
  const mine = role === "user";
  return (
    <article aria-label={mine ? "You" : "Assistant"} className={cn("flex gap-2.5", mine ? "flex-row-reverse" : "flex-row")}>
      <Avatar role={role} />
      <div
        className={cn(
          "flex min-w-0 flex-col gap-1",
          mine ? "max-w-[85%] items-end sm:max-w-[min(44rem,85%)]" : "max-w-full items-start sm:max-w-[min(44rem,85%)]",
        )}
      >
        <div
          className={cn(
            "min-w-0 max-w-full rounded-lg px-3.5 py-2.5 text-sm",
            mine
              ? "whitespace-pre-wrap break-words bg-primary text-primary-foreground"
              : "border border-border bg-card text-card-foreground shadow-xs",
          )}
        >
          {children}
        </div>
        {footer}
      </div>
    </article>
  );
}

/** A finished message; memoized, so a streaming reply never re-renders the ones above it. */
export const MessageBubble = memo(function MessageBubble({ message }: { message: ChatMessage }) {
  if (message.role === "user") {
    return (
      <BubbleFrame role="user" footer={<BubbleTime iso={message.timestamp} />}>
        {message.content}
      </BubbleFrame>
    );
  }
  const usage = usageText(message.usage);
  return (
    <BubbleFrame
      role="assistant"
      footer={
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <BubbleTime iso={message.timestamp} />
          {message.status === "stopped" && (
            <span className="inline-flex items-center gap-1">
              <CircleStop className="size-3" aria-hidden="true" />
              Stopped
            </span>
          )}
          {message.status === "error" && (
            <span className="inline-flex items-center gap-1 text-destructive">
              <AlertTriangle className="size-3" aria-hidden="true" />
              Incomplete: the reply failed
            </span>
          )}
          {usage && <span className="tabular-nums">{usage}</span>}
        </div>
      }
    >
      {message.mcpCalls.length > 0 && (
        <div className="mb-2 flex flex-wrap gap-1.5">
          {message.mcpCalls.map((call, i) => (
            <ToolBadge key={i} tool={call.tool} results={call.results} error={call.error ?? null} />
          ))}
        </div>
      )}
      {message.content ? <ChatMarkdown text={message.content} /> : <p className="italic text-muted-foreground">No answer was written.</p>}
      <Citations citations={message.citations} />
    </BubbleFrame>
  );
});

function ThinkingLine() {
  return (
    <p className="inline-flex items-center gap-2 text-muted-foreground" role="status">
      <Spinner className="size-3.5" />
      {CHAT_TEXT.thinking}
    </p>
  );
}

/** The settled blocks are parsed once (memoized on their text); only the tail is parsed each frame. */
function StreamingText({ text }: { text: string }) {
  const { settled, tail } = splitSettled(text);
  return (
    <>
      {settled !== "" && <ChatMarkdown text={settled} />}
      <ChatMarkdown text={tail} />
    </>
  );
}

/** The reply being written: the tool chips as they run and finish, then the text as it streams. */
export function DraftBubble({ draft }: { draft: Draft }) {
  return (
    <BubbleFrame role="assistant">
      {draft.tools.length > 0 && (
        <div className="mb-2 flex flex-wrap gap-1.5">
          {draft.tools.map((t: ToolChip) => (
            <ToolBadge key={t.id} tool={t.tool} results={t.results} error={t.error} running={t.state === "running"} />
          ))}
        </div>
      )}
      {draft.text === "" ? <ThinkingLine /> : <StreamingText text={draft.text} />}
    </BubbleFrame>
  );
}
