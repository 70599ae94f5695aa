import { Gauge, KeyRound, Radio, Zap, type LucideIcon } from "lucide-react";
import { formatNumber } from "@/lib/format";
import type { RateLimits } from "../lib/config-entries";
import { SectionCard } from "./section-card";

interface Limit {
  icon: LucideIcon;
  title: string;
  primary: string;
  secondary: string;
}

function limitsOf(l: RateLimits): Limit[] {
  return [
    {
      icon: Zap,
      title: "API",
      primary: `${formatNumber(l.apiRequestsPerMinute)} requests per minute`,
      secondary: `Burst of ${formatNumber(l.apiBurst)}, per client`,
    },
    {
      icon: KeyRound,
      title: "OAuth",
      primary: `${formatNumber(l.oauthRequests)} requests per ${formatNumber(l.oauthWindowMinutes)}-minute window`,
      secondary: "Per IP address",
    },
    {
      icon: Radio,
      title: "SSE",
      primary: `${formatNumber(l.sseStreamsPerMinute)} new streams per minute`,
      secondary: `Maximum ${formatNumber(l.sseMaxConcurrent)} concurrent`,
    },
  ];
}

/**
 * Rate Limiting (spec sections 2 and 9, docs/decisions.md#rate-limits): display only, the values
 * the server enforces.
 */
export function RateLimitsCard({ limits, fromDefaults }: { limits: RateLimits; fromDefaults: boolean }) {
  return (
    <SectionCard
      id="rate-limits"
      icon={Gauge}
      title="Rate Limiting"
      description={
        fromDefaults
          ? "The default limits; the server's own values could not be read."
          : "The limits in force. A request over a limit gets 429 with Retry-After."
      }
    >
      <ul className="grid gap-3 sm:grid-cols-3">
        {limitsOf(limits).map(({ icon: Icon, title, primary, secondary }) => (
          <li key={title} className="rounded-md border border-border p-4">
            <p className="flex items-center gap-2 text-xs font-medium text-muted-foreground">
              <Icon className="size-3.5" aria-hidden="true" />
              {title}
            </p>
            <p className="mt-2 text-sm font-semibold tabular-nums">{primary}</p>
            <p className="mt-0.5 text-xs text-muted-foreground tabular-nums">{secondary}</p>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
