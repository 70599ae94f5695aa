import { ChevronDown, ExternalLink, GitBranch, Info, RefreshCw, Unlink, Workflow, type LucideIcon } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { INTEGRATION_LABELS, type Integration } from "@contract/accounts";
import { useStartLink, useUnlinkMine } from "@/api/accounts";
import { AccountLinkFacts, LinkProblem, LinkStateBadge } from "@/components/account-link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Spinner } from "@/components/ui/spinner";
import { INTEGRATION_SERVICES, servicesVerb, type MyIntegration } from "@/lib/account-links";
import { cn } from "@/lib/utils";
import { cardStateOf, connectLabel, relinkWay, tokenDisclosureLabel, type CardState } from "../lib/card-state";
import { ApiTokenForm, tokenFormTitle } from "./api-token-form";

const ICONS: Record<Integration, LucideIcon> = { atlassian: Workflow, bitbucket: GitBranch };
const DESCRIPTIONS: Record<Integration, string> = { atlassian: "Jira and Confluence", bitbucket: "Repositories and pull requests" };

/** One integration on My accounts: its title, the state badge, then the link or the ways to make one. */
export function AccountCard({ entry }: { entry: MyIntegration }) {
  const { integration } = entry;
  const label = INTEGRATION_LABELS[integration];
  const titleId = `account-${integration}-title`;
  const state = cardStateOf(entry);
  const Icon = ICONS[integration];
  return (
    <Card role="region" aria-labelledby={titleId} className="flex min-w-0 flex-col">
      <div className="flex items-start gap-3 p-6">
        <span className="hidden size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground sm:flex">
          <Icon className="size-[1.125rem]" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex items-start justify-between gap-3">
            <h2 id={titleId} className="text-base font-semibold leading-tight">
              {label}
            </h2>
            <StateBadge entry={entry} state={state} />
          </div>
          <p className="text-sm text-muted-foreground">{DESCRIPTIONS[integration]}</p>
        </div>
      </div>
      <CardContent className="flex-1">
        {state === "linked" ? (
          <LinkedBody entry={entry} />
        ) : state === "not-linked" ? (
          <NotLinkedBody entry={entry} />
        ) : (
          <Note>{noteOf(entry, state)}</Note>
        )}
      </CardContent>
    </Card>
  );
}

function StateBadge({ entry, state }: { entry: MyIntegration; state: CardState }) {
  if (entry.link) return <LinkStateBadge state={entry.link.state} />;
  if (state === "shared") return <Badge variant="secondary">Shared account</Badge>;
  if (state === "not-configured") return <Badge variant="outline">Not configured</Badge>;
  return <Badge variant="outline">Not linked</Badge>;
}

function noteOf(entry: MyIntegration, state: Exclude<CardState, "linked" | "not-linked">): string {
  const label = INTEGRATION_LABELS[entry.integration];
  const services = INTEGRATION_SERVICES[entry.integration];
  switch (state) {
    case "not-configured":
      return `The ${label} integration is not configured yet: there is nothing to link.`;
    case "shared":
      return `${services} ${servicesVerb(entry.integration, "use")} the shared account an administrator set up: there is nothing to link.`;
    case "no-way":
      return `${services} ${servicesVerb(entry.integration, "answer")} as you here, but an administrator has not set up a way to link a ${label} account yet.`;
  }
}

function Note({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p className={cn("flex items-start gap-2 rounded-md bg-muted px-3 py-2.5 text-sm text-muted-foreground", className)}>
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

/** The Connect button: it goes to the service's consent page (busy until the browser has left). */
function ConnectButton({
  integration,
  children,
  variant = "default",
}: {
  integration: Integration;
  children: ReactNode;
  variant?: "default" | "outline";
}) {
  const start = useStartLink();
  const busy = start.isPending || start.isSuccess;
  return (
    <Button variant={variant} disabled={busy} aria-busy={busy} onClick={() => start.mutate({ integration })}>
      {busy ? <Spinner /> : <ExternalLink aria-hidden="true" />}
      {busy ? "Opening..." : children}
    </Button>
  );
}

function NotLinkedBody({ entry }: { entry: MyIntegration }) {
  const { integration } = entry;
  const label = INTEGRATION_LABELS[integration];
  const services = INTEGRATION_SERVICES[integration];
  return (
    <div className="space-y-4">
      <p className="text-sm">
        {services} {servicesVerb(integration, "answer")} as you here: link your {label} account so the chat and your MCP clients can reach{" "}
        {integration === "atlassian" ? "them" : "it"}. Bridgekeeper then sees only what your account sees.
      </p>
      {entry.oauthAvailable && <ConnectButton integration={integration}>{connectLabel(entry)}</ConnectButton>}
      {entry.apiTokensAllowed &&
        (entry.oauthAvailable ? (
          <TokenDisclosure entry={entry} />
        ) : (
          <section aria-labelledby={`account-${integration}-token-title`} className="space-y-3">
            <h3 id={`account-${integration}-token-title`} className="text-sm font-medium">
              {tokenFormTitle(entry)}
            </h3>
            <ApiTokenForm entry={entry} id={`account-${integration}-token`} />
          </section>
        ))}
    </div>
  );
}

/** "Use a personal API token instead" (Data Center's personal access tokens): a disclosure holding the token form. */
function TokenDisclosure({ entry, defaultOpen = false }: { entry: MyIntegration; defaultOpen?: boolean }) {
  const { integration } = entry;
  const [open, setOpen] = useState(defaultOpen);
  const panelId = useId();
  return (
    <div className="border-t border-border pt-4">
      <Button
        variant="ghost"
        size="sm"
        className="-ml-3 text-muted-foreground"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <ChevronDown aria-hidden="true" className={cn("transition-transform motion-reduce:transition-none", open && "rotate-180")} />
        {tokenDisclosureLabel(entry)}
      </Button>
      <div id={panelId} hidden={!open} className="pt-3">
        {open && <ApiTokenForm entry={entry} id={`account-${integration}-token`} />}
      </div>
    </div>
  );
}

function LinkedBody({ entry }: { entry: MyIntegration }) {
  const link = entry.link!;
  const { integration } = entry;
  const label = INTEGRATION_LABELS[integration];
  const services = INTEGRATION_SERVICES[integration];
  const unlink = useUnlinkMine();
  const [confirming, setConfirming] = useState(false);
  const [tokenOpen, setTokenOpen] = useState(false);
  const way = link.state === "needs-relinking" ? relinkWay(entry) : null;
  const unused = !entry.configured
    ? `Not in use: the ${label} integration is not configured.`
    : entry.mode === "shared"
      ? `Not in use: ${services} ${servicesVerb(integration, "use")} the shared account now. You may unlink it.`
      : null;

  return (
    <div className="space-y-4">
      {unused && <Note>{unused}</Note>}
      <LinkProblem link={link} />
      <AccountLinkFacts link={link} />
      <div className="flex flex-wrap gap-2 border-t border-border pt-4">
        {way === "oauth" && (
          <ConnectButton integration={integration}>
            <span className="sr-only">{label}: </span>Re-link
          </ConnectButton>
        )}
        {way === "api-token" && !tokenOpen && (
          <Button onClick={() => setTokenOpen(true)}>
            <RefreshCw aria-hidden="true" />
            Re-link
          </Button>
        )}
        <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => setConfirming(true)}>
          <Unlink aria-hidden="true" />
          Unlink
        </Button>
      </div>
      {way === "api-token" && tokenOpen && (
        <section aria-label={tokenFormTitle(entry, true)} className="space-y-3 border-t border-border pt-4">
          <h3 className="text-sm font-medium">{tokenFormTitle(entry, true)}</h3>
          <ApiTokenForm entry={entry} id={`account-${integration}-relink`} onLinked={() => setTokenOpen(false)} />
        </section>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Unlink your ${label} account?`}
        description={
          <>
            Bridgekeeper forgets its tokens for {link.account.displayName}.
            {entry.mode === "per-person" && entry.configured
              ? ` Until you link again, the chat and your MCP clients cannot reach ${services} as you.`
              : ""}
            {link.kind.endsWith("-dc-oauth")
              ? ` You can also revoke Bridgekeeper's access in your profile on ${services}.`
              : link.kind.endsWith("-oauth")
                ? ` You can also remove Bridgekeeper from your ${label} account's connected apps.`
                : ""}
          </>
        }
        confirmLabel="Unlink"
        pendingLabel="Unlinking..."
        busy={unlink.isPending}
        onConfirm={() => unlink.mutate(integration, { onSuccess: () => setConfirming(false) })}
      />
    </div>
  );
}
