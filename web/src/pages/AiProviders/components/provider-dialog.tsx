import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef, useState } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import {
  AI_MODEL_OPTIONS,
  AI_PROVIDER_KINDS,
  AI_PROVIDER_LABELS,
  aiProviderFormSchema,
  type AiProvider,
  type AiProviderForm,
  type AiProviderKind,
} from "@contract/ai-providers";
import { useCreateAiProvider, useUpdateAiProvider } from "@/api/ai-providers";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldError } from "@/components/ui/field-error";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { FormSwitchField } from "@/components/ui/switch-field";
import { formField, TextField } from "@/components/ui/text-field";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { ModelField } from "./model-field";
import {
  createBody,
  EMPTY_PROVIDER,
  isCustomModel,
  PROVIDER_FORM_FIELDS,
  updateBody,
  valuesOf,
  type ProviderFormValues,
} from "./provider-form-values";

interface ProviderDialogProps {
  /** The provider being edited; null to add one. */
  provider: AiProvider | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/**
 * "Add AI Provider" / "Edit AI Provider" (spec sections 2, 4 and 5;
 * docs/decisions.md#write-only-secrets, #model-lists). The form is rebuilt each time the dialog
 * opens, so it always starts from the provider as stored (its key blank).
 */
export function ProviderDialog({ provider, open, onOpenChange, onCloseAutoFocus }: ProviderDialogProps) {
  const editing = provider !== null;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{editing ? "Edit AI Provider" : "Add AI Provider"}</DialogTitle>
          <DialogDescription>
            {editing
              ? `Change ${provider.name}'s model, key or status.`
              : "Connect a model the AI Chat can answer with. The key is stored encrypted and never shown again."}
          </DialogDescription>
        </DialogHeader>
        {open && <ProviderForm key={provider?.id ?? "new"} provider={provider} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

const ID = "ai-provider";

function ProviderForm({ provider, onDone }: { provider: AiProvider | null; onDone: () => void }) {
  const create = useCreateAiProvider();
  const update = useUpdateAiProvider();
  const storedHint = provider?.apiKeyHint ?? null;
  const initial = provider ? valuesOf(provider) : EMPTY_PROVIDER;
  const form = useForm<ProviderFormValues, unknown, AiProviderForm>({
    // The contract's form schema: the key is required unless one is stored (then blank keeps it).
    resolver: zodResolver(aiProviderFormSchema(storedHint !== null)) as Resolver<ProviderFormValues, unknown, AiProviderForm>,
    defaultValues: initial,
  });
  const [customModel, setCustomModel] = useState(() => isCustomModel(initial.provider, initial.model));
  const kind = form.watch("provider");
  const errors = form.formState.errors;
  const busy = create.isPending || update.isPending;
  const revalidate = form.formState.isSubmitted;

  /** Another kind: its latest model, and a base URL only for an OpenAI-compatible server. */
  const chooseKind = (next: AiProviderKind | "", onChange: (value: string) => void) => {
    onChange(next);
    const models = next ? AI_MODEL_OPTIONS[next] : [];
    setCustomModel(false);
    form.setValue("model", models[0] ?? "", { shouldValidate: revalidate });
    if (next !== "openai-compatible") form.setValue("baseUrl", "", { shouldValidate: revalidate });
    if (revalidate) void form.trigger("apiKey");
  };

  // A field the server refused gets focus once the form is enabled again (a disabled input cannot take it).
  const focusAfterSave = useRef<(typeof PROVIDER_FORM_FIELDS)[number] | null>(null);
  useEffect(() => {
    if (busy || !focusAfterSave.current) return;
    form.setFocus(focusAfterSave.current);
    focusAfterSave.current = null;
  }, [busy, form]);

  const onSubmit = form.handleSubmit((values) => {
    const onError = (error: Parameters<typeof applyServerFieldErrors>[1]) => {
      if (applyServerFieldErrors(form, error, PROVIDER_FORM_FIELDS))
        focusAfterSave.current = PROVIDER_FORM_FIELDS.find((name) => form.getFieldState(name).error) ?? null;
    };
    if (provider) update.mutate({ id: provider.id, changes: updateBody(values) }, { onSuccess: onDone, onError });
    else create.mutate(createBody(values), { onSuccess: onDone, onError });
  });

  const compatible = kind === "openai-compatible";
  const keyHint = provider
    ? storedHint !== null
      ? `Leave blank to keep the current key${storedHint ? ` (•••• ${storedHint})` : ""}.`
      : "No key is stored. Leave blank to keep it so, or enter one."
    : compatible
      ? "Optional: a server on your own network may need none. Stored encrypted, never shown again."
      : "Stored encrypted; only its last four characters are ever shown again.";

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid gap-4">
      <fieldset disabled={busy} className="grid min-w-0 gap-4">
        <TextField
          {...formField(form, ID, "name")}
          label="Name"
          placeholder="e.g. Production OpenAI"
          hint="A friendly name for this provider configuration."
        />

        <Controller
          control={form.control}
          name="provider"
          render={({ field }) => (
            <div className="min-w-0 space-y-2">
              <Label htmlFor={`${ID}-provider`}>Provider</Label>
              <NativeSelect
                id={`${ID}-provider`}
                ref={field.ref}
                value={field.value}
                onBlur={field.onBlur}
                onChange={(event) => chooseKind(event.target.value as AiProviderKind | "", field.onChange)}
                aria-invalid={errors.provider ? true : undefined}
                aria-describedby={errors.provider ? `${ID}-provider-error` : undefined}
              >
                <option value="" disabled>
                  Select a provider
                </option>
                {AI_PROVIDER_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {AI_PROVIDER_LABELS[k]}
                  </option>
                ))}
              </NativeSelect>
              <FieldError id={`${ID}-provider-error`} message={errors.provider?.message} />
            </div>
          )}
        />

        {compatible && (
          <TextField
            {...formField(form, ID, "baseUrl")}
            label="Base URL"
            type="url"
            placeholder="https://llm.example.internal/v1"
            hint="The root of the server's OpenAI-compatible API (Ollama, vLLM, LM Studio, a gateway); /chat/completions is added to it."
          />
        )}

        <ModelField
          control={form.control}
          idPrefix={ID}
          provider={kind}
          custom={customModel}
          onCustomChange={setCustomModel}
          error={errors.model?.message}
        />

        <TextField
          {...formField(form, ID, "apiKey")}
          label="API Key"
          type="password"
          autoComplete="new-password"
          placeholder={provider ? "Enter a new key to replace it" : undefined}
          hint={keyHint}
        />

        <FormSwitchField
          control={form.control}
          name="isActive"
          id={`${ID}-isActive`}
          label="Active"
          description="An active provider can be chosen in the AI Chat."
        />
      </fieldset>
      <DialogFormFooter
        busy={busy}
        onCancel={onDone}
        submitLabel={provider ? "Update Provider" : "Create Provider"}
        pendingLabel={provider ? "Updating..." : "Creating..."}
      />
    </form>
  );
}
