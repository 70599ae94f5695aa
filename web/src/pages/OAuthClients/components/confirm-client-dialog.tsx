import type { OAuthClientDto } from "@contract/oauth";
import { useDeleteOAuthClient, useRegenerateOAuthClientSecret, useSetOAuthClientActive } from "@/api/oauth-clients";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

export type ConfirmKind = "delete" | "deactivate" | "regenerate";

const COPY: Record<ConfirmKind, { title: string; confirm: string; busy: string; text: (name: string) => string }> = {
  delete: {
    title: "Delete OAuth Client",
    confirm: "Delete",
    busy: "Deleting...",
    text: (name) => `Are you sure you want to delete ${name}? Its tokens stop working at once. This action cannot be undone.`,
  },
  deactivate: {
    title: "Deactivate OAuth Client",
    confirm: "Deactivate",
    busy: "Deactivating...",
    text: (name) => `${name} will get no new tokens, and the tokens it holds stop working at once. You can activate it again later.`,
  },
  regenerate: {
    title: "Regenerate Client Secret",
    confirm: "Regenerate",
    busy: "Regenerating...",
    text: (name) => `${name} gets a new client secret. The current secret stops working at once; every application using it must be given the new one.`,
  },
};

interface ConfirmClientDialogProps {
  kind: ConfirmKind;
  client: OAuthClientDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
  /** After a regeneration: show the new secret. */
  onRegenerated?: (client: OAuthClientDto) => void;
}

/** Confirms a delete, a deactivation or a new secret. It stays open until the server has answered. */
export function ConfirmClientDialog({ kind, client, open, onOpenChange, onCloseAutoFocus, onRegenerated }: ConfirmClientDialogProps) {
  const remove = useDeleteOAuthClient();
  const setActive = useSetOAuthClientActive();
  const regenerate = useRegenerateOAuthClientSecret();
  const busy = remove.isPending || setActive.isPending || regenerate.isPending;
  const copy = COPY[kind];
  const done = { onSuccess: () => onOpenChange(false) };

  const onConfirm = () => {
    if (!client) return;
    const { clientId } = client;
    if (kind === "delete") remove.mutate({ clientId }, done);
    else if (kind === "deactivate") setActive.mutate({ clientId, isActive: false }, done);
    else
      regenerate.mutate(
        { clientId },
        {
          onSuccess: (updated) => {
            onRegenerated?.(updated);
            onOpenChange(false);
          },
        },
      );
  };

  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{copy.title}</AlertDialogTitle>
          <AlertDialogDescription>{client ? copy.text(client.name) : null}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={onConfirm} disabled={busy} aria-busy={busy}>
            {busy && <Spinner />}
            {busy ? copy.busy : copy.confirm}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
