import { useState } from "react";
import type { ClientPreset } from "@contract/connect";
import type { OAuthClientDto } from "@contract/oauth";
import { useMcpConnection } from "@/api/connect";
import { ClientSnippets, McpUrl, OriginWarning } from "@/components/connect/connect-ai-client";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { ClientIdValue, ClientSecretValue } from "./credential-rows";

/**
 * After Create Client (issue 25): what the new client's AI client needs, in one place: the
 * client ID and secret (as the card shows them), the MCP URL and the chosen client's snippet.
 */
export function HowToConnect({ client, preset, onDone }: { client: OAuthClientDto; preset: ClientPreset; onDone: () => void }) {
  const connection = useMcpConnection();
  const [revealed, setRevealed] = useState(false);
  return (
    <div className="grid min-w-0 gap-4">
      <div className="grid gap-1.5">
        <p className="text-sm font-medium">Client ID</p>
        <ClientIdValue client={client} />
      </div>
      <div className="grid gap-1.5">
        <p className="text-sm font-medium">Client Secret</p>
        <ClientSecretValue client={client} revealed={revealed} onToggleReveal={() => setRevealed((r) => !r)} />
      </div>
      {connection.data ? (
        <>
          <OriginWarning publicUrl={connection.data.publicUrl} />
          <McpUrl url={connection.data.mcpUrl} />
          <ClientSnippets connection={connection.data} initial={preset.snippet ?? undefined} />
        </>
      ) : connection.isPending ? (
        <Skeleton className="h-32 w-full" />
      ) : null}
      <DialogFooter>
        <Button type="button" onClick={onDone} autoFocus>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
