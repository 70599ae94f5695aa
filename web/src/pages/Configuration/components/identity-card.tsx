import { Lock, UserRoundCog } from "lucide-react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import { IDENTITY_MODE_LABELS, IDENTITY_MODES, type IdentityMode, type IdentitySettingsDto, type Integration } from "@contract/accounts";
import { useIdentitySettings, useSaveIdentity } from "@/api/accounts";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { FieldError } from "@/components/ui/field-error";
import { MiddleTruncate } from "@/components/ui/middle-truncate";
import { QueryError } from "@/components/ui/query-error";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Spinner } from "@/components/ui/spinner";
import { FormSwitchField } from "@/components/ui/switch-field";
import { TextField } from "@/components/ui/text-field";
import { Time } from "@/components/ui/time";
import { INTEGRATION_SERVICES } from "@/lib/account-links";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { identityFormErrors, identityFormValues, identityInputOf, type IdentityFormValues } from "../lib/identity-form";
import { secretHint } from "./form-parts";
import { FormSkeleton } from "./integration-card";

interface IdentityTexts {
  /** The integration card above whose account is the shared one. */
  sharedCard: string;
  clientIdLabel: string;
  secretLabel: string;
  /** Where the OAuth app or consumer is registered, and what to give it. */
  register: ReactNode;
}

const TEXTS: Record<Integration, IdentityTexts> = {
  atlassian: {
    sharedCard: "Atlassian Integration",
    clientIdLabel: "OAuth client ID",
    secretLabel: "OAuth client secret",
    register: (
      <>
        Register an OAuth 2.0 (3LO) app at{" "}
        <a
          className="font-medium text-foreground underline underline-offset-2"
          href="https://developer.atlassian.com/console/myapps/"
          target="_blank"
          rel="noreferrer"
        >
          developer.atlassian.com
        </a>{" "}
        (Create, OAuth 2.0 integration): add the Jira and Confluence API scopes under Permissions, enter the callback URL below under
        Authorization, then copy the app's Client ID and Secret from Settings.
      </>
    ),
  },
  bitbucket: {
    sharedCard: "Bitbucket Integration",
    clientIdLabel: "OAuth consumer key",
    secretLabel: "OAuth consumer secret",
    register: (
      <>
        Add an OAuth consumer in your Bitbucket workspace settings (Apps and features, OAuth consumers, Add consumer): enter the callback
        URL below, tick "This is a private consumer", grant Account, Repositories and Pull requests (Read, or Write for tools that change
        them), then copy its Key and Secret.
      </>
    ),
  },
};

const MODE_DESCRIPTIONS = (integration: Integration): Record<IdentityMode, string> => ({
  shared: `Every call uses the account saved in ${TEXTS[integration].sharedCard}, whoever asks.`,
  "per-person":
    "Each person links their own account on My accounts. A call made for a person uses only that account, and sees only what it may see.",
});

/**
 * "Who Bridgekeeper acts as" (issue 27, docs/decisions.md D25): one integration's identity mode,
 * whether machine clients may still use the shared account and people may link personal API
 * tokens, and the OAuth app (or consumer) people link through: its client id, its write-only
 * secret and the callback URL to register with it. Saving needs config.write; a config.read viewer
 * sees it read-only.
 */
export function IdentityCard({ integration, canWrite }: { integration: Integration; canWrite: boolean }) {
  const settings = useIdentitySettings();
  const stored = settings.data?.find((entry) => entry.integration === integration);
  const titleId = `identity-${integration}-title`;
  return (
    <Card role="region" aria-labelledby={titleId} className="flex min-w-0 flex-col">
      <div className="flex items-start gap-3 p-6">
        <span className="hidden size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground sm:flex">
          <UserRoundCog className="size-[1.125rem]" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 space-y-1.5">
          <h2 id={titleId} className="text-base font-semibold leading-tight">
            Who Bridgekeeper acts as in {INTEGRATION_SERVICES[integration]}
          </h2>
          <p className="text-sm text-muted-foreground">The shared account for everyone, or each person's own linked account.</p>
        </div>
      </div>
      <CardContent className="flex-1">
        {settings.isPending ? (
          <FormSkeleton fields={4} />
        ) : settings.error ? (
          <QueryError error={settings.error} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />
        ) : (
          <IdentityForm integration={integration} stored={stored} canWrite={canWrite} />
        )}
      </CardContent>
      {stored?.updatedAt && (
        <div className="border-t border-border px-6 py-3 text-xs text-muted-foreground">
          <p>
            Last saved <Time iso={stored.updatedAt} as="dateTime" />
          </p>
        </div>
      )}
    </Card>
  );
}

function IdentityForm({
  integration,
  stored,
  canWrite,
}: {
  integration: Integration;
  stored: IdentitySettingsDto | undefined;
  canWrite: boolean;
}) {
  const id = `identity-${integration}`;
  const texts = TEXTS[integration];
  const save = useSaveIdentity();
  const form = useForm<IdentityFormValues>({ defaultValues: identityFormValues(stored) });
  const { errors } = form.formState;
  const modeLegendId = useId();

  // A newly stored version (this save, or another administrator's) reloads the form.
  const key = JSON.stringify(stored ?? null);
  const appliedKey = useRef(key);
  useEffect(() => {
    if (appliedKey.current === key) return;
    appliedKey.current = key;
    form.reset(identityFormValues(stored));
  }, [key, stored, form]);

  const saving = save.isPending;
  const onSubmit = form.handleSubmit((values) => {
    const problems = identityFormErrors(values, stored);
    const fields = (["mode", "oauthClientSecret"] as const).filter((name) => problems[name]);
    if (fields.length > 0) {
      fields.forEach((name, i) => form.setError(name, { type: "rule", message: problems[name] }, { shouldFocus: i === 0 }));
      return;
    }
    save.mutate(
      { integration, input: identityInputOf(values) },
      {
        onError: (error) =>
          applyServerFieldErrors(form, error, ["mode", "allowMachineClients", "allowApiTokens", "oauthClientId", "oauthClientSecret"]),
      },
    );
  });

  const hint = stored?.oauthClientSecretHint ?? null;
  const modeError = errors.mode?.message;
  const textError = (name: "oauthClientId" | "oauthClientSecret") => errors[name]?.message;

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-busy={saving}
      aria-label={`Who Bridgekeeper acts as in ${INTEGRATION_SERVICES[integration]}`}
      className="grid grid-cols-1 gap-5"
    >
      <fieldset disabled={saving || !canWrite} className="grid min-w-0 grid-cols-1 gap-5">
        <div className="space-y-2">
          <p id={modeLegendId} className="text-sm font-medium">
            Acts as
          </p>
          <Controller
            control={form.control}
            name="mode"
            render={({ field }) => (
              <RadioGroup
                aria-labelledby={modeLegendId}
                aria-invalid={modeError ? true : undefined}
                aria-describedby={modeError ? `${id}-mode-error` : undefined}
                value={field.value}
                onValueChange={(value) => {
                  field.onChange(value as IdentityMode);
                  form.clearErrors("mode");
                }}
                disabled={saving || !canWrite}
                className="gap-2"
              >
                {IDENTITY_MODES.map((mode) => (
                  <label
                    key={mode}
                    htmlFor={`${id}-mode-${mode}`}
                    className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 has-[[data-state=checked]]:border-primary/60 has-[[data-state=checked]]:bg-primary/5 has-[:disabled]:cursor-default"
                  >
                    <RadioGroupItem
                      id={`${id}-mode-${mode}`}
                      value={mode}
                      className="mt-0.5"
                      aria-labelledby={`${id}-mode-${mode}-label`}
                      aria-describedby={`${id}-mode-${mode}-hint`}
                      ref={mode === field.value ? field.ref : undefined}
                    />
                    <span className="min-w-0 space-y-1">
                      <span id={`${id}-mode-${mode}-label`} className="block text-sm font-medium leading-none">
                        {IDENTITY_MODE_LABELS[mode]}
                      </span>
                      <span id={`${id}-mode-${mode}-hint`} className="block text-xs text-muted-foreground">
                        {MODE_DESCRIPTIONS(integration)[mode]}
                      </span>
                    </span>
                  </label>
                ))}
              </RadioGroup>
            )}
          />
          <FieldError id={`${id}-mode-error`} message={modeError} />
        </div>

        <FormSwitchField
          control={form.control}
          name="allowMachineClients"
          id={`${id}-allowMachineClients`}
          label="Allow machine clients to use the shared account"
          description="With each person's own account: clients with a client_credentials token act for no person. On, they use the shared account; off, they cannot reach this integration."
        />
        <FormSwitchField
          control={form.control}
          name="allowApiTokens"
          id={`${id}-allowApiTokens`}
          label="Allow personal API tokens"
          description="People may link with their own email and API token instead of the OAuth app."
        />

        <div className="grid min-w-0 grid-cols-1 gap-4 rounded-md border border-border p-4">
          <div className="space-y-1">
            <h3 className="text-sm font-medium">OAuth app people link through</h3>
            <p className="text-xs text-muted-foreground">{texts.register}</p>
          </div>
          <TextField
            id={`${id}-oauthClientId`}
            label={texts.clientIdLabel}
            registration={form.register("oauthClientId", { onChange: () => form.clearErrors("mode") })}
            error={textError("oauthClientId")}
            className="[&_input]:font-mono"
          />
          <TextField
            id={`${id}-oauthClientSecret`}
            label={texts.secretLabel}
            type="password"
            autoComplete="new-password"
            placeholder={hint ? secretHint(hint) : undefined}
            registration={form.register("oauthClientSecret")}
            error={textError("oauthClientSecret")}
            hint={hint ? `A secret is stored (${secretHint(hint)}).${canWrite ? " Leave blank to keep it." : ""}` : undefined}
          />
        </div>
      </fieldset>

      {stored?.callbackUrl && <CallbackUrl id={`${id}-callback`} url={stored.callbackUrl} />}

      {canWrite ? (
        <div>
          <Button type="submit" disabled={saving} aria-busy={saving}>
            {saving && <Spinner />}
            {saving ? "Saving..." : "Save"}
          </Button>
        </div>
      ) : (
        <p className="flex items-start gap-2 rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground">
          <Lock className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          Read-only: changing who Bridgekeeper acts as needs the config.write permission.
        </p>
      )}
    </form>
  );
}

/** The callback URL to register with the app or consumer, read-only, with its copy button. */
function CallbackUrl({ id, url }: { id: string; url: string }) {
  return (
    <div className="space-y-1.5">
      <p id={id} className="text-sm font-medium">
        Callback URL
      </p>
      <div className="flex min-w-0 items-center gap-1 rounded-md border border-border bg-muted/50 py-1 pl-3 pr-1">
        <code aria-labelledby={id} className="min-w-0 flex-1">
          {/* The end names the integration and the callback: it always shows. */}
          <MiddleTruncate value={url} tail={24} className="text-[0.8125rem]" />
        </code>
        <CopyButton value={url} what="Callback URL" label="Copy the callback URL" />
      </div>
      <p className="text-xs text-muted-foreground">Register it with the app exactly as shown (it is built from PUBLIC_URL).</p>
    </div>
  );
}
