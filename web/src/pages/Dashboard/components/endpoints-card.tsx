import { BookOpen, Network } from "lucide-react";
import { Link } from "wouter";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  DASHBOARD_ENDPOINTS,
  ENDPOINT_HEALTH_LABEL,
  endpointHealth,
  endpointKey,
  type EndpointHealth,
  type HealthSignals,
} from "../lib/status";
import { DashboardCard } from "./dashboard-card";
import { StatusDot, type DotTone } from "./status-dot";

const HEALTH_TONE: Record<EndpointHealth, DotTone> = { up: "success", down: "destructive", unknown: "muted", "not-configured": "muted" };

/**
 * API Endpoints (spec §2; docs/decisions.md#measured-numbers, #view-documentation): the spec's
 * shorter list, each with a dot from a real check (the server's status for its own endpoints, each
 * service's connection for its proxy), and "View Documentation", which opens the API Endpoints
 * screen.
 */
export function EndpointsCard({ signals }: { signals: HealthSignals }) {
  return (
    <DashboardCard title="API Endpoints" description="Health from the server and integration checks" icon={Network}>
      <ul aria-label="Endpoints" className="divide-y divide-border">
        {DASHBOARD_ENDPOINTS.map((endpoint) => {
          const health = endpointHealth(endpoint, signals);
          return (
            <li key={endpointKey(endpoint)} className="flex items-center gap-3 py-2.5 first:pt-0 last:pb-0">
              <Badge variant="outline" className="w-12 justify-center font-mono text-[11px]">
                {endpoint.method}
              </Badge>
              <div className="min-w-0 flex-1">
                <p className="truncate font-mono text-xs" title={endpoint.path}>
                  {endpoint.path}
                </p>
                <p className="truncate text-xs text-muted-foreground">{endpoint.description}</p>
              </div>
              <span className="flex shrink-0 items-center gap-1.5 text-xs text-muted-foreground">
                <StatusDot tone={HEALTH_TONE[health]} />
                {ENDPOINT_HEALTH_LABEL[health]}
              </span>
            </li>
          );
        })}
      </ul>
      <Button variant="outline" className="mt-5 w-full" asChild>
        <Link href="/api-endpoints">
          <BookOpen aria-hidden="true" />
          View Documentation
        </Link>
      </Button>
    </DashboardCard>
  );
}
