import { applyServerFieldErrors } from "@/lib/form-errors";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Controller, useForm, type FieldPath, type UseFormReturn } from "react-hook-form";
import { useState } from "react";
import { CLIENT_PRESETS, type ClientPreset } from "@contract/connect";
import {
  DEFAULT_SCOPES_TEXT,
  OAUTH_SCOPES,
  OAuthClientFormSchema,
  SCOPE_DESCRIPTIONS,
  splitScopes,
  type OAuthClientDto,
  type OAuthClientFormInput,
  type OAuthScope,
} from "@contract/oauth";
import { useCreateOAuthClient } from "@/api/oauth-clients";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { FormSwitchField } from "@/components/ui/switch-field";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import { HowToConnect } from "./how-to-connect";

type Form = UseFormReturn<OAuthClientFormInput, unknown, z.output<typeof OAuthClientFormSchema>>;

/**
 * Spec section 5: scopes default to "read write", new clients are active; confidential by default
 * (docs/decisions.md#oauth-client-secrets).
 */
const EMPTY: OAuthClientFormInput = { name: "", redirectUris: "", scopes: DEFAULT_SCOPES_TEXT, isActive: true, clientType: "confidential" };

const SERVER_FIELDS = ["name", "redirectUris", "scopes", "isActive", "clientType"] as const;

const CLIENT_TYPES = [
  { value: "confidential", label: "Confidential", hint: "A server-side app: it authenticates with a client secret." },
  { value: "public", label: "Public", hint: "A browser, desktop or mobile app: no secret, PKCE required." },
] as const;

const ID = "create-oauth-client";

/**
 * "Create Client" (spec sections 2, 4 and 5), with presets for the common AI clients. Once
 * created it shows how to connect (the client's id and secret, the MCP URL and the snippet);
 * Done closes it, and its form starts afresh next time.
 */
export function CreateClientDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const [created, setCreated] = useState<{ client: OAuthClientDto; preset: ClientPreset } | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setCreated(null);
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-lg" onCloseAutoFocus={onCloseAutoFocus}>
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>How to connect</DialogTitle>
              <DialogDescription>
                {created.client.name} is ready. Give the AI client this server's address; it asks for the client ID (and secret) when it
                signs in.
              </DialogDescription>
            </DialogHeader>
            <HowToConnect client={created.client} preset={created.preset} onDone={() => close(false)} />
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Create Client</DialogTitle>
              <DialogDescription>Register an application that may obtain tokens for the MCP server.</DialogDescription>
            </DialogHeader>
            {open && <CreateClientForm onCancel={() => close(false)} onCreated={(client, preset) => setCreated({ client, preset })} />}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

const CUSTOM = CLIENT_PRESETS.find((p) => p.id === "custom")!;
const PRESET_NAMES = new Set(CLIENT_PRESETS.map((p) => p.name));

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

function CreateClientForm({
  onCancel,
  onCreated,
}: {
  onCancel: () => void;
  onCreated: (client: OAuthClientDto, preset: ClientPreset) => void;
}) {
  const [preset, setPreset] = useState<ClientPreset>(CUSTOM);
  const create = useCreateOAuthClient();
  const form: Form = useForm<OAuthClientFormInput, unknown, z.output<typeof OAuthClientFormSchema>>({
    resolver: zodResolver(OAuthClientFormSchema),
    defaultValues: EMPTY,
  });
  const busy = create.isPending;
  const errors = form.formState.errors;
  const error = (name: FieldPath<OAuthClientFormInput>) => errors[name]?.message;

  // A preset fills the redirect URIs and type its client signs in with, and its name unless one was typed.
  const choose = (next: ClientPreset) => {
    setPreset(next);
    const name = form.getValues("name").trim();
    if (name === "" || PRESET_NAMES.has(name)) form.setValue("name", next.name, { shouldValidate: form.formState.isSubmitted });
    form.setValue("redirectUris", next.redirectUris.join("\n"), { shouldValidate: form.formState.isSubmitted });
    form.setValue("clientType", next.clientType);
  };
  const scopesText = form.watch("scopes");
  const chosenScopes = new Set(splitScopes(scopesText));
  // The checkboxes edit the spec's space-separated text: known scopes in their order, anything else typed kept after them.
  const toggleScope = (scope: OAuthScope, on: boolean) => {
    const typed = splitScopes(scopesText);
    const known = OAUTH_SCOPES.filter((s) => (s === scope ? on : typed.includes(s)));
    const unknown = typed.filter((s) => !(OAUTH_SCOPES as readonly string[]).includes(s));
    form.setValue("scopes", [...known, ...unknown].join(" "), { shouldValidate: form.formState.isSubmitted });
  };

  const onSubmit = form.handleSubmit((values) => {
    create.mutate(values, {
      onSuccess: (client) => {
        form.reset(EMPTY);
        onCreated(client, preset);
      },
      onError: (failure) => applyServerFieldErrors(form, failure, SERVER_FIELDS),
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid gap-4">
      <fieldset disabled={busy} className="grid min-w-0 gap-4">
        <div className="space-y-2">
          <p id={`${ID}-preset-label`} className="text-sm font-medium leading-none">
            Preset
          </p>
          <div role="group" aria-labelledby={`${ID}-preset-label`} className="flex flex-wrap gap-1.5">
            {CLIENT_PRESETS.map((p) => (
              <button
                key={p.id}
                type="button"
                aria-pressed={preset.id === p.id}
                onClick={() => choose(p)}
                className={cn(
                  "rounded-md border border-border px-2.5 py-1 text-sm transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  "aria-pressed:border-primary aria-pressed:bg-primary/10 aria-pressed:text-foreground",
                )}
              >
                {p.label}
              </button>
            ))}
          </div>
        </div>

        <div className="space-y-2">
          <Label htmlFor={`${ID}-name`}>Name</Label>
          {/* The first field takes focus, before the presets above it (a choice most will skip). */}
          <Input
            id={`${ID}-name`}
            autoFocus
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
            One per line. https, http for localhost only, or an app's own scheme (cursor://…).
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
          <div role="group" aria-label="Rights to grant" className="grid gap-1.5">
            {OAUTH_SCOPES.map((scope) => (
              <div key={scope} className="flex items-start gap-2">
                <Checkbox
                  id={`${ID}-scope-${scope}`}
                  checked={chosenScopes.has(scope)}
                  onCheckedChange={(on) => toggleScope(scope, on === true)}
                  className="mt-0.5"
                  aria-describedby={`${ID}-scope-${scope}-hint`}
                />
                <div className="grid gap-0.5">
                  <Label htmlFor={`${ID}-scope-${scope}`} className="font-mono text-xs">
                    {scope}
                  </Label>
                  <span id={`${ID}-scope-${scope}-hint`} className="text-xs text-muted-foreground">
                    {SCOPE_DESCRIPTIONS[scope]}
                  </span>
                </div>
              </div>
            ))}
          </div>
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

        <FormSwitchField
          control={form.control}
          name="isActive"
          id={`${ID}-isActive`}
          label="Active"
          description="An active client can obtain tokens."
        />
      </fieldset>
      <DialogFormFooter busy={busy} onCancel={onCancel} submitLabel="Create Client" pendingLabel="Creating..." />
    </form>
  );
}
