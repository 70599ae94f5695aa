import { useCallback, useMemo } from "react";
import { useSearchParams } from "wouter";
import { filtersToUrlParams, parseFilters, type LogFilters } from "./lib/filters";

/**
 * The filters live in the address bar (a filtered view can be shared and reloaded). Changes
 * replace the history entry: Back leaves the screen rather than stepping through keystrokes.
 */
export function useLogFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseFilters(params), [params]);
  const setFilters = useCallback(
    (patch: Partial<LogFilters>) =>
      setParams((current) => filtersToUrlParams({ ...parseFilters(current), ...patch }, current), { replace: true }),
    [setParams],
  );
  return { filters, setFilters };
}
