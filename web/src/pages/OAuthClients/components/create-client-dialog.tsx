import { applyServerFieldErrors } from "@/lib/form-errors";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Controller, useForm, type FieldPath, type UseFormReturn } from "react-hook-form";
import { DEFAULT_SCOPES_TEXT, OAUTH_SCOPES, OAuthClientFormSchema, type OAuthClientFormInput } from "@contract/oauth";
import { useCreateOAuthClient } from "@/api/oauth-clients";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { FormSwitchField } from "@/components/ui/switch-field";
import { Textarea } from "@/components/ui/textarea";

type Form = UseFormReturn<OAuthClientFormInput, unknown, z.output<typeof OAuthClientFormSchema>>;

/** Spec section 5: scopes default to "read write", new clients are active; confidential by default (D7). */
const EMPTY: OAuthClientFormInput = { name: "", redirectUris: "", scopes: DEFAULT_SCOPES_TEXT, isActive: true, clientType: "confidential" };

const SERVER_FIELDS = ["name", "redirectUris", "scopes", "isActive", "clientType"] as const;

const CLIENT_TYPES = [
  { value: "confidential", label: "Confidential", hint: "A server-side app: it authenticates with a client secret." },
  { value: "public", label: "Public", hint: "A browser, desktop or mobile app: no secret, PKCE required." },
] as const;

const ID = "create-oauth-client";


/** "Create Client" (spec sections 2, 4 and 5). On success it closes and its form starts afresh next time. */
export function CreateClientDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Create Client</DialogTitle>
          <DialogDescription>Register an application that may obtain tokens for the MCP server.</DialogDescription>
        </DialogHeader>
        {open && <CreateClientForm onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

function CreateClientForm({ onDone }: { onDone: () => void }) {
  const create = useCreateOAuthClient();
  const form: Form = useForm<OAuthClientFormInput, unknown, z.output<typeof OAuthClientFormSchema>>({
    resolver: zodResolver(OAuthClientFormSchema),
    defaultValues: EMPTY,
  });
  const busy = create.isPending;
  const errors = form.formState.errors;
  const error = (name: FieldPath<OAuthClientFormInput>) => errors[name]?.message;

  const onSubmit = form.handleSubmit((values) => {
    create.mutate(values, {
      onSuccess: () => {
        form.reset(EMPTY);
        onDone();
      },
      onError: (failure) => applyServerFieldErrors(form, failure, SERVER_FIELDS),
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid gap-4">
      <fieldset disabled={busy} className="grid min-w-0 gap-4">
        <div className="space-y-2">
          <Label htmlFor={`${ID}-name`}>Name</Label>
          <Input
            id={`${ID}-name`}
            autoComplete="off"
            placeholder="e.g. Claude Desktop"
            aria-invalid={error("name") ? true : undefined}
            aria-describedby={describedBy(error("name") && `${ID}-name-error`)}
            {...form.register("name")}
          />
          <FieldError id={`${ID}-name-error`} message={error("name")} />
        </div>

        <div className="space-y-2">
          <Label htmlFor={`${ID}-redirectUris`}>Redirect URIs</Label>
          <Textarea
            id={`${ID}-redirectUris`}
            rows={3}
            autoCapitalize="none"
            spellCheck={false}
            className="font-mono text-xs"
            placeholder={"https://app.example.com/oauth/callback\nhttp://localhost:3000/callback"}
            aria-invalid={error("redirectUris") ? true : undefined}
            aria-describedby={describedBy(`${ID}-redirectUris-hint`, error("redirectUris") && `${ID}-redirectUris-error`)}
            {...form.register("redirectUris")}
          />
          <p id={`${ID}-redirectUris-hint`} className="text-xs text-muted-foreground">
            One per line. https, or http for localhost only.
          </p>
          <FieldError id={`${ID}-redirectUris-error`} message={error("redirectUris")} />
        </div>

        <div className="space-y-2">
          <Label htmlFor={`${ID}-scopes`}>Scopes</Label>
          <Input
            id={`${ID}-scopes`}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            className="font-mono text-xs"
            aria-invalid={error("scopes") ? true : undefined}
            aria-describedby={describedBy(`${ID}-scopes-hint`, error("scopes") && `${ID}-scopes-error`)}
            {...form.register("scopes")}
          />
          <p id={`${ID}-scopes-hint`} className="text-xs text-muted-foreground">
            Space-separated. Known scopes: {OAUTH_SCOPES.join(", ")}.
          </p>
          <FieldError id={`${ID}-scopes-error`} message={error("scopes")} />
        </div>

        <div className="space-y-2">
          <p id={`${ID}-clientType-label`} className="text-sm font-medium leading-none">
            Client type
          </p>
          <Controller
            control={form.control}
            name="clientType"
            render={({ field }) => (
              <RadioGroup
                aria-labelledby={`${ID}-clientType-label`}
                value={field.value}
                onValueChange={field.onChange}
                ref={field.ref}
                className="gap-2"
              >
                {CLIENT_TYPES.map((type) => {
                  const itemId = `${ID}-clientType-${type.value}`;
                  return (
                    <div
                      key={type.value}
                      className="flex gap-3 rounded-md border border-border p-3 has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-primary/5"
                    >
                      <RadioGroupItem id={itemId} value={type.value} aria-describedby={`${itemId}-hint`} className="mt-0.5" />
                      <div className="space-y-1">
                        <Label htmlFor={itemId}>{type.label}</Label>
                        <p id={`${itemId}-hint`} className="text-xs text-muted-foreground">
                          {type.hint}
                        </p>
                      </div>
                    </div>
                  );
                })}
              </RadioGroup>
            )}
          />
          <FieldError id={`${ID}-clientType-error`} message={error("clientType")} />
        </div>

        <FormSwitchField control={form.control} name="isActive" id={`${ID}-isActive`} label="Active" description="An active client can obtain tokens." />
      </fieldset>
      <DialogFormFooter busy={busy} onCancel={onDone} submitLabel="Create Client" pendingLabel="Creating..." />
    </form>
  );
}
