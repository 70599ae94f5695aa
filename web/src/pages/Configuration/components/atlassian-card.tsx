import { zodResolver } from "@hookform/resolvers/zod";
import { Workflow } from "lucide-react";
import { useEffect, useRef } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import type { z } from "zod";
import { atlassianConfigFormSchema, type AtlassianConfigDto, type AtlassianConfigForm } from "@contract/integrations";
import { useAtlassianConfig, useSaveAtlassianConfig, useTestAtlassian } from "@/api/integrations";
import { ActiveField, FormActions, secretHint, TextField } from "./form-parts";
import { FormSkeleton, IntegrationCard, LoadError } from "./integration-card";

type Values = z.input<ReturnType<typeof atlassianConfigFormSchema>>;
const FIELDS = ["instanceUrl", "email", "apiToken"] as const;

/** What the form shows for a stored config: the token field always blank (spec section 4, D6). */
const valuesFrom = (stored: AtlassianConfigDto | null | undefined): Values => ({
  instanceUrl: stored?.instanceUrl ?? "",
  email: stored?.email ?? "",
  apiToken: "",
  isActive: stored?.configured ? stored.isActive : true,
});

/** Identity of a stored version: the form reloads only when the stored config itself changed. */
const storedKey = (stored: AtlassianConfigDto | null | undefined) =>
  JSON.stringify([stored?.configured, stored?.instanceUrl, stored?.email, stored?.isActive, stored?.apiTokenHint, stored?.updatedAt]);

/** Atlassian Integration (spec sections 2, 3 and 5): Jira and Confluence Cloud. */
export function AtlassianCard({ canWrite }: { canWrite: boolean }) {
  const config = useAtlassianConfig();
  return (
    <IntegrationCard
      id="atlassian"
      icon={Workflow}
      title="Atlassian Integration"
      description="Jira and Confluence Cloud: the site the MCP tools and the proxy call."
      stored={config.isPending || config.error ? undefined : config.data}
    >
      {config.isPending ? (
        <FormSkeleton fields={3} />
      ) : config.error ? (
        <LoadError error={config.error} onRetry={() => void config.refetch()} retrying={config.isFetching} />
      ) : (
        <AtlassianForm stored={config.data} canWrite={canWrite} />
      )}
    </IntegrationCard>
  );
}

function AtlassianForm({ stored, canWrite }: { stored: AtlassianConfigDto | null; canWrite: boolean }) {
  const save = useSaveAtlassianConfig();
  const test = useTestAtlassian();
  const hint = stored?.apiTokenHint ?? null;
  const hasStoredToken = hint !== null || stored?.configured === true;

  // The schema depends on whether a token is stored (blank keeps it); the resolver reads the latest.
  const hasStoredRef = useRef(hasStoredToken);
  hasStoredRef.current = hasStoredToken;
  const resolver: Resolver<Values, unknown, AtlassianConfigForm> = (values, context, options) =>
    zodResolver(atlassianConfigFormSchema(hasStoredRef.current))(values, context, options);

  const form = useForm<Values, unknown, AtlassianConfigForm>({ resolver, defaultValues: valuesFrom(stored) });
  const { errors, isDirty } = form.formState;

  // Spec section 4: the form reloads from the stored config when it arrives (token blank).
  const key = storedKey(stored);
  const appliedKey = useRef(key);
  useEffect(() => {
    if (appliedKey.current === key) return;
    appliedKey.current = key;
    form.reset(valuesFrom(stored));
  }, [key, stored, form]);

  const saving = save.isPending;
  const onSubmit = form.handleSubmit((values) => {
    save.mutate(values, {
      onError: (error) => {
        for (const name of FIELDS) {
          const message = error.fields?.[name];
          if (message) form.setError(name, { type: "server", message }, { shouldFocus: true });
        }
      },
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={saving} aria-label="Atlassian configuration" className="grid gap-4">
      <fieldset disabled={saving || !canWrite} className="grid min-w-0 gap-4">
        <TextField
          id="atlassian-instanceUrl"
          label="Instance URL"
          type="url"
          placeholder="https://your-company.atlassian.net"
          registration={form.register("instanceUrl")}
          error={errors.instanceUrl?.message}
        />
        <TextField
          id="atlassian-email"
          label="Email or username"
          placeholder="you@example.com"
          autoComplete="username"
          registration={form.register("email")}
          error={errors.email?.message}
        />
        <TextField
          id="atlassian-apiToken"
          label="API token"
          type="password"
          autoComplete="new-password"
          placeholder={hint ? secretHint(hint) : undefined}
          registration={form.register("apiToken")}
          error={errors.apiToken?.message}
          hint={
            hasStoredToken
              ? `A token is stored${hint ? ` (${secretHint(hint)})` : ""}.${canWrite ? " Leave blank to keep it." : ""}`
              : "Create one in your Atlassian account: Security, API tokens."
          }
        />
        <Controller
          control={form.control}
          name="isActive"
          render={({ field }) => (
            <ActiveField
              id="atlassian-isActive"
              description="Jira and Confluence tools are offered and status is checked."
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
      </fieldset>
      <FormActions
        idPrefix="atlassian"
        canWrite={canWrite}
        saving={saving}
        testing={test.isPending}
        configured={stored?.configured === true}
        dirty={isDirty}
        onTest={() => test.mutate()}
      />
    </form>
  );
}
