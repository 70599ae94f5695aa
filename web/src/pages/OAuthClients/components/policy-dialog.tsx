import { applyServerFieldErrors } from "@/lib/form-errors";
import { useMemo } from "react";
import { Controller, useForm, useWatch, type UseFormReturn } from "react-hook-form";
import type { OAuthClientDto } from "@contract/oauth";
import {
  ClientPolicySchema,
  POLICY_FORM_FIELDS,
  policyFromForm,
  policyToForm,
  TOOLSET_NAMES,
  TOOLSETS,
  type PolicyFormValues,
  type Toolset,
} from "@contract/policy";
import { clientPolicySchemaFor, type PolicyOptionsDto } from "@contract/policy-options";
import { useSetOAuthClientPolicy } from "@/api/oauth-clients";
import { formatNumber } from "@/lib/format";
import { usePolicyOptions } from "@/api/policy-options";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldError } from "@/components/ui/field-error";
import { Label } from "@/components/ui/label";
import { FormSwitchField } from "@/components/ui/switch-field";
import { toolCount } from "../lib/policy-checks";
import { PolicyPickers } from "./policy-pickers";

type Form = UseFormReturn<PolicyFormValues>;

const ID = "client-policy";

/**
 * The policy is checked with the schema the server uses, on what PUT would send: a message lands
 * under the field it is about (a list's messages name the entry). Once the options are in, tools
 * switched off must be tools of this server, as the server checks too.
 */
function resolverFor(schema: typeof ClientPolicySchema | ReturnType<typeof clientPolicySchemaFor>) {
  return (values: PolicyFormValues) => {
    const parsed = schema.safeParse(policyFromForm(values));
    if (parsed.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "readOnly");
      errors[field] ??= { type: "validate", message: issue.message };
    }
    return { values: {}, errors };
  };
}

/** "Edit policy": what one OAuth client's AI may touch (issue 11 item 4). */
export function PolicyDialog({
  client,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  client: OAuthClientDto;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* A scrolling body between a fixed header and footer: Save stays in view at any height. */}
      <DialogContent
        className="flex max-h-[90dvh] flex-col gap-0 overflow-hidden p-0 sm:max-w-lg"
        onCloseAutoFocus={onCloseAutoFocus}
        onEscapeKeyDown={(event) => {
          // Escape in a picker whose list is open closes the list (the picker does), not the dialog.
          const focused = document.activeElement;
          if (focused?.getAttribute("role") === "combobox" && focused.getAttribute("aria-expanded") === "true") event.preventDefault();
        }}
      >
        <DialogHeader className="px-6 pb-4 pt-6">
          <DialogTitle>Policy for {client.name}</DialogTitle>
          <DialogDescription>
            What this client&apos;s AI may see and change. Its tokens follow the new policy from their next request.
          </DialogDescription>
        </DialogHeader>
        {open && <PolicyForm client={client} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function PolicyForm({ client, onDone }: { client: OAuthClientDto; onDone: () => void }) {
  const save = useSetOAuthClientPolicy();
  const options = usePolicyOptions();
  const loaded = options.data ?? null;
  const resolver = useMemo(
    () => resolverFor(loaded ? clientPolicySchemaFor(new Set(loaded.tools.map((t) => t.name))) : ClientPolicySchema),
    [loaded],
  );
  const form: Form = useForm<PolicyFormValues>({ resolver, defaultValues: policyToForm(client.policy) });
  const busy = save.isPending;
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit((values) => {
    save.mutate(
      { client, policy: policyFromForm(values) },
      { onSuccess: onDone, onError: (failure) => applyServerFieldErrors(form, failure, POLICY_FORM_FIELDS) },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy} className="flex min-h-0 flex-1 flex-col">
      <div className="min-h-0 flex-1 overflow-y-auto px-6 pb-6 pt-1">
        <fieldset disabled={busy} className="grid min-w-0 gap-4">
          <FormSwitchField
            control={form.control}
            name="readOnly"
            id={`${ID}-readOnly`}
            label="Read-only"
            description="Only tools that read are listed and callable, whatever the token's scopes."
          />

          <fieldset className="grid gap-2" aria-describedby={errors.toolsets ? `${ID}-toolsets-error` : `${ID}-toolsets-hint`}>
            <legend className="mb-1 text-sm font-medium leading-none">Toolsets</legend>
            <p id={`${ID}-toolsets-hint`} className="text-xs text-muted-foreground">
              The groups of tools on offer. The default ones suit most clients and keep the tool list small.
            </p>
            <Controller
              control={form.control}
              name="toolsets"
              render={({ field }) => (
                <ul className="grid gap-1.5">
                  {TOOLSET_NAMES.map((name: Toolset) => {
                    const itemId = `${ID}-toolset-${name}`;
                    const checked = field.value.includes(name);
                    return (
                      <li key={name} className="flex items-start gap-2.5">
                        <Checkbox
                          id={itemId}
                          checked={checked}
                          className="mt-0.5"
                          onCheckedChange={(on) =>
                            field.onChange(on === true ? [...field.value, name] : field.value.filter((t) => t !== name))
                          }
                          onBlur={field.onBlur}
                        />
                        <Label htmlFor={itemId} className="grid gap-0.5 font-normal leading-snug">
                          <span>{TOOLSETS[name].label}</span>
                          <span className="font-mono text-xs text-muted-foreground">
                            {name}
                            {TOOLSETS[name].default && <span className="font-sans"> · default</span>}
                          </span>
                        </Label>
                      </li>
                    );
                  })}
                </ul>
              )}
            />
            <FieldError id={`${ID}-toolsets-error`} message={errors.toolsets?.message} />
          </fieldset>

          <PolicyPickers form={form} idPrefix={ID} options={loaded} loading={options.isPending} />
        </fieldset>
      </div>
      <div className="grid gap-3 border-t border-border px-6 py-4">
        <ToolCount
          form={form}
          client={client}
          options={loaded}
          failure={options.error?.serverMessage ?? (options.isError ? "the options could not be loaded" : null)}
        />
        <DialogFormFooter busy={busy} onCancel={onDone} submitLabel="Save Policy" pendingLabel="Saving..." />
      </div>
    </form>
  );
}

/** "This client will have N of M tools.", live as the form changes (the MCP server's rule, contract isToolOffered). */
function ToolCount({
  form,
  client,
  options,
  failure,
}: {
  form: Form;
  client: OAuthClientDto;
  options: PolicyOptionsDto | null;
  failure: string | null;
}) {
  const [readOnly, toolsets, disabledTools] = useWatch({ control: form.control, name: ["readOnly", "toolsets", "disabledTools"] });
  if (!options) {
    return (
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {failure ? `The tool count is not available: ${failure}.` : "Counting the tools…"}
      </p>
    );
  }
  const { offered, total } = toolCount({ readOnly, toolsets, disabledTools }, options, client.scopes);
  return (
    <div className="grid gap-0.5" aria-live="polite" aria-atomic="true">
      <p className="text-sm font-medium" data-testid="policy-tool-count">
        This client will have <span className="tabular-nums">{formatNumber(offered)}</span> of{" "}
        <span className="tabular-nums">{formatNumber(total)}</span> tools.
      </p>
      <p className="text-xs text-muted-foreground">
        The most any of its tokens can get: a token without the write scope gets only the tools that read.
      </p>
    </div>
  );
}
