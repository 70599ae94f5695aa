import { useQuery } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import type { LogEntryDto } from "@contract/logs";
import type { UserDto } from "@contract/users";
import { useLogEntry } from "@/api/logs";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { useCan } from "@/hooks/use-permission";
import { formatFull } from "@/lib/format";
import { cn } from "@/lib/utils";
import { isSuccessStatus, responseTimeText } from "../lib/status";
import { DetailItem, DetailList, DetailSection } from "./detail-list";
import { MethodBadge, OutcomeBadge, StatusCodeBadge, StatusIcon } from "./log-badges";
import { ToolCallDetails } from "./tool-call-details";

interface LogDetailSheetProps {
  /** The row that was opened: shown at once, while the detail (headers, tool call) loads. */
  entry: LogEntryDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}

/**
 * One request in full, in a panel from the right (full width on a phone): the entry, the headers
 * the server kept (never a credential or a cookie) and the tool call's audit entry when it made one.
 */
export function LogDetailSheet({ entry, open, onOpenChange, onCloseAutoFocus }: LogDetailSheetProps) {
  const detail = useLogEntry(entry?.id ?? null);
  const shown = detail.data ?? entry;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        className={cn(
          "inset-y-0 left-auto right-0 top-0 h-dvh max-h-dvh w-full translate-x-0 translate-y-0 content-start gap-5 rounded-none border-y-0 border-r-0 sm:max-w-xl sm:rounded-none",
          "data-[state=open]:animate-fade-in data-[state=closed]:animate-fade-out",
          "transition-transform duration-200 ease-out starting:translate-x-8 motion-reduce:transition-none motion-reduce:starting:translate-x-0",
        )}
      >
        <DialogHeader>
          <DialogTitle>Request details</DialogTitle>
          <DialogDescription className="break-all font-mono text-[13px]">
            {shown ? `${shown.method} ${shown.endpoint}` : "Loading..."}
          </DialogDescription>
        </DialogHeader>

        {shown && (
          <div className="flex flex-wrap items-center gap-2">
            <StatusIcon statusCode={shown.statusCode} outcome={shown.outcome} />
            <StatusCodeBadge statusCode={shown.statusCode} />
            {/* An MCP answer says how it ended (a tool error under a 200 is no success); any other request, its status. */}
            {shown.outcome ? (
              <OutcomeBadge outcome={shown.outcome} />
            ) : (
              <span className={cn("text-sm font-medium", isSuccessStatus(shown.statusCode) ? "text-success" : "text-destructive")}>
                {isSuccessStatus(shown.statusCode) ? "Success" : "Error"}
              </span>
            )}
            <span aria-hidden="true" className="text-muted-foreground">
              ·
            </span>
            <MethodBadge method={shown.method} />
            <span className="text-sm tabular-nums text-muted-foreground">{responseTimeText(shown.responseTime)}</span>
          </div>
        )}

        {shown?.error && (
          <p role="note" className="rounded-md border border-border bg-muted/50 px-3 py-2 text-sm">
            <span className="font-medium">{shown.outcome === "tool_error" ? "The tool answered: " : "The JSON-RPC error: "}</span>
            {shown.error}
          </p>
        )}

        {shown && (
          <DetailList>
            <DetailItem label="Method" value={shown.method} mono />
            <DetailItem label="Endpoint" value={shown.endpoint} mono />
            <DetailItem label="Status" value={<span className="tabular-nums">{shown.statusCode}</span>} />
            <DetailItem label="Time" value={<time dateTime={shown.createdAt}>{formatFull(shown.createdAt)}</time>} />
            <DetailItem label="Response time" value={<span className="tabular-nums">{responseTimeText(shown.responseTime)}</span>} />
            {shown.clientName && <DetailItem label="Client" value={shown.clientName} />}
            <DetailItem label="Client ID" value={shown.clientId} mono />
            <DetailItem
              label="User"
              value={
                shown.userId && (shown.userName ? <NamedUser name={shown.userName} id={shown.userId} /> : <UserValue id={shown.userId} />)
              }
              mono
            />
            <DetailItem label="IP address" value={shown.ipAddress} mono />
            <DetailItem label="User agent" value={shown.userAgent} mono />
            <DetailItem label="Request ID" value={detail.data ? detail.data.requestId : <Skeleton className="h-4 w-48" />} mono />
            <DetailItem label="JSON-RPC method" value={shown.rpcMethod} mono />
            <DetailItem label="Tool" value={shown.toolName} mono />
          </DetailList>
        )}

        {detail.error ? (
          <QueryError
            error={detail.error}
            onRetry={() => void detail.refetch()}
            retrying={detail.isFetching}
            title="The request's details could not be loaded."
          />
        ) : !detail.data ? (
          <DetailSection title="Headers">
            <div className="space-y-2" aria-hidden="true">
              <Skeleton className="h-4 w-3/4" />
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="h-4 w-1/2" />
            </div>
            <p role="status" className="sr-only">
              Loading...
            </p>
          </DetailSection>
        ) : (
          <>
            <HeadersSection headers={detail.data.headers} />
            {detail.data.toolCall && <ToolCallDetails call={detail.data.toolCall} />}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function HeadersSection({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  return (
    <DetailSection title="Headers">
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">No headers recorded</p>
      ) : (
        <DetailList className="sm:grid-cols-[minmax(0,11rem)_minmax(0,1fr)]">
          {entries.map(([name, value]) => (
            <DetailItem key={name} label={name} value={value} mono monoLabel />
          ))}
        </DetailList>
      )}
      <p className="flex items-start gap-1.5 text-xs text-muted-foreground">
        <ShieldCheck className="mt-px size-3.5 shrink-0" aria-hidden="true" />
        Only headers safe to show are kept: credentials and cookies never are.
      </p>
    </DetailSection>
  );
}

function NamedUser({ name, id }: { name: string; id: string }) {
  return (
    <>
      <span className="font-sans font-medium">{name}</span>
      <span className="block text-xs text-muted-foreground">{id}</span>
    </>
  );
}

/** The user's name when the viewer may read users (GET /api/users/{id}), and always the id. */
function UserValue({ id }: { id: string }) {
  const canReadUsers = useCan("users.read");
  const user = useQuery<UserDto | null>({ queryKey: ["/api/users", id], enabled: canReadUsers });
  if (!user.data) return id;
  return (
    <>
      <span className="font-sans font-medium">{user.data.username}</span>
      <span className="block text-xs text-muted-foreground">{id}</span>
    </>
  );
}
