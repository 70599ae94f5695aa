import type { OAuthClientDto } from "@contract/oauth";
import { useDeleteOAuthClient, useRegenerateOAuthClientSecret, useSetOAuthClientActive } from "@/api/oauth-clients";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

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
    text: (name) =>
      `${name} will get no new tokens, and the tokens it holds are revoked at once. You can activate it again later; its users then authorize it anew.`,
  },
  regenerate: {
    title: "Regenerate Client Secret",
    confirm: "Regenerate",
    busy: "Regenerating...",
    text: (name) =>
      `${name} gets a new client secret. The current secret and every token issued with it are revoked at once; every application using it must be given the new secret.`,
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
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
      title={copy.title}
      description={client ? copy.text(client.name) : null}
      confirmLabel={copy.confirm}
      pendingLabel={copy.busy}
      busy={busy}
      onConfirm={onConfirm}
    />
  );
}
