import { applyServerFieldErrors } from "@/lib/form-errors";
import { Controller, useForm, type UseFormReturn } from "react-hook-form";
import type { OAuthClientDto } from "@contract/oauth";
import { ClientPolicySchema, POLICY_FORM_FIELDS, policyFromForm, policyToForm, TOOLSET_NAMES, TOOLSETS, type PolicyFormValues, type Toolset } from "@contract/policy";
import { useSetOAuthClientPolicy } from "@/api/oauth-clients";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormSwitchField } from "@/components/ui/switch-field";

type Form = UseFormReturn<PolicyFormValues>;
type ListField = "jiraProjects" | "confluenceSpaces" | "bitbucketRepositories" | "disabledTools";

const ID = "client-policy";

const LISTS: { name: ListField; label: string; placeholder: string; hint: string }[] = [
  { name: "jiraProjects", label: "Jira projects", placeholder: "BK, OPS", hint: "Project keys. Blank: any project." },
  { name: "confluenceSpaces", label: "Confluence spaces", placeholder: "ENG, DOCS", hint: "Space keys. Blank: any space." },
  { name: "bitbucketRepositories", label: "Bitbucket repositories", placeholder: "api-gateway, bridgekeeper/web-console", hint: "repo or workspace/repo. Blank: any repository." },
  { name: "disabledTools", label: "Tools switched off", placeholder: "jira_create_issue", hint: "Tool names, as tools/list gives them. Blank: none." },
];

/**
 * The policy is checked with the schema the server uses, on what PUT would send: a message lands
 * under the field it is about (a list's messages name the entry).
 */
function resolver(values: PolicyFormValues) {
  const parsed = ClientPolicySchema.safeParse(policyFromForm(values));
  if (parsed.success) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "readOnly");
    errors[field] ??= { type: "validate", message: issue.message };
  }
  return { values: {}, errors };
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
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Policy for {client.name}</DialogTitle>
          <DialogDescription>What this client&apos;s AI may see and change. Its tokens follow the new policy from their next request.</DialogDescription>
        </DialogHeader>
        {open && <PolicyForm client={client} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function PolicyForm({ client, onDone }: { client: OAuthClientDto; onDone: () => void }) {
  const save = useSetOAuthClientPolicy();
  const form: Form = useForm<PolicyFormValues>({ resolver, defaultValues: policyToForm(client.policy) });
  const busy = save.isPending;
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit((values) => {
    save.mutate({ client, policy: policyFromForm(values) }, { onSuccess: onDone, onError: (failure) => applyServerFieldErrors(form, failure, POLICY_FORM_FIELDS) });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid gap-4">
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
                        onCheckedChange={(on) => field.onChange(on === true ? [...field.value, name] : field.value.filter((t) => t !== name))}
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

        {LISTS.map(({ name, label, placeholder, hint }) => {
          const message = errors[name]?.message;
          return (
            <div key={name} className="space-y-2">
              <Label htmlFor={`${ID}-${name}`}>{label}</Label>
              <Input
                id={`${ID}-${name}`}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                className="font-mono text-xs"
                placeholder={placeholder}
                aria-invalid={message ? true : undefined}
                aria-describedby={[`${ID}-${name}-hint`, message && `${ID}-${name}-error`].filter(Boolean).join(" ")}
                {...form.register(name)}
              />
              <p id={`${ID}-${name}-hint`} className="text-xs text-muted-foreground">
                {hint} Separate with commas.
              </p>
              <FieldError id={`${ID}-${name}-error`} message={message} />
            </div>
          );
        })}
      </fieldset>
      <DialogFormFooter busy={busy} onCancel={onDone} submitLabel="Save Policy" pendingLabel="Saving..." />
    </form>
  );
}
