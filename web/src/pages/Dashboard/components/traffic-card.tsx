import type { UseQueryResult } from "@tanstack/react-query";
import { ChartLine } from "lucide-react";
import { lazy, Suspense, useId, useMemo, type ReactNode } from "react";
import type uPlot from "uplot";
import type { TrafficMinuteDto } from "@contract/stats";
import type { ApiError } from "@/api/client";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import {
  errorRateSummary,
  formatPercent,
  perMinuteHeadline,
  requestsSummary,
  SERVICE_LABEL,
  shapeTraffic,
  trafficTotals,
  upstreamSummary,
  UPSTREAM_SERVICES,
} from "../lib/chart-data";
import { DashboardCard } from "./dashboard-card";
import { NO_DATA } from "@/components/ui/stat-card";
import type { ChartSeriesStyle } from "./traffic-chart";

// uPlot and its wrapper are their own chunk: the cards above paint without waiting for them.
const TrafficChart = lazy(() => import("./traffic-chart"));

const CHART_HEIGHT = 150;

// Module constants: the chart is rebuilt only when these change (they never do), not on each poll.
const REQUEST_SERIES: readonly ChartSeriesStyle[] = [
  { label: "Requests", colourVar: "--primary", fill: true },
  { label: "Errors", colourVar: "--destructive", dash: [4, 3] },
];
// Minutes without requests are gaps: dots keep a lone minute visible.
const ERROR_RATE_SERIES: readonly ChartSeriesStyle[] = [{ label: "Error rate", colourVar: "--destructive", fill: true, points: true }];
const UPSTREAM_DASH: Record<(typeof UPSTREAM_SERVICES)[number], number[] | undefined> = {
  jira: undefined,
  confluence: [6, 3],
  bitbucket: [2, 3],
};
const UPSTREAM_SERIES: readonly ChartSeriesStyle[] = UPSTREAM_SERVICES.map((s) => ({
  label: SERVICE_LABEL[s],
  colourVar: `--chart-${s}`,
  dash: UPSTREAM_DASH[s],
}));

function ChartSkeleton() {
  return <Skeleton className="w-full" style={{ height: CHART_HEIGHT + 24 }} />;
}

/** A chart with its title, its headline figure and, for assistive technology, a sentence saying what it shows. */
function ChartFigure({ title, headline, summary, children }: { title: string; headline: string; summary: string; children: ReactNode }) {
  const titleId = useId();
  const summaryId = useId();
  return (
    <figure aria-labelledby={titleId} aria-describedby={summaryId} className="min-w-0 space-y-2">
      <div className="flex items-baseline justify-between gap-3">
        <h3 id={titleId} className="text-sm font-medium">
          {title}
        </h3>
        <span className="text-sm font-semibold tabular-nums" aria-hidden="true">
          {headline}
        </span>
      </div>
      <p id={summaryId} className="sr-only">
        {summary}
      </p>
      <Suspense fallback={<ChartSkeleton />}>{children}</Suspense>
    </figure>
  );
}

function Charts({ minutes }: { minutes: TrafficMinuteDto[] }) {
  const shaped = useMemo(() => shapeTraffic(minutes), [minutes]);
  const totals = useMemo(() => trafficTotals(minutes), [minutes]);
  const requests = useMemo<uPlot.AlignedData>(() => [shaped.x, shaped.requests, shaped.errors], [shaped]);
  const rate = useMemo<uPlot.AlignedData>(() => [shaped.x, shaped.errorRate], [shaped]);
  const upstream = useMemo<uPlot.AlignedData>(() => [shaped.x, ...UPSTREAM_SERVICES.map((s) => shaped.upstream[s])], [shaped]);

  return (
    <div className="grid gap-8 lg:grid-cols-3 lg:gap-6">
      <ChartFigure
        title="Requests per minute"
        headline={perMinuteHeadline(totals.busiest?.requests ?? 0)}
        summary={requestsSummary(totals)}
      >
        <TrafficChart data={requests} series={REQUEST_SERIES} unit="count" height={CHART_HEIGHT} />
      </ChartFigure>
      <ChartFigure
        title="Error rate"
        headline={totals.errorRate === null ? "–" : formatPercent(totals.errorRate)}
        summary={errorRateSummary(totals)}
      >
        <TrafficChart data={rate} series={ERROR_RATE_SERIES} unit="percent" height={CHART_HEIGHT} />
      </ChartFigure>
      <ChartFigure title="Upstream calls per minute" headline={perMinuteHeadline(totals.upstreamPeak)} summary={upstreamSummary(totals)}>
        <TrafficChart data={upstream} series={UPSTREAM_SERIES} unit="count" height={CHART_HEIGHT} />
      </ChartFigure>
    </div>
  );
}

/** The last hour at a glance (GET /api/admin/stats/traffic, polled with the stats): requests, errors, upstream calls. */
export function TrafficCard({ query }: { query: UseQueryResult<TrafficMinuteDto[] | null, ApiError> }) {
  return (
    <DashboardCard title="Traffic" description="The last hour, minute by minute" icon={ChartLine} busy={query.isPending}>
      {query.isPending ? (
        <div className="grid gap-8 lg:grid-cols-3 lg:gap-6">
          {[0, 1, 2].map((i) => (
            <div key={i} className="space-y-2">
              <Skeleton className="h-4 w-32" />
              <ChartSkeleton />
            </div>
          ))}
        </div>
      ) : query.error ? (
        <QueryError
          title="The traffic charts could not be loaded."
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : !query.data ? (
        <p className="text-sm text-muted-foreground">{NO_DATA}</p>
      ) : (
        <Charts minutes={query.data} />
      )}
    </DashboardCard>
  );
}
