import { CircleAlert, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { INTEGRATION_LABELS, linkErrorMessage, MY_ACCOUNTS_PATH } from "@contract/accounts";
import { ACCOUNT_TOASTS, useMyAccounts } from "@/api/accounts";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/hooks/use-toast";
import { linkOutcomeOf, withoutLinkOutcome, type LinkOutcome } from "@/lib/account-links";
import { AccountCard } from "./components/account-card";

type LinkError = Extract<LinkOutcome, { kind: "error" }>;

/**
 * My accounts (issue 27, docs/decisions.md D25): where Bridgekeeper acts as each person, the person
 * links (and unlinks) their own Atlassian and Bitbucket accounts. Any signed-in user; their own
 * links only. The services send the browser back here with the outcome in the address
 * (`?integration=…&linked=1` or `&link_error=…`): a toast or an alert, and the address is cleaned.
 */
export default function AccountPage() {
  const my = useMyAccounts();
  const linkError = useLinkOutcome();

  return (
    <div className="space-y-6">
      <PageHeader
        title="My accounts"
        description="Where Bridgekeeper acts as each person, it reaches Jira, Confluence and Bitbucket with your own account: link it here."
      />
      {linkError.error && !my.isPending && (
        <LinkErrorAlert
          error={linkError.error}
          siteUrl={my.data?.integrations.find((e) => e.integration === linkError.error!.integration)?.siteUrl ?? null}
          onDismiss={linkError.dismiss}
        />
      )}
      {my.isPending ? (
        <CardsSkeleton />
      ) : my.error ? (
        <QueryError
          title="Your accounts could not be loaded."
          error={my.error}
          onRetry={() => void my.refetch()}
          retrying={my.isFetching}
        />
      ) : (
        <div className="grid items-start gap-6 xl:grid-cols-2">
          {my.data?.integrations.map((entry) => (
            <AccountCard key={entry.integration} entry={entry} />
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * Reads the callback's outcome from the address once: a success toast, or an error kept for the
 * alert; then the address loses those parameters (a reload shows neither again).
 */
function useLinkOutcome(): { error: LinkError | null; dismiss: () => void } {
  const search = useSearch();
  const [, navigate] = useLocation();
  const [error, setError] = useState<LinkError | null>(null);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const outcome = linkOutcomeOf(search);
    if (!outcome || handled.current === search) return;
    handled.current = search;
    if (outcome.kind === "linked") toast({ title: ACCOUNT_TOASTS.linked(outcome.integration) });
    else setError(outcome);
    navigate(`${MY_ACCOUNTS_PATH}${withoutLinkOutcome(search)}`, { replace: true });
  }, [search, navigate]);

  return { error, dismiss: () => setError(null) };
}

function LinkErrorAlert({ error, siteUrl, onDismiss }: { error: LinkError; siteUrl: string | null; onDismiss: () => void }) {
  const label = INTEGRATION_LABELS[error.integration];
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg border border-destructive/30 bg-destructive/10 py-2 pl-4 pr-2 text-sm text-destructive"
    >
      <CircleAlert className="mt-1.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1 space-y-0.5 py-1">
        <p className="font-medium">{label} account not linked</p>
        <p className="text-foreground">{linkErrorMessage(error.code, label, siteUrl)}</p>
      </div>
      <Button variant="ghost" size="icon" className="size-8 shrink-0 hover:bg-destructive/10" aria-label="Dismiss" onClick={onDismiss}>
        <X aria-hidden="true" />
      </Button>
    </div>
  );
}

/** Shaped like the two cards: icon and title, a line, the facts. */
function CardsSkeleton() {
  return (
    <div className="grid gap-6 xl:grid-cols-2" role="status" aria-label="Loading your accounts">
      {[0, 1].map((i) => (
        <Card key={i} className="space-y-4 p-6">
          <div className="flex items-center gap-3">
            <Skeleton className="size-9 rounded-md" />
            <div className="space-y-1.5">
              <Skeleton className="h-4 w-28" />
              <Skeleton className="h-3.5 w-40" />
            </div>
          </div>
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-9 w-44" />
        </Card>
      ))}
    </div>
  );
}
