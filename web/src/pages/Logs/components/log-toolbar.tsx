import { Download, Search } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { METHOD_OPTIONS, OUTCOME_OPTIONS, SEARCH_MAX_LENGTH, STATUS_OPTIONS, type LogFilters } from "../lib/filters";
import { FilterSelect } from "./filter-select";

/** How long typing pauses before the search is sent. */
const SEARCH_DEBOUNCE_MS = 250;

interface LogToolbarProps {
  filters: LogFilters;
  onChange: (patch: Partial<LogFilters>) => void;
  onExport: () => void;
  exporting: boolean;
}

/**
 * Search, status and method filters and the CSV export (spec section 2), the MCP outcome filter,
 * and the switch that adds the console's own API calls to the client traffic shown by default.
 */
export function LogToolbar({ filters, onChange, onExport, exporting }: LogToolbarProps) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchBox value={filters.search} onSearch={(search) => onChange({ search })} />
        <Button variant="outline" className="sm:ml-auto" onClick={onExport} disabled={exporting} aria-busy={exporting || undefined}>
          {exporting ? <Spinner /> : <Download aria-hidden="true" />}
          {exporting ? "Exporting..." : "Export CSV"}
        </Button>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-center">
        <FilterSelect
          id="logs-status"
          label="Filter by status"
          value={filters.status}
          options={STATUS_OPTIONS}
          onChange={(status) => onChange({ status })}
          className="sm:w-48"
        />
        <FilterSelect
          id="logs-method"
          label="Filter by method"
          value={filters.method}
          options={METHOD_OPTIONS}
          onChange={(method) => onChange({ method })}
          className="sm:w-40"
        />
        <FilterSelect
          id="logs-outcome"
          label="Filter by MCP outcome"
          value={filters.outcome}
          options={OUTCOME_OPTIONS}
          onChange={(outcome) => onChange({ outcome })}
          className="sm:w-52"
        />
        <div className="flex h-9 items-center gap-2">
          <Switch
            id="logs-console"
            checked={filters.console}
            onCheckedChange={(on) => onChange({ console: on })}
            aria-describedby="logs-console-hint"
          />
          <Label htmlFor="logs-console" className="whitespace-nowrap font-normal">
            Console API calls
          </Label>
          <span id="logs-console-hint" className="sr-only">
            Also show the admin console&apos;s own requests; by default the log shows MCP, OAuth and proxy traffic.
          </span>
        </div>
      </div>
    </div>
  );
}

/**
 * The input answers every keystroke; the search goes to the address bar (and the server) once
 * typing pauses. A search changed from outside (Clear filters) is shown in the input.
 */
function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  // The latest callback, so a re-render of the screen (a poll) does not restart the pause.
  const latestOnSearch = useRef(onSearch);
  useEffect(() => {
    latestOnSearch.current = onSearch;
  });

  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    setText(value);
  }, [value]);

  useEffect(() => {
    if (text === sent.current) return;
    const timer = window.setTimeout(() => {
      sent.current = text;
      latestOnSearch.current(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  return (
    <div className="relative w-full sm:max-w-md sm:flex-1">
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input
        type="search"
        aria-label="Search logs"
        placeholder="Search endpoints, methods, or client IDs..."
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setText(event.target.value)}
        className="pl-9 max-sm:placeholder:text-[13px]"
      />
    </div>
  );
}
