import { CircleAlert, CircleCheck } from "lucide-react";
import type { ToolCallDto } from "@contract/tool-calls";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import { actedAsText } from "@/lib/account-links";
import { responseTimeText } from "../lib/status";
import { DetailItem, DetailList, DetailSection } from "./detail-list";

/** How an argument reads in the summary: text as it is, anything else as compact JSON, cut at 300 characters. */
function argumentText(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** The tool-call audit entry of a tools/call request (contract/tool-calls.ts): what ran, how it went, what it touched. */
export function ToolCallDetails({ call }: { call: ToolCallDto }) {
  const args = Object.entries(call.arguments);
  return (
    <DetailSection
      title="Tool call"
      aside={
        call.outcome === "ok" ? (
          <Badge variant="success">
            <CircleCheck aria-hidden="true" />
            Succeeded
          </Badge>
        ) : (
          <Badge variant="destructive">
            <CircleAlert aria-hidden="true" />
            Failed
          </Badge>
        )
      }
    >
      <DetailList>
        <DetailItem label="Tool" value={call.tool} mono />
        <DetailItem label="Outcome" value={call.outcome === "ok" ? "Succeeded" : "Failed"} />
        {call.error && <DetailItem label="Error" value={<span className="text-destructive">{call.error}</span>} />}
        <DetailItem label="Duration" value={<span className="tabular-nums">{responseTimeText(call.durationMs)}</span>} />
        <DetailItem label="Called at" value={<Time iso={call.at} as="timestamp" />} />
        <DetailItem label="Client" value={call.clientId} mono />
        {/* Whom the call acted as upstream (issue 27): the shared account, or the person's own account id. */}
        {call.upstreamIdentity && (
          <DetailItem label="Acted as" value={actedAsText(call.upstreamIdentity)} mono={call.upstreamIdentity !== "shared"} />
        )}
      </DetailList>
      <div className="space-y-2">
        <h4 className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Arguments</h4>
        {args.length === 0 ? (
          <p className="text-sm text-muted-foreground">No arguments</p>
        ) : (
          <DetailList className="rounded-md bg-muted/60 p-3">
            {args.map(([name, value]) => (
              <DetailItem key={name} label={name} value={argumentText(value)} mono />
            ))}
          </DetailList>
        )}
      </div>
      <div className="space-y-2">
        <h4 className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Objects touched</h4>
        {call.objects.length === 0 ? (
          <p className="text-sm text-muted-foreground">None</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5">
            {call.objects.map((object) => (
              <li key={object}>
                <Badge variant="outline" className="max-w-full whitespace-normal break-all font-mono">
                  {object}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </div>
    </DetailSection>
  );
}
