import type { AtlassianStatusDto, BitbucketStatusDto } from "@contract/integrations";
import { formatFull } from "@/lib/format";
import { atlassianReachText, bitbucketReachText, checkedText } from "@/lib/integration-reach";
import { cn } from "@/lib/utils";

/** Nothing while nothing is known; else the sentence, and under it when it was checked (its full time on hover). */
function ReachLine({
  text,
  accountId,
  checkedAt,
  className,
}: {
  text: string | null;
  accountId: string | null | undefined;
  checkedAt: string | null | undefined;
  className?: string;
}) {
  if (!text) return null;
  const checked = checkedAt ? new Date(checkedAt) : null;
  return (
    <div className={cn("space-y-0.5 text-xs text-muted-foreground", className)} data-slot="integration-reach">
      {/* Names before ids: the account's id on hover. */}
      <p className="break-words" title={accountId ? `Account ID ${accountId}` : undefined}>
        {text}
      </p>
      {checked && !Number.isNaN(checked.getTime()) && (
        <p>
          <time dateTime={checked.toISOString()} title={formatFull(checked)}>
            {checkedText(checked.toISOString())}
          </time>
        </p>
      )}
    </div>
  );
}

/** "Connects as … · sees 4 projects, 3 spaces · Checked 5m ago" (issue 25). */
export function AtlassianReach({ status, className }: { status: Partial<AtlassianStatusDto> | null | undefined; className?: string }) {
  if (!status?.configured) return null;
  return <ReachLine text={atlassianReachText(status)} accountId={status.account?.id} checkedAt={status.checkedAt} className={className} />;
}

/** "Connects as … · 30 repositories in Bridgekeeper · Checked 5m ago" (issue 25). */
export function BitbucketReach({ status, className }: { status: Partial<BitbucketStatusDto> | null | undefined; className?: string }) {
  if (!status?.configured) return null;
  return <ReachLine text={bitbucketReachText(status)} accountId={status.account?.id} checkedAt={status.checkedAt} className={className} />;
}
