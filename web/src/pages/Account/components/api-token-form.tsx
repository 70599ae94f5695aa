import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { ApiTokenLinkInputSchema, type ApiTokenLinkInput, type Integration } from "@contract/accounts";
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

/**
 * Links a personal API token (issue 27): the person's own email and token, which the service
 * confirms before anything is stored; its refusal shows under the token field.
 */
export function ApiTokenForm({ integration, id, onLinked }: { integration: Integration; id: string; onLinked?: () => void }) {
  const link = useLinkApiToken();
  const form = useForm<ApiTokenLinkInput>({
    resolver: zodResolver(ApiTokenLinkInputSchema),
    defaultValues: { email: "", apiToken: "" },
  });
  const busy = link.isPending;
  // A refused field takes focus once the form is enabled again (a disabled input cannot).
  const focusAfter = useRef<"email" | "apiToken" | null>(null);
  useEffect(() => {
    if (busy || !focusAfter.current) return;
    form.setFocus(focusAfter.current);
    focusAfter.current = null;
  }, [busy, form]);
  const onSubmit = form.handleSubmit((input) =>
    link.mutate(
      { integration, input },
      {
        onSuccess: () => {
          form.reset();
          onLinked?.();
        },
        onError: (error) => {
          if (applyServerFieldErrors(form, error, ["email", "apiToken"]))
            focusAfter.current = form.getFieldState("email").error ? "email" : "apiToken";
        },
      },
    ),
  );
  return (
    <form id={id} noValidate onSubmit={onSubmit} aria-busy={busy} aria-label="Link with a personal API token" className="grid gap-4">
      <fieldset disabled={busy} className="grid min-w-0 gap-4">
        <TextField {...formField(form, `${id}`, "email")} label="Email" type="email" autoComplete="email" placeholder="you@example.com" />
        <TextField
          {...formField(form, `${id}`, "apiToken")}
          label="API token"
          type="password"
          autoComplete="off"
          hint={HOW_TO[integration]}
        />
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
