import type { UseQueryResult } from "@tanstack/react-query";
import { MessagesSquare, Settings2 } from "lucide-react";
import { CHAT_TEXT, type ChatProvider } from "@contract/chat";
import type { ApiError } from "@/api/client";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryError } from "@/components/ui/query-error";

interface ChatEmptyStateProps {
  providers: UseQueryResult<ChatProvider[] | null, ApiError>;
  /** The provider in use; null when there is none. */
  provider: ChatProvider | null;
  /** A provider and at least one data source are chosen. */
  ready: boolean;
  onSetUp: () => void;
  /** Sends a suggested question. */
  onAsk: (text: string) => void;
}

/** Questions to start from, each answered from one data source (the demo's model answers them too). */
export const SUGGESTED_QUESTIONS = [
  "Which Jira bugs are open?",
  "Find the Confluence pages about deployment",
  "List open pull requests",
] as const;

/**
 * Spec §2: "Ready to assist", and "Set up configuration" while no provider or no data source is
 * chosen; the provider list's failure with its Retry instead when it could not be loaded.
 */
export function ChatEmptyState({ providers, provider, ready, onSetUp, onAsk }: ChatEmptyStateProps) {
  const setUp =
    ready || providers.isLoading ? undefined : (
      <Button onClick={onSetUp}>
        <Settings2 aria-hidden="true" />
        {CHAT_TEXT.setUp}
      </Button>
    );
  return (
    <EmptyState
      bare
      className="h-full justify-center py-10"
      icon={MessagesSquare}
      title={CHAT_TEXT.emptyTitle}
      description={
        provider && ready
          ? `Ask about your enterprise data. ${provider.name} searches the chosen data sources and cites what it used.`
          : "Choose an AI provider and at least one data source to start."
      }
      action={
        providers.isError ? (
          <QueryError
            className="text-left"
            error={providers.error}
            title="The AI providers could not be loaded."
            onRetry={() => void providers.refetch()}
            retrying={providers.isFetching}
          />
        ) : ready ? (
          <ul aria-label="Suggested questions" className="flex flex-wrap justify-center gap-2">
            {SUGGESTED_QUESTIONS.map((question) => (
              <li key={question}>
                <Button variant="outline" size="sm" onClick={() => onAsk(question)}>
                  {question}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          setUp
        )
      }
    />
  );
}
