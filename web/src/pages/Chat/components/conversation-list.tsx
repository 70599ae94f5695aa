import { MessageSquare, Pencil, Plus, Trash2 } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import type { Conversation } from "@contract/chat";
import { useConversations, useDeleteConversation } from "@/api/chat";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DropdownMenuItem, RowActionsMenu } from "@/components/ui/dropdown-menu";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { LoadingState } from "@/components/ui/spinner";
import { Time } from "@/components/ui/time";
import { cn } from "@/lib/utils";

interface ConversationListProps {
  activeId: string | null;
  onOpen: (id: string) => void;
  onNew: () => void;
  /** The open conversation was deleted. */
  onDeleted: (id: string) => void;
  className?: string;
}

/**
 * The signed-in user's conversations (docs/decisions.md#chat-conversations), newest first: new
 * chat, open, rename, delete.
 */
export function ConversationList({ activeId, onOpen, onNew, onDeleted, className }: ConversationListProps) {
  const conversations = useConversations();
  const [renaming, setRenaming] = useState<Conversation | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const remove = useDeleteConversation();
  // The rename and delete dialogs open from a menu item, so they have no Radix trigger: focus goes
  // back to the conversation's actions button, or to New chat when the conversation is gone. The
  // search stays inside this list (the page mounts a second one for phones).
  const navRef = useRef<HTMLElement>(null);
  // The conversation the last dialog was about (its state is cleared as the dialog closes).
  const dialogFor = useRef<string | null>(null);
  const returnFocus = (event: Event) => {
    event.preventDefault();
    const nav = navRef.current;
    const actions =
      dialogFor.current === null ? null : nav?.querySelector<HTMLElement>(`[data-conversation-actions="${CSS.escape(dialogFor.current)}"]`);
    (actions ?? nav?.querySelector<HTMLElement>("[data-new-chat]"))?.focus();
  };
  const openDialog = (c: Conversation, open: (c: Conversation) => void) => () => {
    dialogFor.current = c.id;
    open(c);
  };

  return (
    <nav ref={navRef} aria-label="Conversations" className={cn("flex min-h-0 flex-col", className)}>
      <div className="flex items-center justify-between gap-2 px-3 py-3">
        <h2 className="text-sm font-semibold">Conversations</h2>
        <Button variant="outline" size="sm" onClick={onNew} data-new-chat="">
          <Plus aria-hidden="true" />
          New chat
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
        {conversations.isLoading ? (
          <div className="space-y-2 p-1" aria-label="Loading conversations">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-11 w-full" />
            ))}
          </div>
        ) : conversations.error ? (
          <QueryError
            error={conversations.error}
            title="The conversations could not be loaded."
            onRetry={() => void conversations.refetch()}
            retrying={conversations.isFetching}
          />
        ) : (conversations.data ?? []).length === 0 ? (
          <p className="flex items-center gap-2 px-2 py-3 text-sm text-muted-foreground">
            <MessageSquare className="size-4" aria-hidden="true" />
            No conversations yet
          </p>
        ) : (
          <ul className="space-y-0.5">
            {(conversations.data ?? []).map((c) => (
              <li
                key={c.id}
                className={cn("group flex items-center gap-1 rounded-md", c.id === activeId ? "bg-accent" : "hover:bg-accent/60")}
              >
                <button
                  type="button"
                  onClick={() => onOpen(c.id)}
                  aria-current={c.id === activeId ? "true" : undefined}
                  className="min-w-0 flex-1 rounded-md px-2 py-1.5 text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="block truncate text-sm">{c.title}</span>
                  <Time iso={c.updatedAt} as="dateTime" className="block text-xs text-muted-foreground" />
                </button>
                <RowActionsMenu modal label={`Actions for ${c.title}`} className="shrink-0" data-conversation-actions={c.id}>
                  <DropdownMenuItem onSelect={openDialog(c, setRenaming)}>
                    <Pencil aria-hidden="true" />
                    Rename
                  </DropdownMenuItem>
                  <DropdownMenuItem variant="destructive" onSelect={openDialog(c, setDeleting)}>
                    <Trash2 aria-hidden="true" />
                    Delete
                  </DropdownMenuItem>
                </RowActionsMenu>
              </li>
            ))}
          </ul>
        )}
      </div>

      <RenameDialog conversation={renaming} onClose={() => setRenaming(null)} onCloseAutoFocus={returnFocus} />
      <ConfirmDialog
        open={deleting !== null}
        onCloseAutoFocus={returnFocus}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this conversation?"
        description={deleting ? `"${deleting.title}" and all its messages will be deleted. This cannot be undone.` : ""}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        busy={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          const { id } = deleting;
          remove.mutate(
            { id },
            {
              onSuccess: () => {
                setDeleting(null);
                onDeleted(id);
              },
            },
          );
        }}
      />
    </nav>
  );
}

/** The rename form (react-hook-form and zod) loads when the dialog first opens: the chat's own bundle does without them. */
const RenameConversationForm = lazy(() => import("./rename-conversation-form"));

function RenameDialog({
  conversation,
  onClose,
  onCloseAutoFocus,
}: {
  conversation: Conversation | null;
  onClose: () => void;
  onCloseAutoFocus: ((event: Event) => void) | undefined;
}) {
  return (
    <Dialog open={conversation !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Rename conversation</DialogTitle>
          <DialogDescription>The name shown in your conversation list.</DialogDescription>
        </DialogHeader>
        {conversation && (
          <Suspense fallback={<LoadingState className="py-6" />}>
            <RenameConversationForm conversation={conversation} onClose={onClose} />
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}
