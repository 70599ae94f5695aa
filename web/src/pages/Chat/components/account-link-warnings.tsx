import { TriangleAlert } from "lucide-react";
import { Link } from "wouter";
import { MY_ACCOUNTS_PATH, type MyAccountsDto } from "@contract/accounts";
import type { DataSource } from "@contract/chat";
import { chatLinkWarning, integrationsNeedingLink } from "@/lib/account-links";

/**
 * Where a chosen data source answers as each person and the signed-in person has no working link
 * (issue 27): a warning per integration, linking to My accounts. A live region that stays mounted,
 * so the warning is announced when the sources change; it takes no room while empty.
 */
export function AccountLinkWarnings({ my, sources }: { my: MyAccountsDto | null | undefined; sources: readonly DataSource[] }) {
  const needing = integrationsNeedingLink(my, sources);
  return (
    <div role="status" className="space-y-2 empty:hidden">
      {needing.map((entry) => {
        const { before, after } = chatLinkWarning(entry, sources);
        return (
          <p key={entry.integration} className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
            <span>
              {before}
              <Link href={MY_ACCOUNTS_PATH} className="font-medium underline underline-offset-2 hover:text-primary">
                My accounts
              </Link>
              {after}
            </span>
          </p>
        );
      })}
    </div>
  );
}
