import { KeyRound, Power, PowerOff, Trash2 } from "lucide-react";
import type { OAuthClientDto } from "@contract/oauth";
import { Button } from "@/components/ui/button";
import { DropdownMenuItem, RowActionsMenu } from "@/components/ui/dropdown-menu";

export type ClientAction = "delete" | "deactivate" | "activate" | "regenerate";

/** The buttons carry the client's id so focus can return to them after a dialog (see the page). */
export const menuTriggerSelector = (clientId: string) => `[data-client-menu="${CSS.escape(clientId)}"]`;
export const deleteButtonSelector = (clientId: string) => `[data-client-delete="${CSS.escape(clientId)}"]`;

interface ClientActionsProps {
  client: OAuthClientDto;
  onAction: (action: ClientAction, client: OAuthClientDto) => void;
}

/**
 * The card's actions for those who manage clients: the spec's delete button, and beyond the spec
 * a small menu to deactivate / activate and, for a confidential client, to regenerate the secret.
 */
export function ClientActions({ client, onAction }: ClientActionsProps) {
  return (
    <div className="-mr-2 -mt-1 flex shrink-0 items-center gap-1">
      <RowActionsMenu label={`More actions for ${client.name}`} title="More actions" data-client-menu={client.clientId}>
        {client.isActive ? (
          <DropdownMenuItem onSelect={() => onAction("deactivate", client)}>
            <PowerOff aria-hidden="true" />
            Deactivate
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem onSelect={() => onAction("activate", client)}>
            <Power aria-hidden="true" />
            Activate
          </DropdownMenuItem>
        )}
        {client.clientType === "confidential" && (
          <DropdownMenuItem onSelect={() => onAction("regenerate", client)}>
            <KeyRound aria-hidden="true" />
            Regenerate secret
          </DropdownMenuItem>
        )}
      </RowActionsMenu>
      <Button
        variant="ghost-destructive"
        size="icon"
        className="size-8"
        aria-label={`Delete client ${client.name}`}
        title="Delete client"
        data-client-delete={client.clientId}
        onClick={() => onAction("delete", client)}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  );
}
