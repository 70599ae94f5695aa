import { Lock, ShieldCheck } from "lucide-react";
import type { OAuthClientDto } from "@contract/oauth";
import { CopyButton } from "@/components/ui/copy-button";
import { MiddleTruncate } from "@/components/ui/middle-truncate";
import { SecretNote, SecretValue, ValueBox } from "@/components/ui/secret-value";

/** The client ID, monospace, shortened in the middle, with a copy button (spec section 2). */
export function ClientIdValue({ client }: { client: OAuthClientDto }) {
  return (
    <ValueBox actions={<CopyButton value={client.clientId} what="Client ID" label={`Copy Client ID of ${client.name}`} />}>
      <MiddleTruncate value={client.clientId} />
    </ValueBox>
  );
}

interface ClientSecretValueProps {
  client: OAuthClientDto;
  revealed: boolean;
  onToggleReveal: () => void;
}

/**
 * The client secret (spec sections 2, 4 and 9; docs/decisions.md#oauth-client-secrets): 32 bullets
 * until revealed for this client, a copy button either way. A public client has none; a viewer is
 * not sent it.
 */
export function ClientSecretValue({ client, revealed, onToggleReveal }: ClientSecretValueProps) {
  if (client.clientType === "public") return <SecretNote icon={ShieldCheck}>Public client: no secret, PKCE required</SecretNote>;
  if (client.clientSecret === null) return <SecretNote icon={Lock}>Hidden: requires permission to manage clients</SecretNote>;

  const secret = client.clientSecret;
  return (
    <SecretValue
      revealed={revealed}
      onToggleReveal={onToggleReveal}
      label={`Client Secret of ${client.name}`}
      title="secret"
      actions={<CopyButton value={secret} what="Client Secret" label={`Copy Client Secret of ${client.name}`} />}
    >
      <MiddleTruncate value={secret} />
    </SecretValue>
  );
}
