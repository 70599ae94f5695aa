import { KeyRound } from "lucide-react";
import type { AiProvider } from "@contract/ai-providers";
import { SecretNote, SecretValue } from "@/components/ui/secret-value";

interface ApiKeyValueProps {
  provider: AiProvider;
  revealed: boolean;
  onToggleReveal: () => void;
}

/**
 * The API key, masked (spec sections 2 and 4). The key is write-only
 * (docs/decisions.md#write-only-secrets), so revealing shows the only thing the server keeps to
 * show, its last four characters, and never the key.
 */
export function ApiKeyValue({ provider, revealed, onToggleReveal }: ApiKeyValueProps) {
  const hint = provider.apiKeyHint;
  if (hint === null) {
    return <SecretNote icon={KeyRound}>No API key stored</SecretNote>;
  }
  return (
    <SecretValue revealed={revealed} onToggleReveal={onToggleReveal} label={`API key hint of ${provider.name}`} title="key hint">
      <span
        data-key-hint=""
        className="block overflow-hidden whitespace-nowrap font-mono text-xs"
        title="Only the key's last four characters are kept to show; the key itself never leaves the server."
      >
        <span className="text-muted-foreground" aria-hidden="true">
          ••••{" "}
        </span>
        {hint ? (
          <>
            <span className="sr-only">Key ending in </span>
            {hint}
          </>
        ) : (
          <span className="font-sans text-muted-foreground">a short key: none of it is shown</span>
        )}
      </span>
    </SecretValue>
  );
}
