import type { UseQueryResult } from "@tanstack/react-query";
import { CircleCheck, CircleX, GitBranch, Layers } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import type { AtlassianStatusDto, BitbucketStatusDto, RateLimitUsage } from "@contract/integrations";
import type { ApiError } from "@/api/client";
import { AtlassianReach, BitbucketReach } from "@/components/integration-reach";
import { Badge } from "@/components/ui/badge";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { Time } from "@/components/ui/time";
import { formatNumber } from "@/lib/format";
import { cn } from "@/lib/utils";
import { percentOf, usageLevel } from "../lib/status";
import { DashboardCard } from "./dashboard-card";

type StatusQuery<T> = Pick<UseQueryResult<T | null, ApiError>, "data" | "isPending" | "isFetching" | "error" | "refetch">;

/** Connected / Disconnected, in words with an icon; red only when a configured, active service is down. */
function ConnectionBadge({ connected, expected }: { connected: boolean; expected: boolean }) {
  return connected ? (
    <Badge variant="success">
      <CircleCheck aria-hidden="true" />
      Connected
    </Badge>
  ) : (
    <Badge variant={expected ? "destructive" : "secondary"}>
      <CircleX aria-hidden="true" />
      Disconnected
    </Badge>
  );
}

function LastSync({ iso }: { iso: string | null }) {
  return iso ? (
    <span>
      Last sync <Time iso={iso} as="relative" />
    </span>
  ) : (
    <span>Never synced</span>
  );
}

/** One service: its name, Connected or Disconnected, and when it last answered. */
function ServiceRow({
  name,
  connected,
  expected,
  lastSync,
  error,
}: {
  name: string;
  connected: boolean;
  expected: boolean;
  lastSync: string | null;
  error: string | null;
}) {
  return (
    <div className="flex items-start justify-between gap-3 py-3 first:pt-0">
      <div className="min-w-0 space-y-0.5">
        <p className="font-medium">{name}</p>
        <p className="text-xs text-muted-foreground">
          <LastSync iso={lastSync} />
        </p>
        {error && expected && !connected && (
          <p className="line-clamp-2 break-words text-xs text-destructive" title={error}>
            {error}
          </p>
        )}
      </div>
      <ConnectionBadge connected={connected} expected={expected} />
    </div>
  );
}

const BAR: Record<ReturnType<typeof usageLevel>, string> = { normal: "bg-primary", high: "bg-warning", critical: "bg-destructive" };

/** Spec §2: "used/total requests/hour" with a bar of used over total (an accessible progressbar). */
export function RateLimit({ usage }: { usage: RateLimitUsage }) {
  const percent = percentOf(usage.used, usage.total);
  const text = `${formatNumber(usage.used)}/${formatNumber(usage.total)} requests/hour`;
  return (
    <div className="space-y-2 pt-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <span className="font-medium">API rate limit</span>
        <span className="tabular-nums text-muted-foreground">{text}</span>
      </div>
      <div
        role="progressbar"
        aria-label="API rate limit used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent} % (${text})`}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className={cn("h-full rounded-full transition-[width]", BAR[usageLevel(percent)])} style={{ width: `${percent}%` }} />
      </div>
      <p className="text-right text-xs tabular-nums text-muted-foreground">{percent} % used</p>
    </div>
  );
}

function StatusSkeleton({ rows }: { rows: number }) {
  return (
    <div className="space-y-4">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center justify-between">
          <div className="space-y-1.5">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-3 w-32" />
          </div>
          <Skeleton className="h-5 w-24" />
        </div>
      ))}
      <Skeleton className="h-2 w-full" />
    </div>
  );
}

/** The spec's "… status unavailable"; when the request failed, with the reason and Retry. */
function Unavailable({ text, query }: { text: string; query: StatusQuery<unknown> }) {
  if (query.error) return <QueryError title={text} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  return <p className="text-sm text-muted-foreground">{text}</p>;
}

function NotConfigured({ what }: { what: string }) {
  return (
    <p className="pb-3 text-xs text-muted-foreground">
      {what} is not configured.{" "}
      <Link href="/configuration" className="font-medium text-primary underline-offset-4 hover:underline">
        Set it up
      </Link>
    </p>
  );
}

function Body<T>({ query, unavailable, children }: { query: StatusQuery<T>; unavailable: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <StatusSkeleton rows={2} />;
  if (query.error || !query.data) return <Unavailable text={unavailable} query={query} />;
  return <>{children(query.data)}</>;
}

/**
 * Atlassian Integration (spec §2, docs/decisions.md#measured-numbers): who it connects as, Jira and
 * Confluence each with its last sync; the shared hourly budget.
 */
export function AtlassianCard({ query }: { query: StatusQuery<AtlassianStatusDto> }) {
  return (
    <DashboardCard title="Atlassian Integration" description="Jira and Confluence" icon={Layers} busy={query.isPending}>
      <Body query={query} unavailable="Atlassian status unavailable">
        {(s) => {
          const expected = s.configured && s.isActive;
          return (
            <>
              {!s.configured && <NotConfigured what="Atlassian" />}
              <AtlassianReach status={s} className="pb-3" />
              <div className="divide-y divide-border">
                <ServiceRow name="Jira" connected={s.jiraConnected} expected={expected} lastSync={s.jiraLastSync} error={s.jiraError} />
                <ServiceRow
                  name="Confluence"
                  connected={s.confluenceConnected}
                  expected={expected}
                  lastSync={s.confluenceLastSync}
                  error={s.confluenceError}
                />
              </div>
              <RateLimit usage={s.apiRateLimit} />
            </>
          );
        }}
      </Body>
    </DashboardCard>
  );
}

/**
 * Bitbucket Integration (spec §2, docs/decisions.md#measured-numbers): who it connects as,
 * connection, workspace, repositories, the hourly budget.
 */
export function BitbucketCard({ query }: { query: StatusQuery<BitbucketStatusDto> }) {
  return (
    <DashboardCard title="Bitbucket Integration" description="Repositories and pull requests" icon={GitBranch} busy={query.isPending}>
      <Body query={query} unavailable="Bitbucket status unavailable">
        {(s) => {
          const expected = s.configured && s.isActive;
          return (
            <>
              {!s.configured && <NotConfigured what="Bitbucket" />}
              <BitbucketReach status={s} className="pb-3" />
              <div className="divide-y divide-border">
                <ServiceRow name="Bitbucket" connected={s.connected} expected={expected} lastSync={s.lastSync} error={s.error} />
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 py-3 text-sm">
                  <dt className="text-muted-foreground">Workspace</dt>
                  <dd className="min-w-0 truncate text-right font-medium">
                    {s.workspaceName ?? <span className="font-normal text-muted-foreground">No workspace configured</span>}
                  </dd>
                  <dt className="text-muted-foreground">Repositories</dt>
                  <dd className="text-right font-medium tabular-nums">
                    {s.repositoryCount === null ? (
                      <span className="font-normal text-muted-foreground">Unknown</span>
                    ) : (
                      formatNumber(s.repositoryCount)
                    )}
                  </dd>
                </dl>
              </div>
              <RateLimit usage={s.apiRateLimit} />
            </>
          );
        }}
      </Body>
    </DashboardCard>
  );
}
