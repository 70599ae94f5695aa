import { KeyRound, Plus } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import type { OAuthClientDto } from "@contract/oauth";
import { useOAuthClients, useSetOAuthClientActive } from "@/api/oauth-clients";
import { ConnectAiClient } from "@/components/connect/connect-ai-client";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { useCan } from "@/hooks/use-permission";
import { useReturnFocus } from "@/hooks/use-return-focus";
import { useRevealed } from "@/hooks/use-revealed";
import { deleteButtonSelector, menuTriggerSelector, type ClientAction } from "./components/client-actions";
import { ClientCard } from "./components/client-card";
import { ClientsSkeleton } from "./components/clients-skeleton";
import { ConfirmClientDialog, type ConfirmKind } from "./components/confirm-client-dialog";
import { CreateClientDialog } from "./components/create-client-dialog";
import { NoPermission } from "@/components/ui/no-permission";
import { QueryError } from "@/components/ui/query-error";

interface ConfirmState {
  kind: ConfirmKind;
  client: OAuthClientDto | null;
  open: boolean;
}

/**
 * OAuth Clients (spec section 2; docs/decisions.md#oauth-client-secrets,
 * #oauth-authorization-server): the clients allowed to obtain tokens for the MCP server. Reading
 * needs oauth-clients.read; creating, deleting, (de)activating and new secrets oauth-clients.write,
 * and only those users are sent the secrets (docs/decisions.md#oauth-client-secrets).
 */
export default function OAuthClientsPage() {
  const canRead = useCan("oauth-clients.read");
  const canWrite = useCan("oauth-clients.write");
  const clients = useOAuthClients(canRead);
  const { mutate: setActive } = useSetOAuthClientActive();

  const [createOpen, setCreateOpen] = useState(false);
  const [confirm, setConfirm] = useState<ConfirmState>({ kind: "delete", client: null, open: false });
  // Spec section 4: secrets are masked by default and revealed per client.
  const { revealed, toggle: toggleReveal, reveal } = useRevealed();
  // Where focus lands when the control that opened a dialog is gone (a deleted client's card).
  const contentRef = useRef<HTMLDivElement>(null);
  // The empty state's button is gone once the first client exists: then the list.
  const createFocus = useReturnFocus(() => contentRef.current);

  const openCreate = () => {
    createFocus.remember();
    setCreateOpen(true);
  };

  const onAction = useCallback(
    (action: ClientAction, client: OAuthClientDto) => {
      if (action === "activate") setActive({ clientId: client.clientId, isActive: true });
      else setConfirm({ kind: action, client, open: true });
    },
    [setActive],
  );

  // Focus goes back to the button that opened the dialog, or to the list when that client is gone.
  const onConfirmCloseAutoFocus = (event: Event) => {
    const { client, kind } = confirm;
    if (!client) return;
    event.preventDefault();
    const selector = kind === "delete" ? deleteButtonSelector(client.clientId) : menuTriggerSelector(client.clientId);
    const trigger = document.querySelector<HTMLElement>(selector);
    (trigger ?? contentRef.current)?.focus();
  };

  const createButton = (
    <Button onClick={openCreate}>
      <Plus aria-hidden="true" />
      Create Client
    </Button>
  );
  const list = clients.data ?? [];

  return (
    <div className="space-y-6">
      <PageHeader
        title="OAuth Clients"
        description="Manage OAuth 2.0 clients for MCP server access"
        onRefresh={canRead ? () => void clients.refetch() : undefined}
        refreshing={clients.isFetching && !clients.isPending}
        actions={canWrite ? createButton : undefined}
      />

      <ConnectAiClient />

      <div ref={contentRef} tabIndex={-1} className="focus:outline-none">
        {!canRead ? (
          <NoPermission what="OAuth clients" />
        ) : clients.isPending ? (
          <ClientsSkeleton />
        ) : clients.error ? (
          <QueryError
            title="The OAuth clients could not be loaded."
            error={clients.error}
            onRetry={() => void clients.refetch()}
            retrying={clients.isFetching}
          />
        ) : list.length === 0 ? (
          <EmptyState
            icon={KeyRound}
            title="No OAuth clients"
            description="Create your first OAuth client to enable MCP server access."
            action={canWrite ? createButton : undefined}
          />
        ) : (
          <section aria-label="OAuth clients" className="grid gap-4 xl:grid-cols-2">
            {list.map((client) => (
              <ClientCard
                key={client.clientId}
                client={client}
                canWrite={canWrite}
                revealed={revealed.has(client.clientId)}
                onToggleReveal={toggleReveal}
                onAction={onAction}
              />
            ))}
          </section>
        )}
      </div>

      {canWrite && (
        <>
          <CreateClientDialog open={createOpen} onOpenChange={setCreateOpen} onCloseAutoFocus={createFocus.onCloseAutoFocus} />
          <ConfirmClientDialog
            kind={confirm.kind}
            client={confirm.client}
            open={confirm.open}
            onOpenChange={(open) => setConfirm((c) => ({ ...c, open }))}
            onCloseAutoFocus={onConfirmCloseAutoFocus}
            onRegenerated={(client) => reveal(client.clientId)}
          />
        </>
      )}
    </div>
  );
}
