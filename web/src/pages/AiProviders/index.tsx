import { BrainCircuit, Plus } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import { AI_PROVIDER_DELETE_CONFIRM, type AiProvider } from "@contract/ai-providers";
import { useAiProviders, useDeleteAiProvider } from "@/api/ai-providers";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { NoPermission } from "@/components/ui/no-permission";
import { PageHeader } from "@/components/ui/page-header";
import { QueryError } from "@/components/ui/query-error";
import { useCan } from "@/hooks/use-permission";
import { useReturnFocus } from "@/hooks/use-return-focus";
import { useRevealed } from "@/hooks/use-revealed";
import { editButtonSelector, ProviderCard } from "./components/provider-card";
import { ProviderDialog } from "./components/provider-dialog";
import { ProvidersSkeleton } from "./components/providers-skeleton";

interface DialogState {
  provider: AiProvider | null;
  open: boolean;
}

/**
 * AI Providers (spec sections 2, 4, 5 and 8; docs/decisions.md#write-only-secrets, #model-lists):
 * the models the AI Chat answers with. Reading needs ai-providers.read; adding, editing, switching,
 * deleting and testing ai-providers.write (the server refuses them otherwise; the screen does not
 * offer them).
 */
export default function AiProvidersPage() {
  const canRead = useCan("ai-providers.read");
  const canWrite = useCan("ai-providers.write");
  const providers = useAiProviders(canRead);
  const remove = useDeleteAiProvider();

  const [dialog, setDialog] = useState<DialogState>({ provider: null, open: false });
  // Spec section 4: keys are masked by default and revealed per provider
  // (docs/decisions.md#write-only-secrets: the hint only).
  const { revealed, toggle: toggleReveal } = useRevealed();
  // Where focus lands when the control that opened the dialog is gone.
  const contentRef = useRef<HTMLDivElement>(null);
  // Focus goes back to the button that opened the dialog, else to the edited provider's edit
  // button, else (the empty state's button is gone) to the list.
  const returnFocus = useReturnFocus(
    () => (dialog.provider && document.querySelector<HTMLElement>(editButtonSelector(dialog.provider.id))) ?? contentRef.current,
  );

  const openDialog = (provider: AiProvider | null) => {
    returnFocus.remember();
    setDialog({ provider, open: true });
  };

  // Spec section 2: the browser's own confirmation, word for word.
  const onDelete = useCallback(
    (provider: AiProvider) => {
      if (!window.confirm(AI_PROVIDER_DELETE_CONFIRM)) return;
      remove.mutate({ id: provider.id }, { onSuccess: () => contentRef.current?.focus() });
    },
    [remove],
  );

  const addButton = (label: string) => (
    <Button onClick={() => openDialog(null)}>
      <Plus aria-hidden="true" />
      {label}
    </Button>
  );
  const list = providers.data ?? [];

  return (
    <div className="space-y-6">
      <PageHeader
        title="AI Providers"
        description="Connect the OpenAI, Anthropic, Google and OpenAI-compatible models that power the AI Chat"
        actions={canWrite && canRead ? addButton("Add Provider") : undefined}
      />

      <div ref={contentRef} tabIndex={-1} className="focus:outline-none">
        {!canRead ? (
          <NoPermission what="AI providers" />
        ) : providers.isPending ? (
          <ProvidersSkeleton />
        ) : providers.error ? (
          <QueryError
            title="The AI providers could not be loaded."
            error={providers.error}
            onRetry={() => void providers.refetch()}
            retrying={providers.isFetching}
          />
        ) : list.length === 0 ? (
          <EmptyState
            icon={BrainCircuit}
            title="No AI Providers"
            description="Add a provider so the AI Chat can answer with its models."
            action={canWrite ? addButton("Add Your First Provider") : undefined}
          />
        ) : (
          <section aria-label="AI providers" className="grid gap-4 lg:grid-cols-2 2xl:grid-cols-3">
            {list.map((provider) => (
              <ProviderCard
                key={provider.id}
                provider={provider}
                canWrite={canWrite}
                revealed={revealed.has(provider.id)}
                onToggleReveal={toggleReveal}
                onEdit={openDialog}
                onDelete={onDelete}
                deleting={remove.isPending && remove.variables.id === provider.id}
              />
            ))}
          </section>
        )}
      </div>

      {canWrite && (
        <ProviderDialog
          provider={dialog.provider}
          open={dialog.open}
          onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
          onCloseAutoFocus={returnFocus.onCloseAutoFocus}
        />
      )}
    </div>
  );
}
