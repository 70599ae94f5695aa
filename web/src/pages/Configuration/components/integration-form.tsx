import { zodResolver } from "@hookform/resolvers/zod";
import type { UseQueryResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import { useEffect, useRef, type ComponentType, type ReactNode } from "react";
import { Controller, useForm, useWatch, type DefaultValues, type FieldValues, type Path, type Resolver } from "react-hook-form";
import type { z } from "zod";
import type { Deployment, DeploymentChoice } from "@contract/integrations";
import type { ApiError } from "@/api/client";
import { QueryError } from "@/components/ui/query-error";
import { FormSwitchField } from "@/components/ui/switch-field";
import { TextField } from "@/components/ui/text-field";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { DEPLOYMENT_OPTIONS, withHiddenBlank, type FormView } from "../lib/integration-fields";
import { ChoiceField } from "./choice-field";
import { FormActions, secretHint } from "./form-parts";
import { FormSkeleton, IntegrationCard, type StoredState } from "./integration-card";

/** What every integration form holds besides its own fields: where it runs and whether it is on. */
interface BaseValues extends FieldValues {
  deployment: DeploymentChoice;
  isActive: boolean;
}

/**
 * What sets one integration's card and form apart: its texts, its fields for each deployment, the
 * stored secret, the schema and the hooks. Values is what the form holds, Output what the schema
 * hands to save.
 */
export interface IntegrationSpec<Dto extends StoredState, Values extends BaseValues, Output> {
  /** "atlassian": the prefix of every id in the card (tests and labels rely on them). */
  id: string;
  icon: LucideIcon;
  title: string;
  description: string;
  /** The form's accessible name: "Atlassian configuration". */
  formLabel: string;
  /** What the form holds for a stored config (or none): the secret always blank (spec section 4). */
  values: (stored: Dto | null | undefined) => Values;
  /**
   * What the form shows for what it holds (issue 28): the deployment, the fields in order and the
   * secret's texts. It follows the values as they are typed.
   */
  view: (values: Values, stored: Dto | null | undefined, detected?: Deployment | null) => FormView<Path<Values>>;
  /** The deployment of the product the last connection test found for the stored config, if known (the reach's). */
  useDetected: () => Deployment | null;
  /** What a field the view does not show is validated and sent as (what was typed stays in the form). */
  blanks: Partial<Values>;
  /**
   * The secret (docs/decisions.md#write-only-secrets): never shown, only its last characters; blank
   * keeps the stored one. Its label and hints come from the view.
   */
  secret: {
    name: Path<Values>;
    /** The DTO field holding the stored secret's last characters. */
    hintKey: keyof Dto;
  };
  /** The sentence under the Active switch. */
  activeDescription: string;
  /** The form schema: the secret is required unless one is stored. */
  schema: (hasStoredSecret: boolean) => z.ZodType<Output, Values>;
  useConfig: () => UseQueryResult<Dto | null, ApiError>;
  useSave: () => {
    isPending: boolean;
    mutate: (values: Output, options: { onError: (error: ApiError) => void }) => void;
  };
  useTest: () => { isPending: boolean; mutate: () => void };
  /** A read-only line at the bottom of the card, from the stored config. */
  footer?: (stored: Dto | null | undefined) => ReactNode;
  /** Who a stored configuration connects as and what it sees (issue 25): the first line at the bottom. */
  Reach?: ComponentType;
}

/** An integration's card (spec sections 2, 3 and 5): loading, a load error, or the form. */
export function IntegrationConfigCard<Dto extends StoredState, Values extends BaseValues, Output>({
  spec,
  canWrite,
}: {
  spec: IntegrationSpec<Dto, Values, Output>;
  canWrite: boolean;
}) {
  const config = spec.useConfig();
  return (
    <IntegrationCard
      id={spec.id}
      icon={spec.icon}
      title={spec.title}
      description={spec.description}
      stored={config.isPending || config.error ? undefined : config.data}
      footer={
        spec.Reach && config.data?.configured ? (
          <>
            <spec.Reach />
            {spec.footer?.(config.data)}
          </>
        ) : (
          spec.footer?.(config.data)
        )
      }
    >
      {config.isPending ? (
        // The deployment choice, the fields of a new form and the secret.
        <FormSkeleton fields={spec.view(spec.values(null), null).fields.length + 2} />
      ) : config.error ? (
        <QueryError error={config.error} onRetry={() => void config.refetch()} retrying={config.isFetching} />
      ) : (
        <IntegrationForm spec={spec} stored={config.data} canWrite={canWrite} />
      )}
    </IntegrationCard>
  );
}

interface IntegrationFormProps<Dto extends StoredState, Values extends BaseValues, Output> {
  spec: IntegrationSpec<Dto, Values, Output>;
  stored: Dto | null;
  canWrite: boolean;
}

function IntegrationForm<Dto extends StoredState, Values extends BaseValues, Output>({
  spec,
  stored,
  canWrite,
}: IntegrationFormProps<Dto, Values, Output>) {
  const { id, secret } = spec;
  const save = spec.useSave();
  const test = spec.useTest();
  const storedHint = stored?.[secret.hintKey];
  const hint = typeof storedHint === "string" ? storedHint : null;
  const hasStoredSecret = hint !== null || stored?.configured === true;

  // The schema depends on whether a secret is stored (blank keeps it), and which fields show on what
  // is stored; the resolver reads the latest. Fields the view hides are checked and sent blank.
  const latest = useRef({ hasStoredSecret, stored });
  latest.current = { hasStoredSecret, stored };
  const resolver: Resolver<Values, unknown, Output> = (values, context, options) =>
    zodResolver(spec.schema(latest.current.hasStoredSecret))(
      withHiddenBlank(values, spec.view(values, latest.current.stored), spec.blanks),
      context,
      options,
    );

  const form = useForm<Values, unknown, Output>({ resolver, defaultValues: spec.values(stored) as DefaultValues<Values> });
  const { errors, isDirty } = form.formState;
  // What is typed decides what shows (the deployment "Detect automatically" reads from the entries).
  const values = { ...spec.values(stored), ...useWatch({ control: form.control }) } as Values;
  const view = spec.view(values, stored, spec.useDetected());

  // Spec section 4: the form reloads from the stored config when it arrives (secret blank). Any
  // change of it counts: a connection test that detected another deployment changes the stored one
  // (the config is asked again after every test), and the fields follow.
  const key = JSON.stringify(stored ?? null);
  const appliedKey = useRef(key);
  useEffect(() => {
    if (appliedKey.current === key) return;
    appliedKey.current = key;
    form.reset(spec.values(stored) as DefaultValues<Values>);
  }, [key, spec, stored, form]);

  const errorOf = (name: Path<Values>): string | undefined => {
    const message = errors[name]?.message;
    return typeof message === "string" ? message : undefined;
  };

  const saving = save.isPending;
  const disabled = saving || !canWrite;
  const onSubmit = form.handleSubmit((output) => {
    save.mutate(output, {
      onError: (error) => applyServerFieldErrors(form, error, Object.keys(spec.values(null)) as Path<Values>[]),
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={saving} aria-label={spec.formLabel} className="grid gap-4">
      <fieldset disabled={disabled} className="grid min-w-0 gap-4">
        <Controller
          control={form.control}
          name={"deployment" as Path<Values>}
          render={({ field }) => (
            <ChoiceField
              id={`${id}-deployment`}
              label="Deployment"
              options={DEPLOYMENT_OPTIONS}
              value={field.value as string}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              disabled={disabled}
              hint={view.shown.note ?? undefined}
              error={errorOf(field.name)}
            />
          )}
        />
        {view.fields.map((field) =>
          field.kind === "choice" ? (
            <Controller
              key={field.name}
              control={form.control}
              name={field.name}
              render={({ field: bound }) => (
                <ChoiceField
                  id={`${id}-${field.name}`}
                  label={field.label}
                  options={field.options}
                  value={bound.value as string}
                  onChange={bound.onChange}
                  onBlur={bound.onBlur}
                  inputRef={bound.ref}
                  disabled={disabled}
                  hint={field.hint}
                  error={errorOf(field.name)}
                />
              )}
            />
          ) : (
            <TextField
              key={field.name}
              id={`${id}-${field.name}`}
              label={field.label}
              type={field.type}
              placeholder={field.placeholder}
              autoComplete={field.autoComplete}
              registration={form.register(field.name)}
              error={errorOf(field.name)}
              hint={field.hint}
            />
          ),
        )}
        <TextField
          id={`${id}-${secret.name}`}
          label={view.secret.label}
          type="password"
          autoComplete="new-password"
          placeholder={hint ? secretHint(hint) : undefined}
          registration={form.register(secret.name)}
          error={errorOf(secret.name)}
          hint={
            hasStoredSecret
              ? `${view.secret.storedNoun} is stored${hint ? ` (${secretHint(hint)})` : ""}.${canWrite ? " Leave blank to keep it." : ""}`
              : view.secret.howTo
          }
        />
        {view.extraSecret && (
          <TextField
            id={`${id}-${view.extraSecret.name}`}
            label={view.extraSecret.label}
            type="password"
            autoComplete="new-password"
            placeholder={view.extraSecret.storedHint ? secretHint(view.extraSecret.storedHint) : undefined}
            registration={form.register(view.extraSecret.name as Path<Values>)}
            error={errorOf(view.extraSecret.name as Path<Values>)}
            hint={
              view.extraSecret.storedHint
                ? `${view.extraSecret.storedNoun} is stored (${secretHint(view.extraSecret.storedHint)}).${canWrite ? " Leave blank to keep it." : ""}`
                : view.extraSecret.howTo
            }
          />
        )}
        <FormSwitchField
          control={form.control}
          name={"isActive" as Path<Values>}
          id={`${id}-isActive`}
          label="Active"
          description={spec.activeDescription}
        />
      </fieldset>
      <FormActions
        idPrefix={id}
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
