import { Activity, CircleAlert, CircleCheck, Timer, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { LogSummaryDto } from "@contract/logs";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatNumber } from "@/lib/format";
import { cn } from "@/lib/utils";
import { SPEED, speedBand } from "../lib/status";
import { averageText, errorRateText, successRateText } from "../lib/summary";

interface StatCardProps {
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  caption: ReactNode;
  valueClassName?: string;
}

function StatCard({ title, icon: Icon, value, caption, valueClassName }: StatCardProps) {
  return (
    <Card className="p-6">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-medium text-muted-foreground">{title}</h2>
        <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
      </div>
      <p className={cn("mt-2 text-2xl font-semibold tabular-nums tracking-tight", valueClassName)}>{value}</p>
      <p className="mt-1 text-xs text-muted-foreground">{caption}</p>
    </Card>
  );
}

function StatSkeleton({ title }: { title: string }) {
  return (
    <Card className="p-6">
      <h2 className="text-sm font-medium text-muted-foreground">{title}</h2>
      <Skeleton className="mt-3 h-7 w-24" />
      <Skeleton className="mt-2 h-3 w-32" />
    </Card>
  );
}

const TITLES = ["Total Requests", "Successful", "Errors", "Avg Response Time"] as const;

/**
 * The four stat cards (spec section 2), from the server's summary over every row the filters
 * match. The average's colour (green under 100 ms, amber under 500, else red) comes with a word.
 */
export function LogStats({
  summary,
  filtered,
  updating,
  stale,
}: {
  summary: LogSummaryDto | undefined;
  filtered: boolean;
  updating: boolean;
  stale: boolean;
}) {
  return (
    <section
      aria-label="Request totals"
      aria-busy={updating || summary === undefined}
      className={cn("grid gap-4 transition-opacity sm:grid-cols-2 xl:grid-cols-4", stale && "opacity-60")}
    >
      {summary === undefined ? (
        TITLES.map((title) => <StatSkeleton key={title} title={title} />)
      ) : (
        <>
          <StatCard
            title="Total Requests"
            icon={Activity}
            value={formatNumber(summary.total)}
            caption={filtered ? "Matching the current filters" : "All logged requests"}
          />
          <StatCard title="Successful" icon={CircleCheck} value={formatNumber(summary.successful)} caption={successRateText(summary)} />
          <StatCard title="Errors" icon={CircleAlert} value={formatNumber(summary.errors)} caption={errorRateText(summary)} />
          <AverageCard ms={summary.averageResponseTime} />
        </>
      )}
    </section>
  );
}

function AverageCard({ ms }: { ms: number | null }) {
  if (ms === null) return <StatCard title="Avg Response Time" icon={Timer} value={averageText(null)} caption="No requests" />;
  const speed = SPEED[speedBand(ms)];
  return (
    <StatCard
      title="Avg Response Time"
      icon={Timer}
      value={averageText(ms)}
      valueClassName={speed.className}
      caption={
        <span className={speed.className}>
          <span className="font-medium">{speed.label}</span> <span className="text-muted-foreground">({speed.hint})</span>
        </span>
      }
    />
  );
}
