import { Eye, EyeOff, Lock, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { SECRET_MASK, type OAuthClientDto } from "@contract/oauth";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { MiddleTruncate } from "@/components/ui/middle-truncate";

/** The boxed monospace value with its buttons at the right. */
function ValueBox({ children, actions }: { children: ReactNode; actions: ReactNode }) {
  return (
    <div className="flex h-9 min-w-0 items-center gap-1 rounded-md border border-border bg-muted/40 pl-3 pr-1">
      <div className="min-w-0 flex-1">{children}</div>
      <div className="flex shrink-0 items-center">{actions}</div>
    </div>
  );
}

/** The client ID, monospace, shortened in the middle, with a copy button (spec section 2). */
export function ClientIdValue({ client }: { client: OAuthClientDto }) {
  return (
    <ValueBox actions={<CopyButton value={client.clientId} what="Client ID" label={`Copy Client ID of ${client.name}`} />}>
      <MiddleTruncate value={client.clientId} />
    </ValueBox>
  );
}

function Note({ icon: Icon, children }: { icon: typeof Lock; children: ReactNode }) {
  return (
    <p className="flex min-h-9 items-center gap-2 text-xs text-muted-foreground">
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

interface ClientSecretValueProps {
  client: OAuthClientDto;
  revealed: boolean;
  onToggleReveal: () => void;
}

/**
 * The client secret (spec sections 2, 4 and 9; D7): 32 bullets until revealed for this client,
 * a copy button either way. A public client has none; a viewer is not sent it.
 */
export function ClientSecretValue({ client, revealed, onToggleReveal }: ClientSecretValueProps) {
  if (client.clientType === "public") return <Note icon={ShieldCheck}>Public client: no secret, PKCE required</Note>;
  if (client.clientSecret === null) return <Note icon={Lock}>Hidden: requires permission to manage clients</Note>;

  const secret = client.clientSecret;
  const toggleLabel = `${revealed ? "Hide" : "Show"} Client Secret of ${client.name}`;
  return (
    <ValueBox
      actions={
        <>
          <Button variant="ghost" size="icon" className="size-7" aria-label={toggleLabel} title={revealed ? "Hide secret" : "Show secret"} onClick={onToggleReveal}>
            {revealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          </Button>
          <CopyButton value={secret} what="Client Secret" label={`Copy Client Secret of ${client.name}`} />
        </>
      }
    >
      {revealed ? (
        <MiddleTruncate value={secret} />
      ) : (
        <span className="block overflow-hidden whitespace-nowrap font-mono text-xs tracking-tight text-muted-foreground">
          <span aria-hidden="true" data-secret-mask="">
            {SECRET_MASK}
          </span>
          <span className="sr-only">Hidden</span>
        </span>
      )}
    </ValueBox>
  );
}
