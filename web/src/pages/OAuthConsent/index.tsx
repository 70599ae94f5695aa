import { CircleExclamationPoint, ExternalLink, KeyRound, Link2, ShieldCheck, TriangleAlert } from "lucide-react";
import { Link } from "wouter";
import { INTEGRATION_LABELS, MY_ACCOUNTS_PATH, type MyAccountsDto } from "@contract/accounts";
import { useMyAccounts, useStartLink } from "@/api/accounts";
import { useSession } from "@/api/session";
import { useConsentDecision, useConsentRequest } from "@/api/oauth-consent";
import { BrandPage } from "@/components/layout/brand-page";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { INTEGRATION_SERVICES, integrationsNeedingLink, servicesVerb, type MyIntegration } from "@/lib/account-links";
import { SCOPE_DESCRIPTIONS, type ConsentRequestDto } from "@contract/oauth";

/**
 * OAuth consent (docs/decisions.md#oauth-authorization-server): an MCP client asks to act through
 * this server. Shown after sign-in (the login page keeps this address), never framed (the server
 * forbids it), and answered with a cookie-authenticated POST that the server checks for its origin.
 */
export default function OAuthConsentPage({ id }: { id: string }) {
  useDocumentTitle("Authorize access");
  const { user } = useSession();
  const request = useConsentRequest(id);
  const decide = useConsentDecision(id);
  const busy = decide.isPending || decide.isSuccess;
  const problem = request.error?.serverMessage ?? decide.error?.serverMessage ?? request.data?.refusal;
  const mayAuthorize = request.data ? request.data.refusal === null : false;
  // Where an integration answers as each person, this client's calls use the person's own link (issue 27).
  const my = useMyAccounts();

  return (
    <BrandPage className="max-w-md">
      <Card className="shadow-sm">
        <CardHeader className="pb-4">
          <h1 className="text-lg font-semibold leading-tight">Authorize access</h1>
          <CardDescription>
            Signed in as <span className="font-medium text-foreground">{user?.username}</span>
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          {request.isLoading && (
            <div className="space-y-3" aria-label="Loading the request">
              <Skeleton className="h-5 w-3/4" />
              <Skeleton className="h-16 w-full" />
              <Skeleton className="h-9 w-full" />
            </div>
          )}
          {problem && (
            <div
              role="alert"
              className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2.5 text-sm text-destructive"
            >
              <CircleExclamationPoint className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>{problem}</span>
            </div>
          )}
          {request.data && (
            <>
              <p className="text-sm">
                <span className="font-semibold">{request.data.clientName}</span> wants to use Jira, Confluence and Bitbucket through
                Bridgekeeper.
              </p>
              {request.data.registeredVia !== "console" && (
                <div role="note" className="space-y-1 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2.5 text-sm">
                  <p className="flex items-center gap-2 font-medium">
                    <TriangleAlert className="size-4 shrink-0 text-amber-600" aria-hidden="true" />
                    Unverified client
                  </p>
                  <p className="text-xs text-muted-foreground">
                    It {request.data.registeredVia === "dynamic" ? "registered itself" : "describes itself"}: no administrator vouched for
                    its name. Authorize only if you expect to be sent back to
                  </p>
                  <p className="break-all font-mono text-base font-semibold">{request.data.redirectHost}</p>
                </div>
              )}
              {mayAuthorize && (
                <section aria-labelledby="consent-scopes" className="space-y-2">
                  <h2 id="consent-scopes" className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
                    It will be able to
                  </h2>
                  <ul className="space-y-2">
                    {request.data.scopes.map((scope) => (
                      <li key={scope} className="flex items-start gap-2 text-sm">
                        {scope === "write" ? (
                          <KeyRound className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
                        ) : (
                          <ShieldCheck className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                        )}
                        <span>
                          <Badge variant="secondary" className="mr-2 font-mono">
                            {scope}
                          </Badge>
                          {(SCOPE_DESCRIPTIONS as Record<string, string>)[scope] ?? scope}
                        </span>
                      </li>
                    ))}
                  </ul>
                </section>
              )}
              {mayAuthorize && request.data.idleScopes.length > 0 && (
                <p className="text-xs text-muted-foreground">
                  Also granted, unused for now: <span className="font-mono">{request.data.idleScopes.join(" ")}</span>. An administrator
                  made this client read-only.
                </p>
              )}
              {mayAuthorize && request.data.limits && <Limits limits={request.data.limits} />}
              {mayAuthorize && <ActsAs actsAs={request.data.actsAs} my={my.data} />}
              {mayAuthorize && <LinkFirst my={my.data} />}
              {mayAuthorize && request.data.withheldScopes.length > 0 && (
                <p className="rounded-md border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-xs">
                  Not granted: <span className="font-mono">{request.data.withheldScopes.join(" ")}</span>. Your account may not let clients
                  change Jira, Confluence or Bitbucket (it needs the mcp.write permission).
                </p>
              )}
              <dl className="space-y-1 rounded-md border bg-muted/40 px-3 py-2 text-xs">
                <div>
                  <dt className="inline text-muted-foreground">Returns to </dt>
                  <dd className="inline break-all font-mono">{request.data.redirectUri}</dd>
                </div>
                <div>
                  <dt className="inline text-muted-foreground">Client ID </dt>
                  <dd className="inline break-all font-mono">{request.data.clientId}</dd>
                </div>
              </dl>
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Button variant="outline" disabled={busy} onClick={() => decide.mutate(false)}>
                  Deny
                </Button>
                {mayAuthorize && (
                  <Button disabled={busy} onClick={() => decide.mutate(true)}>
                    {decide.isPending && decide.variables && <Spinner />}
                    {decide.isPending && decide.variables ? "Authorizing..." : "Authorize"}
                  </Button>
                )}
              </div>
            </>
          )}
        </CardContent>
      </Card>
    </BrandPage>
  );
}

/** Where the administrator lets this client reach, as it stands now. */
function Limits({ limits }: { limits: NonNullable<ConsentRequestDto["limits"]> }) {
  const parts = [
    limits.jiraProjects && `Jira projects ${limits.jiraProjects.join(", ")}`,
    limits.confluenceSpaces && `Confluence spaces ${limits.confluenceSpaces.join(", ")}`,
    limits.bitbucketRepositories && `Bitbucket repositories ${limits.bitbucketRepositories.join(", ")}`,
  ].filter(Boolean);
  return <p className="text-xs text-muted-foreground">Only within {parts.join("; ")}, as an administrator set it.</p>;
}

/**
 * In whose name its changes appear: the integrations' shared accounts, or (issue 27) where an
 * integration acts as each person, the person's own linked account.
 */
function ActsAs({ actsAs, my }: { actsAs: ConsentRequestDto["actsAs"]; my: MyAccountsDto | null | undefined }) {
  const perPerson = (integration: "atlassian" | "bitbucket") =>
    my?.integrations.find((e) => e.integration === integration && e.configured && e.mode === "per-person");
  const atlassian = perPerson("atlassian");
  const bitbucket = perPerson("bitbucket");
  const asYou = (entry: MyIntegration) =>
    entry.link?.state === "working"
      ? `${INTEGRATION_SERVICES[entry.integration]} as you (${entry.link.account.displayName}): it sees only what you may see, and its changes appear in your name.`
      : `${INTEGRATION_SERVICES[entry.integration]} as you, once you link your ${INTEGRATION_LABELS[entry.integration]} account.`;
  const shared = [
    !atlassian && actsAs.atlassian && `Jira and Confluence as ${actsAs.atlassian}`,
    !bitbucket && actsAs.bitbucket && `Bitbucket as ${actsAs.bitbucket}`,
  ].filter((text): text is string => Boolean(text));
  const own = [atlassian && asYou(atlassian), bitbucket && asYou(bitbucket)].filter((text): text is string => Boolean(text));
  return (
    <section aria-labelledby="consent-acts-as" className="space-y-1 rounded-md border border-border px-3 py-2.5 text-sm">
      <h2 id="consent-acts-as" className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
        Who acts
      </h2>
      {own.length > 0 ? (
        <>
          <ul className="list-disc space-y-1 pl-4">
            {own.map((text) => (
              <li key={text}>{text}</li>
            ))}
            {shared.map((text) => (
              <li key={text}>{text}, this server's integration account, not as you: its changes appear in that name.</li>
            ))}
          </ul>
          <p className="text-muted-foreground">You decide whether it may connect and what it may do.</p>
        </>
      ) : shared.length > 0 ? (
        <p>
          Its calls run as this server's integration accounts, not as you: {shared.join("; ")}. Changes it makes appear in their name. You
          decide whether it may connect and what it may do.
        </p>
      ) : (
        <p>
          No integration is configured yet: it can connect, but its Jira, Confluence and Bitbucket tools will say so until an administrator
          sets them up.
        </p>
      )}
    </section>
  );
}

/**
 * Where an integration acts as each person and the person has no working link: the offer to link
 * first, coming back to this very page (returnTo) to approve. Approving is not blocked: the
 * client's tools for that integration say so until a link exists.
 */
function LinkFirst({ my }: { my: MyAccountsDto | null | undefined }) {
  const start = useStartLink();
  const needing = integrationsNeedingLink(my);
  if (needing.length === 0) return null;
  const busy = start.isPending || start.isSuccess;
  const here = window.location.pathname + window.location.search;
  return (
    <section
      aria-labelledby="consent-link-first"
      className="space-y-3 rounded-md border border-warning/40 bg-warning/10 px-3 py-2.5 text-sm"
    >
      <h2 id="consent-link-first" className="flex items-center gap-2 font-medium">
        <Link2 className="size-4 shrink-0 text-warning" aria-hidden="true" />
        Link your account first
      </h2>
      {needing.map((entry) => {
        const label = INTEGRATION_LABELS[entry.integration];
        const services = INTEGRATION_SERVICES[entry.integration];
        return (
          <div key={entry.integration} className="space-y-2">
            <p className="text-xs text-muted-foreground">
              {services} {servicesVerb(entry.integration, "answer")} as you, and{" "}
              {entry.link ? `your ${label} account needs re-linking` : `you have not linked your ${label} account`}: until you do, this
              client's {services} tools will say so. You can still authorize it now.
            </p>
            {entry.oauthAvailable ? (
              <Button
                variant="outline"
                size="sm"
                disabled={busy}
                aria-busy={busy && start.variables?.integration === entry.integration}
                onClick={() => start.mutate({ integration: entry.integration, returnTo: here })}
              >
                {busy && start.variables?.integration === entry.integration ? <Spinner /> : <ExternalLink aria-hidden="true" />}
                {entry.link ? `Re-link your ${label} account first` : `Link your ${label} account first`}
              </Button>
            ) : (
              <p className="text-xs">
                <Link href={MY_ACCOUNTS_PATH} className="font-medium underline underline-offset-2">
                  Link it on My accounts
                </Link>{" "}
                with a personal API token, then come back to this page.
              </p>
            )}
          </div>
        );
      })}
    </section>
  );
}
