import { useRef } from "react";
import { Controller, type Control } from "react-hook-form";
import { AI_MODEL_OPTIONS, CUSTOM_MODEL, type AiProviderForm, type AiProviderKind } from "@contract/ai-providers";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import type { ProviderFormValues } from "./provider-form-values";

interface ModelFieldProps {
  control: Control<ProviderFormValues, unknown, AiProviderForm>;
  idPrefix: string;
  provider: AiProviderKind | "";
  /** The model id is typed rather than picked from the list. */
  custom: boolean;
  onCustomChange: (custom: boolean) => void;
  error: string | undefined;
}

/**
 * Model (spec section 2: options depend on the provider; docs/decisions.md#model-lists: the lists
 * are data, latest first, and a custom model id is accepted). A kind with a list offers it and
 * "Custom model ID..."; an OpenAI-compatible server names its own models, so there the id is typed.
 */
export function ModelField({ control, idPrefix, provider, custom, onCustomChange, error }: ModelFieldProps) {
  const options = provider ? AI_MODEL_OPTIONS[provider] : [];
  const typed = provider !== "" && (options.length === 0 || custom);
  const selectId = `${idPrefix}-model`;
  const inputId = options.length === 0 ? selectId : `${idPrefix}-model-custom`;
  const errorId = `${idPrefix}-model-error`;
  const hintId = `${idPrefix}-model-hint`;
  const customInput = useRef<HTMLInputElement | null>(null);

  return (
    <Controller
      control={control}
      name="model"
      render={({ field }) => (
        <div className="min-w-0 space-y-2">
          {options.length > 0 || provider === "" ? (
            <>
              <Label htmlFor={selectId}>Model</Label>
              <NativeSelect
                id={selectId}
                ref={typed ? undefined : field.ref}
                value={provider === "" ? "" : custom ? CUSTOM_MODEL : field.value}
                disabled={provider === ""}
                aria-invalid={error && !typed ? true : undefined}
                aria-describedby={error && !typed ? errorId : undefined}
                onBlur={field.onBlur}
                onChange={(event) => {
                  const next = event.target.value;
                  if (next === CUSTOM_MODEL) {
                    onCustomChange(true);
                    field.onChange("");
                    // The input appears with this render: focus it once it is there.
                    queueMicrotask(() => customInput.current?.focus());
                  } else {
                    onCustomChange(false);
                    field.onChange(next);
                  }
                }}
              >
                {provider === "" && <option value="">Select a provider first</option>}
                {options.map((model, i) => (
                  <option key={model} value={model}>
                    {i === 0 ? `${model} (Latest)` : model}
                  </option>
                ))}
                {options.length > 0 && <option value={CUSTOM_MODEL}>Custom model ID...</option>}
              </NativeSelect>
              {!typed && <FieldError id={errorId} message={error} />}
            </>
          ) : null}
          {typed && (
            <div className="min-w-0 space-y-2">
              {options.length > 0 ? <Label htmlFor={inputId}>Custom model ID</Label> : <Label htmlFor={inputId}>Model</Label>}
              <Input
                id={inputId}
                ref={(el) => {
                  customInput.current = el;
                  field.ref(el);
                }}
                value={field.value}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                className="font-mono"
                placeholder={options.length > 0 ? options[0] : "e.g. llama3.1:8b"}
                aria-invalid={error ? true : undefined}
                aria-describedby={[error ? errorId : null, hintId].filter(Boolean).join(" ")}
              />
              <FieldError id={errorId} message={error} />
              <p id={hintId} className="text-xs text-muted-foreground">
                {options.length > 0
                  ? "The provider's own id for the model, as its documentation names it."
                  : "The model's name on that server, as it lists it (for example in /v1/models)."}
              </p>
            </div>
          )}
        </div>
      )}
    />
  );
}
