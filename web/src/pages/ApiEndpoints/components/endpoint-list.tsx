import type { EndpointStatDto } from "@contract/stats";
import { Badge, type BadgeProps } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatMs, formatNumber, plural } from "@/lib/format";
import { cn } from "@/lib/utils";
import type { EndpointHealth } from "@/lib/endpoint-health";
import { API_ENDPOINTS, healthOf, statOf, type ApiEndpoint, type HealthInputs } from "../lib/endpoints";

const METHOD_VARIANTS: Record<string, BadgeProps["variant"]> = { GET: "secondary", POST: "default", SSE: "outline" };

interface EndpointListProps {
  health: HealthInputs;
  /** Measured over the last hour; undefined while loading, null when it could not be read. */
  stats: readonly EndpointStatDto[] | null | undefined;
  /** Open event streams, for the SSE entry. */
  openStreams: number | null | undefined;
  loading: boolean;
}

/** One line per endpoint (spec section 2): method, path, description, health, and its median or stream count. */
export function EndpointList({ health, stats, openStreams, loading }: EndpointListProps) {
  return (
    <Card role="region" aria-labelledby="endpoint-list-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2 p-6 pb-3">
        <h2 id="endpoint-list-title" className="text-base font-semibold">
          Endpoints
        </h2>
        <p className="text-xs text-muted-foreground">Response times: the median of the last hour's requests</p>
      </div>
      <ul className="divide-y divide-border">
        {API_ENDPOINTS.map((endpoint) => (
          <EndpointRow
            key={`${endpoint.method} ${endpoint.path}`}
            endpoint={endpoint}
            health={healthOf(endpoint, health)}
            stat={statOf(endpoint, stats)}
            openStreams={openStreams}
            loading={loading}
          />
        ))}
      </ul>
    </Card>
  );
}

/** Spec section 2's Healthy and Unhealthy; a service waiting to be set up reads so, in grey, not as a failure. */
const HEALTH_LOOK: Record<EndpointHealth, { dot: string; text: string; label: string }> = {
  up: { dot: "bg-success", text: "text-success", label: "Healthy" },
  down: { dot: "bg-destructive", text: "text-destructive", label: "Unhealthy" },
  unknown: { dot: "bg-destructive", text: "text-destructive", label: "Unhealthy" },
  "not-configured": { dot: "bg-muted-foreground/50", text: "text-muted-foreground", label: "Not configured" },
};

function EndpointRow({
  endpoint,
  health,
  stat,
  openStreams,
  loading,
}: {
  endpoint: ApiEndpoint;
  health: EndpointHealth;
  stat: EndpointStatDto | undefined;
  openStreams: number | null | undefined;
  loading: boolean;
}) {
  const stream = "stream" in endpoint && endpoint.stream;
  return (
    <li aria-label={`${endpoint.method} ${endpoint.path}`} className="flex flex-col gap-2 px-6 py-3 sm:flex-row sm:items-center sm:gap-4">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <Badge variant={METHOD_VARIANTS[endpoint.method] ?? "outline"} className="mt-0.5 w-12 justify-center font-mono">
          {endpoint.method}
        </Badge>
        <div className="min-w-0">
          <p className="break-all font-mono text-sm">{endpoint.path}</p>
          <p className="text-xs text-muted-foreground">{endpoint.description}</p>
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-4 pl-[3.75rem] sm:pl-0">
        <span className="inline-flex w-24 items-center gap-1.5 text-xs">
          <span aria-hidden="true" className={cn("size-2 rounded-full", HEALTH_LOOK[health].dot)} />
          <span className={HEALTH_LOOK[health].text}>{HEALTH_LOOK[health].label}</span>
        </span>
        <span className="w-36 text-right text-sm tabular-nums">
          {loading ? (
            <Skeleton className="ml-auto h-4 w-16" />
          ) : stream ? (
            openStreams === null || openStreams === undefined ? (
              <span className="text-muted-foreground">—</span>
            ) : (
              plural(openStreams, "connection")
            )
          ) : stat && stat.medianMs !== null ? (
            <span title={`${formatNumber(stat.requests)} requests in the last hour`}>
              {formatMs(stat.medianMs)}
              <span className="ml-1.5 text-xs text-muted-foreground">({formatNumber(stat.requests)})</span>
            </span>
          ) : (
            <span className="text-muted-foreground" title="No requests in the last hour">
              —<span className="sr-only"> no requests in the last hour</span>
            </span>
          )}
        </span>
      </div>
    </li>
  );
}
