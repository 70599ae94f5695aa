import { zodResolver } from "@hookform/resolvers/zod";
import { GitBranch } from "lucide-react";
import { useEffect, useRef } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import type { z } from "zod";
import { bitbucketConfigFormSchema, type BitbucketConfigDto, type BitbucketConfigForm } from "@contract/integrations";
import { useBitbucketConfig, useSaveBitbucketConfig, useTestBitbucket } from "@/api/integrations";
import { ActiveField, FormActions, secretHint, TextField } from "./form-parts";
import { FormSkeleton, IntegrationCard, LoadError } from "./integration-card";

type Values = z.input<ReturnType<typeof bitbucketConfigFormSchema>>;
const FIELDS = ["workspace", "username", "appPassword"] as const;

/** What the form shows for a stored config: the app password always blank (spec section 4, D6). */
const valuesFrom = (stored: BitbucketConfigDto | null | undefined): Values => ({
  workspace: stored?.workspace ?? "",
  username: stored?.username ?? "",
  appPassword: "",
  isActive: stored?.configured ? stored.isActive : true,
});

const storedKey = (stored: BitbucketConfigDto | null | undefined) =>
  JSON.stringify([stored?.configured, stored?.workspace, stored?.username, stored?.isActive, stored?.appPasswordHint, stored?.updatedAt]);

/** Bitbucket Integration (spec sections 2, 3 and 5): Bitbucket Cloud. */
export function BitbucketCard({ canWrite }: { canWrite: boolean }) {
  const config = useBitbucketConfig();
  return (
    <IntegrationCard
      id="bitbucket"
      icon={GitBranch}
      title="Bitbucket Integration"
      description="Bitbucket Cloud: the workspace whose repositories the MCP tools read."
      stored={config.isPending || config.error ? undefined : config.data}
      footer={
        config.data?.apiUrl ? (
          <p className="min-w-0">
            API URL <code className="wrap-anywhere font-mono text-foreground">{config.data.apiUrl}</code> (BITBUCKET_API_URL on the server)
          </p>
        ) : undefined
      }
    >
      {config.isPending ? (
        <FormSkeleton fields={3} />
      ) : config.error ? (
        <LoadError error={config.error} onRetry={() => void config.refetch()} retrying={config.isFetching} />
      ) : (
        <BitbucketForm stored={config.data} canWrite={canWrite} />
      )}
    </IntegrationCard>
  );
}

function BitbucketForm({ stored, canWrite }: { stored: BitbucketConfigDto | null; canWrite: boolean }) {
  const save = useSaveBitbucketConfig();
  const test = useTestBitbucket();
  const hint = stored?.appPasswordHint ?? null;
  const hasStoredPassword = hint !== null || stored?.configured === true;

  const hasStoredRef = useRef(hasStoredPassword);
  hasStoredRef.current = hasStoredPassword;
  const resolver: Resolver<Values, unknown, BitbucketConfigForm> = (values, context, options) =>
    zodResolver(bitbucketConfigFormSchema(hasStoredRef.current))(values, context, options);

  const form = useForm<Values, unknown, BitbucketConfigForm>({ resolver, defaultValues: valuesFrom(stored) });
  const { errors, isDirty } = form.formState;

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
    <form noValidate onSubmit={onSubmit} aria-busy={saving} aria-label="Bitbucket configuration" className="grid gap-4">
      <fieldset disabled={saving || !canWrite} className="grid min-w-0 gap-4">
        <TextField
          id="bitbucket-workspace"
          label="Workspace"
          placeholder="your-workspace"
          registration={form.register("workspace")}
          error={errors.workspace?.message}
        />
        <TextField
          id="bitbucket-username"
          label="Username"
          autoComplete="username"
          registration={form.register("username")}
          error={errors.username?.message}
        />
        <TextField
          id="bitbucket-appPassword"
          label="App password"
          type="password"
          autoComplete="new-password"
          placeholder={hint ? secretHint(hint) : undefined}
          registration={form.register("appPassword")}
          error={errors.appPassword?.message}
          hint={
            hasStoredPassword
              ? `An app password is stored${hint ? ` (${secretHint(hint)})` : ""}.${canWrite ? " Leave blank to keep it." : ""}`
              : "Create one in Bitbucket: Personal settings, App passwords, with read access to repositories."
          }
        />
        <Controller
          control={form.control}
          name="isActive"
          render={({ field }) => (
            <ActiveField
              id="bitbucket-isActive"
              description="Bitbucket tools are offered and status is checked."
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
      </fieldset>
      <FormActions
        idPrefix="bitbucket"
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
