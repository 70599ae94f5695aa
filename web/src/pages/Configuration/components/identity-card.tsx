import { Lock, UserRoundCog } from "lucide-react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Controller, useForm, type UseFormReturn } from "react-hook-form";
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
import {
  IDENTITY_ERROR_FIELDS,
  identityFormErrors,
  identityFormValues,
  identityInputOf,
  type IdentityFormValues,
} from "../lib/identity-form";
import { secretHint } from "./form-parts";
import { FormSkeleton } from "./integration-card";

interface IdentityTexts {
  /** The integration card above whose account is the shared one. */
  sharedCard: string;
  /** The box holding the app people link through. */
  appHeading: string;
  clientIdLabel: string;
  secretLabel: string;
  /** Where the OAuth app or consumer (on Data Center, the incoming application link) is registered, and what to give it. */
  register: ReactNode;
  tokensLabel: string;
  tokensDescription: string;
}

const linkClass = "font-medium text-foreground underline underline-offset-2";

const CLOUD_TEXTS: Record<Integration, IdentityTexts> = {
  atlassian: {
    sharedCard: "Atlassian Integration",
    appHeading: "OAuth app people link through",
    clientIdLabel: "OAuth client ID",
    secretLabel: "OAuth client secret",
    register: (
      <>
        Register an OAuth 2.0 (3LO) app at{" "}
        <a className={linkClass} href="https://developer.atlassian.com/console/myapps/" target="_blank" rel="noreferrer">
          developer.atlassian.com
        </a>{" "}
        (Create, OAuth 2.0 integration): add the Jira and Confluence API scopes under Permissions, enter the callback URL below under
        Authorization, then copy the app's Client ID and Secret from Settings.
      </>
    ),
    tokensLabel: "Allow personal API tokens",
    tokensDescription: "People may link with their own email and API token instead of the OAuth app.",
  },
  bitbucket: {
    sharedCard: "Bitbucket Integration",
    appHeading: "OAuth app people link through",
    clientIdLabel: "OAuth consumer key",
    secretLabel: "OAuth consumer secret",
    register: (
      <>
        Add an OAuth consumer in your Bitbucket workspace settings (Apps and features, OAuth consumers, Add consumer): enter the callback
        URL below, tick "This is a private consumer", grant Account, Repositories and Pull requests (Read, or Write for tools that change
        them), then copy its Key and Secret.
      </>
    ),
    tokensLabel: "Allow personal API tokens",
    tokensDescription: "People may link with their own email and API token instead of the OAuth app.",
  },
};

/** "Administration › Applications › Application links": a menu path, set apart from the sentence around it. */
const MenuPath = ({ children }: { children: string }) => <span className="font-medium text-foreground">{children}</span>;

/** Data Center (issue 28): each server's own OAuth 2.0 provider, an incoming application link. */
const DC_TEXTS: Record<Integration, IdentityTexts> = {
  atlassian: {
    sharedCard: "Atlassian Integration",
    appHeading: "Incoming application link people link through",
    clientIdLabel: "Jira's client ID",
    secretLabel: "Jira's client secret",
    register: (
      <>
        In Jira, go to <MenuPath>Administration › Applications › Application links</MenuPath>, Create link, choose External application and
        Incoming: enter the callback URL below as the Redirect URL, give it the Write permission, then copy its Client ID and Client secret
        here.
      </>
    ),
    tokensLabel: "Allow personal access tokens",
    tokensDescription: "People may paste their own personal access tokens instead of linking through the incoming application link.",
  },
  bitbucket: {
    sharedCard: "Bitbucket Integration",
    appHeading: "Incoming application link people link through",
    clientIdLabel: "Client ID",
    secretLabel: "Client secret",
    register: (
      <>
        In Bitbucket, go to <MenuPath>Administration › Application links</MenuPath>, Create link, choose External application and Incoming:
        enter the callback URL below as the Redirect URL, give it the Repositories write permission, then copy its Client ID and Client
        secret here.
      </>
    ),
    tokensLabel: "Allow personal access tokens",
    tokensDescription: "People may paste their own personal access token instead of linking through the incoming application link.",
  },
};

/** Atlassian on Data Center with Confluence configured: Confluence's own incoming application link. */
const CONFLUENCE_APP = {
  heading: "Confluence's incoming application link",
  clientIdLabel: "Confluence's client ID",
  secretLabel: "Confluence's client secret",
  register: (
    <>
      Confluence is a server of its own, with its own link. In Confluence, go to{" "}
      <MenuPath>General configuration › Application links</MenuPath>, Create link, choose External application and Incoming: enter the same
      callback URL below as the Redirect URL, give it the Write permission, then copy its Client ID and Client secret here.
    </>
  ),
};

const textsOf = (integration: Integration, stored: IdentitySettingsDto | undefined): IdentityTexts =>
  (stored?.deployment === "datacenter" ? DC_TEXTS : CLOUD_TEXTS)[integration];

const MODE_DESCRIPTIONS = (texts: IdentityTexts): Record<IdentityMode, string> => ({
  shared: `Every call uses the account saved in ${texts.sharedCard}, whoever asks.`,
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
  const texts = textsOf(integration, stored);
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
    const fields = IDENTITY_ERROR_FIELDS.filter((name) => problems[name]);
    if (fields.length > 0) {
      fields.forEach((name, i) => form.setError(name, { type: "rule", message: problems[name] }, { shouldFocus: i === 0 }));
      return;
    }
    save.mutate(
      { integration, input: identityInputOf(values) },
      {
        onError: (error) =>
          applyServerFieldErrors(form, error, [
            "mode",
            "allowMachineClients",
            "allowApiTokens",
            "oauthClientId",
            "oauthClientSecret",
            "confluenceOauthClientId",
            "confluenceOauthClientSecret",
          ]),
      },
    );
  });

  const modeError = errors.mode?.message;

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
                        {MODE_DESCRIPTIONS(texts)[mode]}
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
          label={texts.tokensLabel}
          description={texts.tokensDescription}
        />

        <AppBox
          form={form}
          id={id}
          fields={["oauthClientId", "oauthClientSecret"]}
          heading={texts.appHeading}
          howTo={texts.register}
          clientIdLabel={texts.clientIdLabel}
          secretLabel={texts.secretLabel}
          storedHint={stored?.oauthClientSecretHint ?? null}
          canWrite={canWrite}
        />
        {stored?.confluenceAppWanted && (
          <AppBox
            form={form}
            id={id}
            fields={["confluenceOauthClientId", "confluenceOauthClientSecret"]}
            heading={CONFLUENCE_APP.heading}
            howTo={CONFLUENCE_APP.register}
            clientIdLabel={CONFLUENCE_APP.clientIdLabel}
            secretLabel={CONFLUENCE_APP.secretLabel}
            storedHint={stored.confluenceOauthClientSecretHint}
            canWrite={canWrite}
          />
        )}
      </fieldset>

      {stored?.callbackUrl && (
        <CallbackUrl id={`${id}-callback`} url={stored.callbackUrl} dataCenter={stored.deployment === "datacenter"} />
      )}

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

/**
 * One app people link through (the OAuth app or consumer, or on Data Center an incoming
 * application link: Jira's or Bitbucket's, and Confluence's): how to register it, its client id
 * and its write-only secret, the stored one's hint.
 */
function AppBox({
  form,
  id,
  fields: [idField, secretField],
  heading,
  howTo,
  clientIdLabel,
  secretLabel,
  storedHint: hint,
  canWrite,
}: {
  form: UseFormReturn<IdentityFormValues>;
  id: string;
  fields: ["oauthClientId", "oauthClientSecret"] | ["confluenceOauthClientId", "confluenceOauthClientSecret"];
  heading: string;
  howTo: ReactNode;
  clientIdLabel: string;
  secretLabel: string;
  storedHint: string | null;
  canWrite: boolean;
}) {
  const { errors } = form.formState;
  const headingId = `${id}-${idField}-box`;
  return (
    <div role="group" aria-labelledby={headingId} className="grid min-w-0 grid-cols-1 gap-4 rounded-md border border-border p-4">
      <div className="space-y-1">
        <h3 id={headingId} className="text-sm font-medium">
          {heading}
        </h3>
        <p className="text-xs text-muted-foreground">{howTo}</p>
      </div>
      <TextField
        id={`${id}-${idField}`}
        label={clientIdLabel}
        // A change answers the message under the field; Jira's (or the one) client id is also a way to link, answering the mode's.
        registration={form.register(idField, {
          onChange: () => form.clearErrors(idField === "oauthClientId" ? ["mode", idField] : [idField]),
        })}
        error={errors[idField]?.message}
        className="[&_input]:font-mono"
      />
      <TextField
        id={`${id}-${secretField}`}
        label={secretLabel}
        type="password"
        autoComplete="new-password"
        placeholder={hint ? secretHint(hint) : undefined}
        registration={form.register(secretField)}
        error={errors[secretField]?.message}
        hint={hint ? `A secret is stored (${secretHint(hint)}).${canWrite ? " Leave blank to keep it." : ""}` : undefined}
      />
    </div>
  );
}

/** The callback URL to register with the app or consumer (each incoming application link on Data Center), with its copy button. */
function CallbackUrl({ id, url, dataCenter }: { id: string; url: string; dataCenter: boolean }) {
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
      <p className="text-xs text-muted-foreground">
        {dataCenter
          ? "Enter it as the Redirect URL of each incoming application link, exactly as shown (it is built from PUBLIC_URL)."
          : "Register it with the app exactly as shown (it is built from PUBLIC_URL)."}
      </p>
    </div>
  );
}
