import { Activity, CalendarDays } from "lucide-react";
import type { ReactNode } from "react";
import type { OAuthClientDto } from "@contract/oauth";
import { ActiveBadge, Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import { plural } from "@/lib/format";
import { ClientActions, type ClientAction } from "./client-actions";
import { ClientIdValue, ClientSecretValue } from "./credential-rows";
import { PolicySummary } from "./policy-summary";

interface ClientCardProps {
  client: OAuthClientDto;
  canWrite: boolean;
  revealed: boolean;
  onToggleReveal: (clientId: string) => void;
  onAction: (action: ClientAction, client: OAuthClientDto) => void;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-1.5 sm:grid-cols-[7.5rem_minmax(0,1fr)] sm:items-start sm:gap-4">
      <dt className="text-xs font-medium text-muted-foreground sm:pt-2.5">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/**
 * One OAuth client (spec section 2): name, created date, Active/Inactive, the delete button, the
 * client ID and secret with copy buttons, redirect URIs and scope badges; beyond the spec its type,
 * how it was registered, its live grants (docs/decisions.md#oauth-authorization-server: "active
 * sessions") and its policy (issue 11: what its AI may touch).
 */
export function ClientCard({ client, canWrite, revealed, onToggleReveal, onAction }: ClientCardProps) {
  const headingId = `oauth-client-${client.id}-name`;
  return (
    <Card role="article" aria-labelledby={headingId} className="flex min-w-0 flex-col gap-4 p-5 sm:p-6">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="min-w-0 max-w-full truncate text-base font-semibold" title={client.name}>
              {client.name}
            </h3>
            <ActiveBadge active={client.isActive} />
            <Badge variant="outline">{client.clientType === "public" ? "Public" : "Confidential"}</Badge>
            {client.registeredVia === "dynamic" && (
              <Badge variant="secondary" title="Registered by the client itself through dynamic client registration (RFC 7591)">
                Dynamic
              </Badge>
            )}
            {client.registeredVia === "metadata-document" && (
              <Badge variant="secondary" title="Described by the client itself in a Client ID Metadata Document at its client ID's URL">
                Metadata document
              </Badge>
            )}
          </div>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <span className="inline-flex items-center gap-1">
              <CalendarDays className="size-3.5" aria-hidden="true" />
              Created <Time iso={client.createdAt} />
            </span>
            <span className="inline-flex items-center gap-1 tabular-nums" title="Live grants: unexpired, unrevoked sessions of this client">
              <Activity className="size-3.5" aria-hidden="true" />
              {plural(client.activeGrants, "active grant")}
            </span>
          </p>
        </div>
        {canWrite && <ClientActions client={client} onAction={onAction} />}
      </div>

      <dl className="grid gap-3">
        <Field label="Client ID">
          <ClientIdValue client={client} />
        </Field>
        <Field label="Client Secret">
          <ClientSecretValue client={client} revealed={revealed} onToggleReveal={() => onToggleReveal(client.clientId)} />
        </Field>
        <Field label="Redirect URIs">
          <ul className="grid gap-1 sm:pt-2" aria-label={`Redirect URIs of ${client.name}`}>
            {client.redirectUris.map((uri) => (
              <li key={uri} className="break-all font-mono text-xs">
                {uri}
              </li>
            ))}
          </ul>
        </Field>
        <Field label="Scopes">
          <ul className="flex flex-wrap gap-1 sm:pt-2" aria-label={`Scopes of ${client.name}`}>
            {client.scopes.map((scope) => (
              <li key={scope}>
                <Badge variant="secondary" className="font-mono font-normal">
                  {scope}
                </Badge>
              </li>
            ))}
          </ul>
        </Field>
        <Field label="Policy">
          <PolicySummary client={client} canWrite={canWrite} />
        </Field>
      </dl>
    </Card>
  );
}
