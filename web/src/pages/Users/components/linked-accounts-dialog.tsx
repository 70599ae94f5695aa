import { Link2Off, Unlink } from "lucide-react";
import { useState } from "react";
import { INTEGRATION_LABELS, type AccountLinkDto } from "@contract/accounts";
import type { UserDto } from "@contract/users";
import { useUnlinkUserLink, useUserLinks } from "@/api/accounts";
import { AccountLinkFacts, LinkProblem, LinkStateBadge } from "@/components/account-link";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { LoadingState } from "@/components/ui/spinner";
import { INTEGRATION_SERVICES } from "@/lib/account-links";

interface LinkedAccountsDialogProps {
  user: UserDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
  /** users.write: each link can be removed. */
  canWrite: boolean;
}

/**
 * A user's linked Atlassian and Bitbucket accounts (issue 27, docs/decisions.md D25): who they
 * are, how and since when they are linked, whether they work. Never a token. With users.write an
 * administrator can unlink one (the person links again on My accounts).
 */
export function LinkedAccountsDialog({ user, open, onOpenChange, onCloseAutoFocus, canWrite }: LinkedAccountsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="sm:max-w-xl"
        onCloseAutoFocus={onCloseAutoFocus}
        // The links arrive after the dialog opens: start on the dialog itself (its title is read out).
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Linked accounts</DialogTitle>
          <DialogDescription>
            The Atlassian and Bitbucket accounts {user?.username} linked on My accounts, used where Bridgekeeper acts as each person. Tokens
            are never shown.
          </DialogDescription>
        </DialogHeader>
        {open && user && <LinksList key={user.id} user={user} canWrite={canWrite} />}
      </DialogContent>
    </Dialog>
  );
}

function LinksList({ user, canWrite }: { user: UserDto; canWrite: boolean }) {
  const links = useUserLinks(user.id);
  if (links.isPending) return <LoadingState label="Loading linked accounts..." className="py-10" />;
  if (links.error)
    return (
      <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2.5 text-sm text-destructive">
        {links.error.serverMessage ?? links.error.message}
      </p>
    );
  const list = links.data ?? [];
  if (list.length === 0)
    return (
      <div className="flex flex-col items-center px-6 py-8 text-center">
        <span className="mb-3 flex size-11 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Link2Off className="size-5" aria-hidden="true" />
        </span>
        <p className="text-sm font-medium">No linked accounts</p>
        <p className="mt-1 text-sm text-muted-foreground">{user.username} has not linked an Atlassian or Bitbucket account.</p>
      </div>
    );
  return (
    <ul aria-label={`Linked accounts of ${user.username}`} className="max-h-[60dvh] space-y-3 overflow-y-auto">
      {list.map((link) => (
        <LinkItem key={link.integration} user={user} link={link} canWrite={canWrite} />
      ))}
    </ul>
  );
}

function LinkItem({ user, link, canWrite }: { user: UserDto; link: AccountLinkDto; canWrite: boolean }) {
  const unlink = useUnlinkUserLink();
  const [confirming, setConfirming] = useState(false);
  const label = INTEGRATION_LABELS[link.integration];
  const headingId = `user-link-${link.integration}`;
  return (
    <li aria-labelledby={headingId} className="space-y-3 rounded-md border border-border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold">
          {label} <span className="font-normal text-muted-foreground">· {INTEGRATION_SERVICES[link.integration]}</span>
        </h3>
        <LinkStateBadge state={link.state} />
      </div>
      <LinkProblem link={link} />
      <AccountLinkFacts link={link} compact />
      {canWrite && (
        <div className="flex justify-end border-t border-border pt-3">
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:text-destructive"
            aria-label={`Unlink the ${label} account of ${user.username}`}
            onClick={() => setConfirming(true)}
          >
            <Unlink aria-hidden="true" />
            Unlink
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Unlink the ${label} account of ${user.username}?`}
        description={
          <>
            Bridgekeeper forgets its tokens for {link.account.displayName}. Where it acts as each person, {user.username} cannot reach{" "}
            {INTEGRATION_SERVICES[link.integration]} through it until they link again on My accounts.
          </>
        }
        confirmLabel="Unlink"
        pendingLabel="Unlinking..."
        busy={unlink.isPending}
        onConfirm={() =>
          unlink.mutate(
            { userId: user.id, username: user.username, integration: link.integration },
            { onSuccess: () => setConfirming(false) },
          )
        }
      />
    </li>
  );
}
