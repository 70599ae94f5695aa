import { Eye, EyeOff, KeyRound } from "lucide-react";
import { SECRET_MASK } from "@contract/oauth";
import type { AiProvider } from "@contract/ai-providers";
import { Button } from "@/components/ui/button";

interface ApiKeyValueProps {
  provider: AiProvider;
  revealed: boolean;
  onToggleReveal: () => void;
}

/**
 * The API key, masked (spec sections 2 and 4). D6: the key is write-only, so revealing shows the
 * only thing the server keeps to show, its last four characters, and never the key.
 */
export function ApiKeyValue({ provider, revealed, onToggleReveal }: ApiKeyValueProps) {
  const hint = provider.apiKeyHint;
  if (hint === null) {
    return (
      <p className="flex min-h-9 items-center gap-2 text-xs text-muted-foreground">
        <KeyRound className="size-3.5 shrink-0" aria-hidden="true" />
        No API key stored
      </p>
    );
  }
  const toggleLabel = `${revealed ? "Hide" : "Show"} API key hint of ${provider.name}`;
  return (
    <div className="flex h-9 min-w-0 items-center gap-1 rounded-md border border-border bg-muted/40 pl-3 pr-1">
      <div className="min-w-0 flex-1 overflow-hidden whitespace-nowrap font-mono text-xs">
        {revealed ? (
          <span data-key-hint="" title="Only the key's last four characters are kept to show; the key itself never leaves the server.">
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
        ) : (
          <span className="tracking-tight text-muted-foreground">
            <span aria-hidden="true" data-secret-mask="">
              {SECRET_MASK}
            </span>
            <span className="sr-only">Hidden</span>
          </span>
        )}
      </div>
      <Button variant="ghost" size="icon" className="size-7 shrink-0" aria-label={toggleLabel} title={revealed ? "Hide key hint" : "Show key hint"} onClick={onToggleReveal}>
        {revealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
      </Button>
    </div>
  );
}
