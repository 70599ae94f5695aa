import { Info } from "lucide-react";
import { TIMINGS } from "@contract/limits";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";

const HEADERS = [
  ["Authorization", "Bearer <access token>"],
  ["Accept", "text/event-stream"],
  ["Cache-Control", "no-cache"],
] as const;

const EVENTS = [
  ["connected", "the connection id, as soon as the stream opens"],
  ["heartbeat", `every ${TIMINGS.sseHeartbeatMs / 1000} seconds`],
  ["mcp-response", "the answer to a request posted to /api/mcp/protocol with this connection's id"],
  ["error", "why the stream ends (token revoked, client deactivated, ended by an administrator)"],
] as const;

/** How a client opens the spec's event stream (spec section 2: the endpoint, headers and event types). */
export function StreamInfoCard({ origin }: { origin: string }) {
  const endpoint = `${origin}/api/sse/stream`;
  return (
    <Card role="region" aria-labelledby="sse-info-title">
      <CardHeader>
        <CardTitle id="sse-info-title" className="flex items-center gap-2">
          <Info className="size-4 text-muted-foreground" aria-hidden="true" />
          Connecting to the event stream
        </CardTitle>
        <CardDescription>
          MCP clients that speak Streamable HTTP use {origin}/mcp instead; their listening streams are listed here too.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-3">
        <section aria-labelledby="sse-info-endpoint" className="min-w-0 space-y-2">
          <h3 id="sse-info-endpoint" className="text-sm font-medium">
            Endpoint
          </h3>
          <div className="flex min-w-0 items-center gap-1 rounded-md bg-muted px-3 py-2">
            <code className="min-w-0 flex-1 truncate font-mono text-xs">GET {endpoint}</code>
            <CopyButton value={endpoint} what="Endpoint" label="Copy the event stream endpoint" />
          </div>
        </section>
        <section aria-labelledby="sse-info-headers" className="min-w-0 space-y-2">
          <h3 id="sse-info-headers" className="text-sm font-medium">
            Headers
          </h3>
          <dl className="space-y-1 text-xs">
            {HEADERS.map(([name, value]) => (
              <div key={name} className="flex flex-wrap gap-x-2">
                <dt className="font-mono font-medium">{name}:</dt>
                <dd className="font-mono text-muted-foreground">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="sse-info-events" className="min-w-0 space-y-2">
          <h3 id="sse-info-events" className="text-sm font-medium">
            Event types
          </h3>
          <dl className="space-y-1 text-xs">
            {EVENTS.map(([name, what]) => (
              <div key={name}>
                <dt className="inline font-mono font-medium">{name}</dt>
                <dd className="inline text-muted-foreground"> — {what}</dd>
              </div>
            ))}
          </dl>
        </section>
      </CardContent>
    </Card>
  );
}
