import type { AtlassianStatusDto, BitbucketStatusDto } from "@contract/integrations";
import { Badge } from "@/components/ui/badge";
import { formatFull } from "@/lib/format";
import { atlassianReachText, bitbucketReachText, checkedText, productBadges, type ProductBadge } from "@/lib/integration-reach";
import { cn } from "@/lib/utils";

/**
 * Nothing while nothing is known; else the Data Center products found (issue 28), the sentence, and
 * under it when it was checked (its full time on hover).
 */
function ReachLine({
  text,
  products,
  accountId,
  checkedAt,
  className,
}: {
  text: string | null;
  products: ProductBadge[];
  accountId: string | null | undefined;
  checkedAt: string | null | undefined;
  className?: string;
}) {
  if (!text && products.length === 0) return null;
  const checked = checkedAt ? new Date(checkedAt) : null;
  return (
    <div className={cn("space-y-0.5 text-xs text-muted-foreground", className)} data-slot="integration-reach">
      {products.length > 0 && (
        <ul aria-label="Products" className="flex flex-wrap gap-1.5 pb-1">
          {products.map((product) => (
            <li key={product.label}>
              {/* Not the card's status badge (data-slot "badge"): a name, in the neutral outline. */}
              <Badge variant="outline" data-slot="integration-product" title={product.title} className="tabular-nums">
                {product.label}
              </Badge>
            </li>
          ))}
        </ul>
      )}
      {/* Names before ids: the account's id on hover. */}
      {text && (
        <p className="break-words" title={accountId ? `Account ID ${accountId}` : undefined}>
          {text}
        </p>
      )}
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

/** "Jira Data Center 10.3", "Connects as … · sees 4 projects, 3 spaces · Checked 5m ago" (issues 25 and 28). */
export function AtlassianReach({ status, className }: { status: Partial<AtlassianStatusDto> | null | undefined; className?: string }) {
  if (!status?.configured) return null;
  return (
    <ReachLine
      text={atlassianReachText(status)}
      products={productBadges([status.jiraProduct, status.confluenceProduct])}
      accountId={status.account?.id}
      checkedAt={status.checkedAt}
      className={className}
    />
  );
}

/** "Bitbucket Data Center 9.4", "Connects as … · 30 repositories in Bridgekeeper · Checked 5m ago" (issues 25 and 28). */
export function BitbucketReach({ status, className }: { status: Partial<BitbucketStatusDto> | null | undefined; className?: string }) {
  if (!status?.configured) return null;
  return (
    <ReachLine
      text={bitbucketReachText(status)}
      products={productBadges([status.product])}
      accountId={status.account?.id}
      checkedAt={status.checkedAt}
      className={className}
    />
  );
}
