import { CircleCheck, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { CREDENTIAL_KIND_LABELS, LINK_STATE_LABELS, type AccountLinkDto, type LinkState } from "@contract/accounts";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import { cn } from "@/lib/utils";

/** A link's state: "Working" (green) or "Needs re-linking" (amber: the person can mend it), always with an icon. */
export function LinkStateBadge({ state }: { state: LinkState }) {
  return state === "working" ? (
    <Badge variant="success">
      <CircleCheck aria-hidden="true" />
      {LINK_STATE_LABELS.working}
    </Badge>
  ) : (
    <Badge variant="warning">
      <TriangleAlert aria-hidden="true" />
      {LINK_STATE_LABELS["needs-relinking"]}
    </Badge>
  );
}

/** Why a link needs re-linking, as the server said it (nothing when it works). */
export function LinkProblem({ link, className }: { link: AccountLinkDto; className?: string }) {
  if (link.state !== "needs-relinking") return null;
  return (
    <p className={cn("flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2.5 text-sm", className)}>
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
      <span>{link.problem ?? "The service no longer accepts this link. Link the account again."}</span>
    </p>
  );
}

/** Up to this many scopes show as badges at once; more sit behind a disclosure. */
const FEW_SCOPES = 4;

function ScopeList({ scopes, className }: { scopes: string[]; className?: string }) {
  return (
    <ul aria-label="Scopes granted" className={cn("flex flex-wrap gap-1", className)}>
      {scopes.map((scope) => (
        <li key={scope} className="max-w-full">
          <Badge variant="secondary" className="max-w-full whitespace-normal break-all font-mono font-normal">
            {scope}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

/** The account's second line: its e-mail when known, else its id. */
export const accountSecondary = (link: AccountLinkDto): string => link.account.email ?? link.account.accountId;

/**
 * What a link is, never its token: the account, the site (Atlassian), since when, when it was last
 * used, how it was linked and the scopes granted. `compact` for the Users screen's dialog.
 */
export function AccountLinkFacts({ link, compact = false }: { link: AccountLinkDto; compact?: boolean }) {
  const rows: { label: string; value: ReactNode }[] = [
    {
      label: "Account",
      value: (
        <span className="min-w-0">
          <span className="block font-medium">{link.account.displayName}</span>
          <span className="block break-all font-mono text-xs text-muted-foreground" title={`Account id ${link.account.accountId}`}>
            {accountSecondary(link)}
          </span>
        </span>
      ),
    },
  ];
  if (link.siteUrl) rows.push({ label: "Site", value: <span className="break-all font-mono text-[0.8125rem]">{link.siteUrl}</span> });
  rows.push(
    { label: "Linked", value: <Time iso={link.linkedAt} as="dateTime" /> },
    { label: "Last used", value: link.lastUsedAt ? <Time iso={link.lastUsedAt} as="relative" /> : "Never" },
    { label: "Linked with", value: CREDENTIAL_KIND_LABELS[link.kind] },
  );
  if (!compact || link.scopes.length > 0)
    rows.push({
      label: "Scopes",
      value:
        link.scopes.length === 0 ? (
          <span className="text-muted-foreground">Not limited: a personal token can do what the account can</span>
        ) : link.scopes.length <= FEW_SCOPES ? (
          <ScopeList scopes={link.scopes} />
        ) : (
          // Many scopes (a 3LO grant has about twenty): a disclosure, so the facts stay short.
          <details>
            <summary className="w-fit cursor-pointer rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
              {link.scopes.length} scopes granted
            </summary>
            <ScopeList scopes={link.scopes} className="mt-2" />
          </details>
        ),
    });
  return (
    <dl className="grid grid-cols-[minmax(0,6.5rem)_minmax(0,1fr)] gap-x-4 gap-y-2.5 text-sm">
      {rows.map((row) => (
        <div key={row.label} className="contents">
          <dt className="text-muted-foreground">{row.label}</dt>
          <dd className="min-w-0 break-words">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
