import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import {
  ApiTokenLinkInputSchema,
  IDENTITY_MESSAGES,
  type ApiTokenLinkInput,
  type Integration,
  type MyAccountsDto,
} from "@contract/accounts";
import { useLinkApiToken } from "@/api/accounts";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { formField, TextField } from "@/components/ui/text-field";
import { applyServerFieldErrors } from "@/lib/form-errors";

const HOW_TO: Record<Integration, string> = {
  atlassian: "Create one in your Atlassian account (id.atlassian.com): Security, API tokens. Use your Atlassian account's email above.",
  bitbucket:
    "An Atlassian API token with Bitbucket scopes (id.atlassian.com: Security, API tokens), with your Atlassian account's email above.",
};

/** Data Center (issue 28): where a person creates a personal access token, per server. */
const DC_HOW_TO = {
  jira: "In Jira: your profile, Personal Access Tokens, Create token. It can do what you can do in Jira.",
  confluence:
    "In Confluence: your profile, Settings, Personal Access Tokens, Create token. Confluence is its own server, with its own token.",
  bitbucket:
    "In Bitbucket: your profile, Manage account, HTTP access tokens, Create token (project read and repository write for pull requests).",
};

type MyIntegration = MyAccountsDto["integrations"][number];

/** The form's title: "Link with a personal API token", or Data Center's token(s). */
export const tokenFormTitle = (entry: Pick<MyIntegration, "deployment" | "confluenceTokenWanted">, again = false): string =>
  `Link${again ? " again" : ""} with ${
    entry.deployment === "datacenter"
      ? entry.confluenceTokenWanted
        ? "personal access tokens"
        : "a personal access token"
      : "a personal API token"
  }`;

/**
 * Links a personal API token (issue 27): the person's own email and token, which the service
 * confirms before anything is stored; its refusal shows under the token field. On Data Center
 * (issue 28) a personal access token instead, no email, and Confluence's own token beside Jira's.
 */
export function ApiTokenForm({
  entry,
  id,
  onLinked,
}: {
  entry: Pick<MyIntegration, "integration" | "deployment" | "confluenceTokenWanted">;
  id: string;
  onLinked?: () => void;
}) {
  const { integration } = entry;
  const dc = entry.deployment === "datacenter";
  const link = useLinkApiToken();
  const form = useForm<ApiTokenLinkInput>({
    resolver: zodResolver(
      ApiTokenLinkInputSchema.superRefine((v, ctx) => {
        if (!dc && !v.email) ctx.addIssue({ code: "custom", path: ["email"], message: IDENTITY_MESSAGES.email });
        if (dc && entry.confluenceTokenWanted && !v.confluenceToken)
          ctx.addIssue({ code: "custom", path: ["confluenceToken"], message: IDENTITY_MESSAGES.confluenceToken });
      }),
    ),
    defaultValues: { email: "", apiToken: "", confluenceToken: "" },
  });
  const busy = link.isPending;
  // A refused field takes focus once the form is enabled again (a disabled input cannot).
  const focusAfter = useRef<"email" | "apiToken" | "confluenceToken" | null>(null);
  useEffect(() => {
    if (busy || !focusAfter.current) return;
    form.setFocus(focusAfter.current);
    focusAfter.current = null;
  }, [busy, form]);
  const onSubmit = form.handleSubmit((input) =>
    link.mutate(
      {
        integration,
        input: dc
          ? { apiToken: input.apiToken, ...(entry.confluenceTokenWanted ? { confluenceToken: input.confluenceToken } : {}) }
          : input,
      },
      {
        onSuccess: () => {
          form.reset();
          onLinked?.();
        },
        onError: (error) => {
          if (applyServerFieldErrors(form, error, ["email", "apiToken", "confluenceToken"]))
            focusAfter.current = form.getFieldState("email").error
              ? "email"
              : form.getFieldState("apiToken").error
                ? "apiToken"
                : "confluenceToken";
        },
      },
    ),
  );
  return (
    <form id={id} noValidate onSubmit={onSubmit} aria-busy={busy} aria-label={tokenFormTitle(entry)} className="grid gap-4">
      <fieldset disabled={busy} className="grid min-w-0 gap-4">
        {dc ? (
          <>
            <TextField
              {...formField(form, `${id}`, "apiToken")}
              label={integration === "atlassian" ? "Jira personal access token" : "Personal access token"}
              type="password"
              autoComplete="off"
              hint={integration === "atlassian" ? DC_HOW_TO.jira : DC_HOW_TO.bitbucket}
            />
            {integration === "atlassian" && entry.confluenceTokenWanted && (
              <TextField
                {...formField(form, `${id}`, "confluenceToken")}
                label="Confluence personal access token"
                type="password"
                autoComplete="off"
                hint={DC_HOW_TO.confluence}
              />
            )}
          </>
        ) : (
          <>
            <TextField
              {...formField(form, `${id}`, "email")}
              label="Email"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
            />
            <TextField
              {...formField(form, `${id}`, "apiToken")}
              label="API token"
              type="password"
              autoComplete="off"
              hint={HOW_TO[integration]}
            />
          </>
        )}
      </fieldset>
      <div>
        <Button type="submit" variant="outline" disabled={busy} aria-busy={busy}>
          {busy && <Spinner />}
          {busy ? "Linking..." : "Link account"}
        </Button>
      </div>
    </form>
  );
}
