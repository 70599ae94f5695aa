/**
 * The request log (spec sections 2, 7 and 9; docs/decisions.md#request-log, #csv-export): the list
 * a page at a time by cursor, the stat cards' totals, one entry's detail and the CSV export, all
 * over the same filters (the API query string of pages/Logs/lib/filters.ts). The list and the
 * totals poll every 30 s; a poll asks for the first page only and folds it into the pages already
 * loaded.
 */
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { logCsvFileName, type LogEntryDetailDto, type LogEntryDto, type LogSummaryDto } from "@contract/logs";
import { TIMINGS } from "@contract/limits";
import { TOASTS } from "@contract/messages";
import { fileNameFromDisposition } from "@/pages/Logs/lib/export";
import { withQuery } from "@/pages/Logs/lib/filters";
import { mergeNewestPage, type LogPage } from "@/pages/Logs/lib/pages";
import { ApiError, apiFetch, apiRequest } from "./client";
import { useApiMutation } from "./mutation";
import { SESSION_QUERY_KEY } from "./session";

/** Rows a page: enough to fill a tall screen a few times over, small enough to arrive at once. */
export const LOG_PAGE_SIZE = 200;

export const LOGS_QUERY_KEY = ["/api/admin/logs"] as const;
export const logListKey = (filterQuery: string) => [...LOGS_QUERY_KEY, "list", filterQuery] as const;
const logPollKey = (filterQuery: string) => [...LOGS_QUERY_KEY, "list-poll", filterQuery] as const;
export const logSummaryKey = (filterQuery: string) => [...LOGS_QUERY_KEY, "summary", filterQuery] as const;
export const logEntryKey = (id: string) => [...LOGS_QUERY_KEY, "entry", id] as const;

type LogListData = InfiniteData<LogPage, string | undefined>;

/** A 401 means the session ended elsewhere: ask for the session again, which shows the login page. */
async function signedIn<T>(queryClient: QueryClient, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    throw error;
  }
}

/** `GET /api/admin/logs`: an array of entries; the next page's cursor comes in `X-Next-Cursor` (absent on the last page). */
export async function fetchLogPage(filterQuery: string, cursor: string | undefined, signal?: AbortSignal): Promise<LogPage> {
  const params = new URLSearchParams(filterQuery);
  params.set("limit", String(LOG_PAGE_SIZE));
  if (cursor) params.set("cursor", cursor);
  const response = await apiFetch(`/api/admin/logs?${params.toString()}`, { headers: { Accept: "application/json" }, signal });
  const entries = (await response.json()) as LogEntryDto[];
  return { entries, nextCursor: response.headers.get("X-Next-Cursor") || null };
}

/**
 * The list for these filters. Further pages load on demand (`fetchNextPage`) and stay until the
 * filters change or a manual refresh; the poll asks for the first page only. `refresh` goes back
 * to the first page and asks for it again.
 */
export function useLogList(filterQuery: string, enabled: boolean) {
  const queryClient = useQueryClient();
  const list = useInfiniteQuery<LogPage, ApiError, LogListData, ReturnType<typeof logListKey>, string | undefined>({
    queryKey: logListKey(filterQuery),
    queryFn: ({ pageParam, signal }) => signedIn(queryClient, () => fetchLogPage(filterQuery, pageParam, signal)),
    initialPageParam: undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
    // Pages of a filter no longer shown are dropped at once: coming back to it starts fresh.
    gcTime: 0,
  });

  const hasData = list.data !== undefined;
  // The poll: its own query, so it has TanStack's interval, retry and error state. Seeded with a
  // value that is never stale, it first asks after one interval (the list has just been fetched).
  const poll = useQuery<number, ApiError>({
    queryKey: logPollKey(filterQuery),
    queryFn: async ({ signal }) => {
      const key = logListKey(filterQuery);
      // A refresh or a next page in flight would overwrite the fold; the next poll comes soon enough.
      if (queryClient.isFetching({ queryKey: key, exact: true }) > 0) return Date.now();
      const head = await signedIn(queryClient, () => fetchLogPage(filterQuery, undefined, signal));
      queryClient.setQueryData<LogListData>(key, (old) => mergeNewestPage(old, head));
      return Date.now();
    },
    enabled: enabled && hasData,
    initialData: 0,
    staleTime: Infinity,
    gcTime: 0,
    refetchInterval: TIMINGS.logsPollMs,
  });

  const { refetch } = list;
  const refresh = useCallback(async () => {
    queryClient.setQueryData<LogListData>(
      logListKey(filterQuery),
      (old) => old && { pages: old.pages.slice(0, 1), pageParams: old.pageParams.slice(0, 1) },
    );
    await refetch();
  }, [queryClient, filterQuery, refetch]);

  return { list, poll, refresh };
}

/** The four stat cards, computed by the server over every matching row; polled with the list. */
export function useLogSummary(filterQuery: string, enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery<LogSummaryDto, ApiError>({
    queryKey: logSummaryKey(filterQuery),
    queryFn: ({ signal }) =>
      signedIn(
        queryClient,
        async () =>
          (
            await apiFetch(withQuery("/api/admin/logs/summary", filterQuery), { headers: { Accept: "application/json" }, signal })
          ).json() as Promise<LogSummaryDto>,
      ),
    enabled,
    refetchInterval: TIMINGS.logsPollMs,
    // The numbers change in place when the filters do (no skeleton flash); back on a filter, ask again.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** One entry's detail panel: the entry, its safe headers and the tool call it made. */
export function useLogEntry(id: string | null) {
  const queryClient = useQueryClient();
  return useQuery<LogEntryDetailDto, ApiError>({
    queryKey: logEntryKey(id ?? ""),
    queryFn: () => signedIn(queryClient, () => apiRequest<LogEntryDetailDto>("GET", `/api/admin/logs/${encodeURIComponent(id ?? "")}`)),
    enabled: id !== null,
  });
}

/**
 * Every row matching the filters (docs/decisions.md#csv-export), as the server's CSV (not only the
 * rows loaded here). Fetched rather than linked so a failure is a toast with the server's reason,
 * not a saved error page.
 */
export async function downloadLogsCsv(filterQuery: string): Promise<string> {
  const response = await apiFetch(withQuery("/api/admin/logs/export", filterQuery), { headers: { Accept: "text/csv" } });
  const blob = await response.blob();
  const fileName = fileNameFromDisposition(response.headers.get("Content-Disposition")) ?? logCsvFileName(new Date());
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the link; the blob may go once the browser has taken it.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return fileName;
}

export function useExportLogs() {
  return useApiMutation<string, string>({
    request: downloadLogsCsv,
    failure: (error) => ({ title: TOASTS.logs.exportFailedTitle, description: error.serverMessage ?? error.message }),
  });
}
