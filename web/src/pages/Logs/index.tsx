import { FilterX, ScrollText, SearchX } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import type { LogEntryDto } from "@contract/logs";
import { useExportLogs, useLogList, useLogSummary } from "@/api/logs";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { NoPermission } from "@/components/ui/no-permission";
import { PageHeader } from "@/components/ui/page-header";
import { QueryError } from "@/components/ui/query-error";
import { useCan } from "@/hooks/use-permission";
import { LogDetailSheet } from "./components/log-detail-sheet";
import { rowButtonSelector } from "./components/log-row";
import { LogStats } from "./components/log-stats";
import { LogTable } from "./components/log-table";
import { LogToolbar } from "./components/log-toolbar";
import { StaleNotice } from "./components/stale-notice";
import { filtersToApiQuery, hasActiveFilters, NO_FILTERS } from "./lib/filters";
import { flattenPages } from "./lib/pages";
import { useLogFilters } from "./use-log-filters";

const TITLE = "Request Logs";
const DESCRIPTION = "Every request to the MCP, OAuth, proxy and admin endpoints";

/**
 * Request Logs (spec section 2; docs/decisions.md#request-log, #csv-export): the server's totals
 * over the current filters, the filtered log a page at a time (virtualised, so a million stored
 * rows cost no more than a hundred), a detail panel per request and the CSV export of every
 * matching row. Filters live in the address bar. Reading needs logs.read.
 */
export default function LogsPage() {
  const canRead = useCan("logs.read");
  if (!canRead) {
    return (
      <div className="space-y-6">
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <NoPermission what="request logs" />
      </div>
    );
  }
  return <RequestLogs />;
}

function RequestLogs() {
  const { filters, setFilters } = useLogFilters();
  const filterQuery = filtersToApiQuery(filters);
  const filtered = hasActiveFilters(filters);
  const { list, poll, refresh } = useLogList(filterQuery, true);
  const summary = useLogSummary(filterQuery, true);
  const exportLogs = useExportLogs();

  const rows = useMemo(() => flattenPages(list.data?.pages ?? []), [list.data]);
  const [detail, setDetail] = useState<{ entry: LogEntryDto; open: boolean } | null>(null);
  const onOpen = useCallback((entry: LogEntryDto) => setDetail({ entry, open: true }), []);
  // Focus goes back to the row's button (when the row is still rendered), else to the list.
  const onDetailCloseAutoFocus = (event: Event) => {
    if (!detail) return;
    const target =
      document.querySelector<HTMLElement>(rowButtonSelector(detail.entry.id)) ??
      document.querySelector<HTMLElement>('[role="region"][aria-label="Request log"]');
    if (target) {
      event.preventDefault();
      target.focus();
    }
  };

  const [manualRefresh, setManualRefresh] = useState(false);
  const refreshAll = async () => {
    setManualRefresh(true);
    try {
      await Promise.all([refresh(), summary.refetch()]);
    } finally {
      setManualRefresh(false);
    }
  };
  const refreshing =
    manualRefresh ||
    poll.isFetching ||
    (summary.isFetching && summary.data !== undefined) ||
    (list.isRefetching && !list.isFetchingNextPage);

  const { fetchNextPage } = list;
  const loadMore = useCallback(() => fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);

  // A query with nothing to show has failed; one that has data but could not refresh says so quietly.
  const listError = list.error && !list.data ? list.error : null;
  const summaryError = summary.error && !summary.data ? summary.error : null;
  const staleError = (list.data && list.error) || poll.error || (summary.data && summary.error) || null;

  return (
    <div className="space-y-6">
      <PageHeader title={TITLE} description={DESCRIPTION} onRefresh={() => void refreshAll()} refreshing={refreshing} />

      {listError && summaryError ? (
        <QueryError
          error={listError}
          onRetry={() => void refreshAll()}
          retrying={list.isFetching || summary.isFetching}
          title="The request log could not be loaded."
        />
      ) : summaryError ? (
        <QueryError
          error={summaryError}
          onRetry={() => void summary.refetch()}
          retrying={summary.isFetching}
          title="The request totals could not be loaded."
        />
      ) : (
        <LogStats summary={summary.data} filtered={filtered} updating={summary.isFetching} stale={summary.isPlaceholderData} />
      )}

      <LogToolbar
        filters={filters}
        onChange={setFilters}
        onExport={() => exportLogs.mutate(filterQuery)}
        exporting={exportLogs.isPending}
      />

      {staleError && !listError && <StaleNotice error={staleError} onRetry={() => void refreshAll()} retrying={refreshing} />}

      {listError ? (
        !summaryError && (
          <QueryError
            error={listError}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
            title="The request log could not be loaded."
          />
        )
      ) : !list.isPending && rows.length === 0 ? (
        <EmptyState
          icon={filtered ? SearchX : ScrollText}
          title="No logs found"
          description={filtered ? "No logs match your current filters." : "No API requests have been logged yet."}
          action={
            filtered ? (
              <Button variant="outline" onClick={() => setFilters(NO_FILTERS)}>
                <FilterX aria-hidden="true" />
                Clear filters
              </Button>
            ) : undefined
          }
        />
      ) : (
        <Card className="overflow-hidden">
          <LogTable
            key={filterQuery}
            rows={rows}
            loading={list.isPending}
            total={summary.isPlaceholderData ? undefined : summary.data?.total}
            hasNextPage={list.hasNextPage}
            fetchingNextPage={list.isFetchingNextPage}
            onLoadMore={loadMore}
            selectedId={detail?.open ? detail.entry.id : null}
            onOpen={onOpen}
          />
        </Card>
      )}

      <LogDetailSheet
        entry={detail?.entry ?? null}
        open={detail?.open ?? false}
        onOpenChange={(open) => setDetail((d) => d && { ...d, open })}
        onCloseAutoFocus={onDetailCloseAutoFocus}
      />
    </div>
  );
}
