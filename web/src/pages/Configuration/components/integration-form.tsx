import { zodResolver } from "@hookform/resolvers/zod";
import type { UseQueryResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import { useEffect, useRef, type ComponentType, type ReactNode } from "react";
import { useForm, type DefaultValues, type FieldValues, type Path, type Resolver } from "react-hook-form";
import type { z } from "zod";
import type { ApiError } from "@/api/client";
import { FormSwitchField } from "@/components/ui/switch-field";
import { TextField } from "@/components/ui/text-field";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { FormActions, secretHint } from "./form-parts";
import { FormSkeleton, IntegrationCard, type StoredState } from "./integration-card";
import { QueryError } from "@/components/ui/query-error";

/** One text field of an integration form; its id is `${integration id}-${name}`. */
export interface IntegrationField<Name extends string> {
  name: Name;
  label: string;
  type?: "text" | "url";
  placeholder?: string;
  autoComplete?: string;
}

/**
 * What sets one integration's card and form apart: its texts, its fields, the stored secret, the
 * schema and the hooks. Values is what the form holds, Output what the schema hands to save.
 */
export interface IntegrationSpec<Dto extends StoredState, Values extends FieldValues, Output> {
  /** "atlassian": the prefix of every id in the card (tests and labels rely on them). */
  id: string;
  icon: LucideIcon;
  title: string;
  description: string;
  /** The form's accessible name: "Atlassian configuration". */
  formLabel: string;
  /** The plain text fields, shown from the stored config. */
  fields: readonly IntegrationField<Path<Values> & keyof Dto>[];
  /**
   * The secret (docs/decisions.md#write-only-secrets): never shown, only its last characters; blank
   * keeps the stored one.
   */
  secret: {
    name: Path<Values>;
    label: string;
    /** The DTO field holding the stored secret's last characters. */
    hintKey: keyof Dto;
    /** "A token": the start of "A token is stored (•••• abcd)." */
    storedNoun: string;
    /** Where to get one, shown while none is stored. */
    howTo: string;
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
export function IntegrationConfigCard<Dto extends StoredState, Values extends FieldValues, Output>({
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
        <FormSkeleton fields={spec.fields.length + 1} />
      ) : config.error ? (
        <QueryError error={config.error} onRetry={() => void config.refetch()} retrying={config.isFetching} />
      ) : (
        <IntegrationForm spec={spec} stored={config.data} canWrite={canWrite} />
      )}
    </IntegrationCard>
  );
}

interface IntegrationFormProps<Dto extends StoredState, Values extends FieldValues, Output> {
  spec: IntegrationSpec<Dto, Values, Output>;
  stored: Dto | null;
  canWrite: boolean;
}

function IntegrationForm<Dto extends StoredState, Values extends FieldValues, Output>({
  spec,
  stored,
  canWrite,
}: IntegrationFormProps<Dto, Values, Output>) {
  const { id, fields, secret } = spec;
  const save = spec.useSave();
  const test = spec.useTest();
  const storedHint = stored?.[secret.hintKey];
  const hint = typeof storedHint === "string" ? storedHint : null;
  const hasStoredSecret = hint !== null || stored?.configured === true;

  // The schema depends on whether a secret is stored (blank keeps it); the resolver reads the latest.
  const hasStoredRef = useRef(hasStoredSecret);
  hasStoredRef.current = hasStoredSecret;
  const resolver: Resolver<Values, unknown, Output> = (values, context, options) =>
    zodResolver(spec.schema(hasStoredRef.current))(values, context, options);

  const form = useForm<Values, unknown, Output>({ resolver, defaultValues: valuesFrom(spec, stored) });
  const { errors, isDirty } = form.formState;

  // Spec section 4: the form reloads from the stored config when it arrives (secret blank).
  const key = storedKey(spec, stored);
  const appliedKey = useRef(key);
  useEffect(() => {
    if (appliedKey.current === key) return;
    appliedKey.current = key;
    form.reset(valuesFrom(spec, stored));
  }, [key, spec, stored, form]);

  const errorOf = (name: Path<Values>): string | undefined => {
    const message = errors[name]?.message;
    return typeof message === "string" ? message : undefined;
  };

  const saving = save.isPending;
  const onSubmit = form.handleSubmit((values) => {
    save.mutate(values, {
      onError: (error) => applyServerFieldErrors(form, error, [...fields.map((field) => field.name), secret.name]),
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={saving} aria-label={spec.formLabel} className="grid gap-4">
      <fieldset disabled={saving || !canWrite} className="grid min-w-0 gap-4">
        {fields.map((field) => (
          <TextField
            key={field.name}
            id={`${id}-${field.name}`}
            label={field.label}
            type={field.type}
            placeholder={field.placeholder}
            autoComplete={field.autoComplete}
            registration={form.register(field.name)}
            error={errorOf(field.name)}
          />
        ))}
        <TextField
          id={`${id}-${secret.name}`}
          label={secret.label}
          type="password"
          autoComplete="new-password"
          placeholder={hint ? secretHint(hint) : undefined}
          registration={form.register(secret.name)}
          error={errorOf(secret.name)}
          hint={
            hasStoredSecret
              ? `${secret.storedNoun} is stored${hint ? ` (${secretHint(hint)})` : ""}.${canWrite ? " Leave blank to keep it." : ""}`
              : secret.howTo
          }
        />
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

/**
 * What the form shows for a stored config: the secret always blank (spec section 4,
 * docs/decisions.md#write-only-secrets).
 */
function valuesFrom<Dto extends StoredState, Values extends FieldValues, Output>(
  spec: IntegrationSpec<Dto, Values, Output>,
  stored: Dto | null | undefined,
): DefaultValues<Values> {
  const values: Record<string, unknown> = {};
  for (const { name } of spec.fields) values[name] = stored?.[name] ?? "";
  values[spec.secret.name] = "";
  values.isActive = stored?.configured ? stored.isActive : true;
  return values as DefaultValues<Values>;
}

/** Identity of a stored version: the form reloads only when the stored config itself changed. */
function storedKey<Dto extends StoredState, Values extends FieldValues, Output>(
  spec: IntegrationSpec<Dto, Values, Output>,
  stored: Dto | null | undefined,
) {
  return JSON.stringify([
    stored?.configured,
    ...spec.fields.map(({ name }) => stored?.[name]),
    stored?.isActive,
    stored?.[spec.secret.hintKey],
    stored?.updatedAt,
  ]);
}
