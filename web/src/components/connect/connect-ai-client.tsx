import { Plug, TriangleAlert } from "lucide-react";
import { useId } from "react";
import { Link } from "wouter";
import { AI_CLIENTS, clientSetup, originMismatch, signInLine, type AiClient, type McpConnectionDto } from "@contract/connect";
import { useMcpConnection } from "@/api/connect";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCan } from "@/hooks/use-permission";

/** The warning shown wherever the MCP address is, when the console is open at another address than PUBLIC_URL. */
export function OriginWarning({ publicUrl }: { publicUrl: string }) {
  const message = originMismatch(window.location.origin, publicUrl);
  if (!message) return null;
  return (
    <p role="note" className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2.5 text-sm">
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
      <span>{message}</span>
    </p>
  );
}

/** The MCP server URL with its copy button. */
export function McpUrl({ url }: { url: string }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <p id={id} className="text-sm font-medium">
        MCP server URL
      </p>
      <div className="flex min-w-0 items-center gap-1 rounded-md border border-border bg-muted/50 py-1 pl-3 pr-1">
        <code aria-labelledby={id} className="min-w-0 flex-1 truncate font-mono text-[0.8125rem]" title={url}>
          {url}
        </code>
        <CopyButton value={url} what="MCP server URL" label="Copy the MCP server URL" />
      </div>
    </div>
  );
}

/** One tab per common AI client: where its configuration goes, and the snippet for this server. */
export function ClientSnippets({ connection, initial = AI_CLIENTS[0] }: { connection: McpConnectionDto; initial?: AiClient | undefined }) {
  return (
    <Tabs defaultValue={initial} className="min-w-0">
      <TabsList aria-label="AI client" className="grid h-auto w-full grid-cols-[repeat(auto-fit,minmax(9rem,1fr))]">
        {AI_CLIENTS.map((client) => (
          <TabsTrigger key={client} value={client}>
            {clientSetup(client, connection.mcpUrl).label}
          </TabsTrigger>
        ))}
      </TabsList>
      {AI_CLIENTS.map((client) => {
        const setup = clientSetup(client, connection.mcpUrl);
        return (
          <TabsContent key={client} value={client} className="mt-3 space-y-2">
            <p className="text-sm text-muted-foreground">{setup.where}</p>
            <div className="relative">
              <pre
                tabIndex={0}
                aria-label={`${setup.label} configuration`}
                className="max-w-full overflow-x-auto rounded-md bg-muted p-4 pr-12 font-mono text-xs leading-relaxed focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <code>{setup.snippet}</code>
              </pre>
              <CopyButton
                className="absolute right-2 top-2"
                value={setup.snippet}
                what={`${setup.label} configuration`}
                label={`Copy the ${setup.label} configuration`}
              />
            </div>
          </TabsContent>
        );
      })}
    </Tabs>
  );
}

/**
 * "Connect an AI client" (issue 25): the MCP address built from PUBLIC_URL, each common client's
 * configuration, and how sign-in works here. Shown on the Dashboard, OAuth Clients and API Endpoints.
 */
export function ConnectAiClient({ className }: { className?: string }) {
  const connection = useMcpConnection();
  const canSeeClients = useCan("oauth-clients.read");
  const titleId = useId();
  const data = connection.data;
  return (
    <Card role="region" aria-labelledby={titleId} className={className}>
      <CardHeader className="pb-4">
        <CardTitle id={titleId} className="flex items-center gap-2">
          <Plug className="size-4 text-muted-foreground" aria-hidden="true" />
          Connect an AI client
        </CardTitle>
        <CardDescription>Give Claude, Cursor, VS Code or any MCP client this server's address; it signs you in with OAuth.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {connection.isPending ? (
          <div role="status" aria-label="Loading the connection details" className="space-y-3">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : connection.error ? (
          <QueryError
            title="The connection details could not be loaded."
            error={connection.error}
            onRetry={() => void connection.refetch()}
            retrying={connection.isFetching}
          />
        ) : !data ? null : (
          <>
            <OriginWarning publicUrl={data.publicUrl} />
            <McpUrl url={data.mcpUrl} />
            <ClientSnippets connection={data} />
            <p className="text-sm">
              {signInLine(data)}
              {!data.dynamicRegistration && canSeeClients && (
                <>
                  {" "}
                  <Link href="/oauth-clients" className="font-medium text-primary underline-offset-4 hover:underline">
                    Go to OAuth Clients
                  </Link>
                </>
              )}
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
