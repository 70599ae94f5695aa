import { ShieldCheck } from "lucide-react";
import { useRef, useState } from "react";
import type { OAuthClientDto } from "@contract/oauth";
import { isOpenPolicy, TOOLSET_NAMES } from "@contract/policy";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PolicyDialog } from "./policy-dialog";

/** One line per restriction of a client's policy, in words; empty for an unrestricted client. */
export function policyLines(policy: OAuthClientDto["policy"]): string[] {
  const lines: string[] = [];
  if (policy.readOnly) lines.push("Read-only");
  if (policy.toolsets !== null)
    lines.push(
      policy.toolsets.length === 0 ? "No toolsets" : `Toolsets: ${TOOLSET_NAMES.filter((t) => policy.toolsets!.includes(t)).join(", ")}`,
    );
  if (policy.jiraProjects) lines.push(`Jira projects: ${policy.jiraProjects.join(", ")}`);
  if (policy.confluenceSpaces) lines.push(`Confluence spaces: ${policy.confluenceSpaces.join(", ")}`);
  if (policy.bitbucketRepositories) lines.push(`Repositories: ${policy.bitbucketRepositories.join(", ")}`);
  if (policy.disabledTools.length > 0) lines.push(`Switched off: ${policy.disabledTools.join(", ")}`);
  return lines;
}

/** The "Policy" row of a client card: what its AI may touch, and (with oauth-clients.write) the way to change it. */
export function PolicySummary({ client, canWrite }: { client: OAuthClientDto; canWrite: boolean }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The dialog has no Radix trigger: focus goes back to the button that opened it.
  const onCloseAutoFocus = (event: Event) => {
    event.preventDefault();
    button.current?.focus();
  };
  const lines = policyLines(client.policy);
  return (
    <div className="flex flex-wrap items-start justify-between gap-2 sm:pt-1.5">
      {isOpenPolicy(client.policy) ? (
        <p className="inline-flex items-center gap-1.5 pt-0.5 text-sm text-muted-foreground">
          <ShieldCheck className="size-4" aria-hidden="true" />
          Default toolsets, as its scopes allow
        </p>
      ) : (
        <ul className="flex min-w-0 flex-wrap gap-1" aria-label={`Policy of ${client.name}`}>
          {lines.map((line) => (
            <li key={line} className="min-w-0 max-w-full">
              <Badge variant="outline" className="h-auto max-w-full whitespace-normal break-words text-left font-normal">
                {line}
              </Badge>
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <>
          <Button ref={button} variant="outline" size="sm" onClick={() => setOpen(true)} aria-label={`Edit policy of ${client.name}`}>
            Edit policy
          </Button>
          <PolicyDialog client={client} open={open} onOpenChange={setOpen} onCloseAutoFocus={onCloseAutoFocus} />
        </>
      )}
    </div>
  );
}
