import { CircleExclamationPoint, KeyRound, ShieldCheck, TriangleAlert } from "lucide-react";
import { useSession } from "@/api/session";
import { useConsentDecision, useConsentRequest } from "@/api/oauth-consent";
import { BrandPage } from "@/components/layout/brand-page";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useDocumentTitle } from "@/hooks/use-document-title";
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
              {mayAuthorize && <ActsAs actsAs={request.data.actsAs} />}
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

/** In whose name its changes appear: the integrations' accounts, not the person consenting. */
function ActsAs({ actsAs }: { actsAs: ConsentRequestDto["actsAs"] }) {
  const accounts = [
    actsAs.atlassian && `Jira and Confluence as ${actsAs.atlassian}`,
    actsAs.bitbucket && `Bitbucket as ${actsAs.bitbucket}`,
  ].filter(Boolean);
  return (
    <section aria-labelledby="consent-acts-as" className="space-y-1 rounded-md border border-border px-3 py-2.5 text-sm">
      <h2 id="consent-acts-as" className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
        Who acts
      </h2>
      {accounts.length > 0 ? (
        <p>
          Its calls run as this server's integration accounts, not as you: {accounts.join("; ")}. Changes it makes appear in their name. You
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
