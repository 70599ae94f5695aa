import { Lock, Server } from "lucide-react";
import type { UseQueryResult } from "@tanstack/react-query";
import { CONFIG_KEYS, type ConfigEntry } from "@contract/integrations";
import type { ApiError } from "@/api/client";
import { useMcpConnection } from "@/api/connect";
import { OriginWarning } from "@/components/connect/connect-ai-client";
import { Skeleton } from "@/components/ui/skeleton";
import { formatNumber } from "@/lib/format";
import { DEFAULT_PORT, entryOf, numberOf } from "../lib/config-entries";
import { QueryError } from "@/components/ui/query-error";
import { SectionCard } from "./section-card";

interface Row {
  label: string;
  value: string | null;
  masked?: boolean | undefined;
}

const onOff = (value: string | null): string | null => (value === null ? null : value === "true" ? "On" : "Off");

function rowsOf(entries: readonly ConfigEntry[] | null | undefined): Row[] {
  const text = (key: string) => entryOf(entries, key)?.value ?? null;
  const masked = (key: string) => entryOf(entries, key)?.masked;
  const perHour = (key: string) => (entryOf(entries, key) ? `${formatNumber(numberOf(entries, key, 0))} requests/hour` : null);
  const timeout = entryOf(entries, CONFIG_KEYS.upstreamTimeoutMs)
    ? `${formatNumber(numberOf(entries, CONFIG_KEYS.upstreamTimeoutMs, 0))} ms`
    : null;
  return [
    // Spec section 2: the port is 5000 when the config has none
    // (docs/decisions.md#environment-and-port: otherwise the real one).
    { label: "Port", value: text(CONFIG_KEYS.port) ?? DEFAULT_PORT },
    { label: "Public URL (PUBLIC_URL)", value: text(CONFIG_KEYS.publicUrl) },
    { label: "Secret key (JWT and encryption)", value: text(CONFIG_KEYS.secretKey), masked: masked(CONFIG_KEYS.secretKey) },
    { label: "Database URL", value: text(CONFIG_KEYS.databaseUrl), masked: masked(CONFIG_KEYS.databaseUrl) },
    { label: "Node environment", value: text(CONFIG_KEYS.nodeEnv) },
    { label: "Bitbucket API URL", value: text(CONFIG_KEYS.bitbucketApiUrl) },
    { label: "Upstream timeout", value: timeout },
    { label: "Atlassian hourly budget", value: perHour(CONFIG_KEYS.atlassianHourlyBudget) },
    { label: "Bitbucket hourly budget", value: perHour(CONFIG_KEYS.bitbucketHourlyBudget) },
    {
      label: "MCP streams per process",
      value: entryOf(entries, CONFIG_KEYS.mcpMaxStreams) ? formatNumber(numberOf(entries, CONFIG_KEYS.mcpMaxStreams, 0)) : null,
    },
    { label: "Legacy HTTP+SSE transport", value: onOff(text(CONFIG_KEYS.mcpLegacySse)) },
    {
      label: "Request log",
      value:
        text(CONFIG_KEYS.requestLog) === null
          ? null
          : text(CONFIG_KEYS.requestLog) === "true"
            ? `On, kept ${formatNumber(numberOf(entries, CONFIG_KEYS.logRetentionDays, 0))} days`
            : "Off",
    },
  ];
}

/** Server Settings (spec section 2): read-only, secrets masked by the server. */
export function ServerSettingsCard({ config }: { config: UseQueryResult<ConfigEntry[] | null, ApiError> }) {
  const connection = useMcpConnection();
  return (
    <SectionCard id="server-settings" icon={Server} title="Server Settings" description="Read-only: set through the server's environment.">
      {config.isPending ? (
        <div className="grid gap-3" role="status" aria-label="Loading server settings">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="flex items-center justify-between gap-4">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-4 w-40" />
            </div>
          ))}
        </div>
      ) : config.error ? (
        <QueryError error={config.error} onRetry={() => void config.refetch()} retrying={config.isFetching} />
      ) : (
        <>
          {connection.data && <OriginWarning publicUrl={connection.data.publicUrl} />}
          <dl className="mt-3 divide-y divide-border text-sm first:mt-0">
            {rowsOf(config.data).map((row) => (
              <div
                key={row.label}
                className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4"
              >
                <dt className="shrink-0 text-muted-foreground">{row.label}</dt>
                <dd className="flex min-w-0 items-center gap-1.5 sm:justify-end">
                  {row.value === null ? (
                    <span className="text-muted-foreground">Not set</span>
                  ) : (
                    <>
                      {row.masked && (
                        <>
                          <Lock className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
                          <span className="sr-only">Masked:</span>
                        </>
                      )}
                      <span className="min-w-0 wrap-anywhere font-mono text-[0.8125rem] tabular-nums sm:text-right">{row.value}</span>
                    </>
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </SectionCard>
  );
}
