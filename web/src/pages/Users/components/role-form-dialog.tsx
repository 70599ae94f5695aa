import type { ApiError } from "@/api/client";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
import { Controller, useForm } from "react-hook-form";
import type { z } from "zod";
import { PERMISSION_CATALOGUE, permissionKey } from "@contract/permissions";
import { RoleCreateSchema, type RoleDto } from "@contract/users";
import { usePermissionCatalogue, useCreateRole, useUpdateRole, type PermissionCatalogueEntry } from "@/api/roles";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { LoadingState } from "@/components/ui/spinner";
import { FormSwitchField } from "@/components/ui/switch-field";
import { Textarea } from "@/components/ui/textarea";

const CATALOGUE_ORDER: string[] = PERMISSION_CATALOGUE.map(permissionKey);

type RoleFormValues = z.input<typeof RoleCreateSchema>;
type RoleFormOutput = z.output<typeof RoleCreateSchema>;

interface RoleFormDialogProps {
  /** The custom role to edit; null to create one. */
  role: RoleDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Add Role / Edit Role: name, description, active, and the permissions grouped by resource. */
export function RoleFormDialog({ role, open, onOpenChange }: RoleFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{role ? "Edit Role" : "Add Role"}</DialogTitle>
          <DialogDescription>
            A role is a named set of permissions. Users get the permissions of each active role they hold.
          </DialogDescription>
        </DialogHeader>
        {open && <RoleForm key={role?.id ?? "new"} role={role} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function RoleForm({ role, onDone }: { role: RoleDto | null; onDone: () => void }) {
  const catalogue = usePermissionCatalogue();
  const create = useCreateRole();
  const update = useUpdateRole();
  const busy = create.isPending || update.isPending;
  const form = useForm<RoleFormValues, unknown, RoleFormOutput>({
    resolver: zodResolver(RoleCreateSchema),
    defaultValues: {
      name: role?.name ?? "",
      description: role?.description ?? "",
      isActive: role?.isActive ?? true,
      permissions: role?.permissions.map(permissionKey) ?? [],
    },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    const body = { ...values, description: values.description || null };
    const onError = (error: ApiError) => applyServerFieldErrors(form, error, ["name", "description", "permissions"]);
    if (role) update.mutate({ id: role.id, changes: body }, { onSuccess: onDone, onError });
    else create.mutate(body, { onSuccess: onDone, onError });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid gap-4">
      <fieldset disabled={busy} className="grid min-w-0 gap-4">
        <div className="space-y-2">
          <Label htmlFor="role-name">Name</Label>
          <Input
            id="role-name"
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "role-name-error" : undefined}
            {...form.register("name")}
          />
          <FieldError id="role-name-error" message={errors.name?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="role-description">Description</Label>
          <Textarea
            id="role-description"
            rows={2}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? "role-description-error" : undefined}
            {...form.register("description")}
          />
          <FieldError id="role-description-error" message={errors.description?.message} />
        </div>
        <FormSwitchField
          control={form.control}
          name="isActive"
          id="role-active"
          label="Active"
          description="An inactive role stays assigned but grants nothing"
        />
        <fieldset className="min-w-0 space-y-2">
          <legend className="mb-2 text-sm font-medium">Permissions</legend>
          {catalogue.isPending ? (
            <LoadingState label="Loading permissions..." className="py-6" />
          ) : catalogue.error ? (
            <p role="alert" className="text-sm text-destructive">
              {catalogue.error.serverMessage ?? catalogue.error.message}
            </p>
          ) : (
            <Controller
              control={form.control}
              name="permissions"
              render={({ field }) => (
                <PermissionChecklist entries={catalogue.data ?? []} value={field.value ?? []} onChange={field.onChange} />
              )}
            />
          )}
          <FieldError id="role-permissions-error" message={errors.permissions?.message} />
        </fieldset>
      </fieldset>
      <DialogFormFooter
        busy={busy}
        onCancel={onDone}
        submitLabel={role ? "Update Role" : "Create Role"}
        pendingLabel={role ? "Updating..." : "Creating..."}
      />
    </form>
  );
}

function PermissionChecklist({
  entries,
  value,
  onChange,
}: {
  entries: PermissionCatalogueEntry[];
  value: string[];
  onChange: (next: string[]) => void;
}) {
  const groups = useMemo(() => {
    // contract/permissions.ts orders the catalogue for this editor; unknown entries go last.
    const rank = (e: PermissionCatalogueEntry) => {
      const i = CATALOGUE_ORDER.indexOf(permissionKey(e));
      return i === -1 ? CATALOGUE_ORDER.length : i;
    };
    const byResource = new Map<string, PermissionCatalogueEntry[]>();
    for (const entry of [...entries].sort((a, b) => rank(a) - rank(b)))
      byResource.set(entry.resource, [...(byResource.get(entry.resource) ?? []), entry]);
    return [...byResource];
  }, [entries]);
  const chosen = new Set(value);
  const toggle = (key: string, checked: boolean) => onChange(checked ? [...value, key] : value.filter((k) => k !== key));

  return (
    <div className="grid gap-3 rounded-md border border-border p-3 sm:max-h-[22rem] sm:grid-cols-2 sm:overflow-y-auto">
      {groups.map(([resource, items]) => (
        <div key={resource} role="group" aria-labelledby={`perm-group-${resource}`} className="space-y-2">
          <p id={`perm-group-${resource}`} className="font-mono text-xs font-semibold text-muted-foreground">
            {resource}
          </p>
          {items.map((entry) => {
            const key = permissionKey(entry);
            const id = `perm-${key}`;
            return (
              <div key={entry.id} className="flex items-start gap-2.5">
                <Checkbox
                  id={id}
                  checked={chosen.has(key)}
                  onCheckedChange={(c) => toggle(key, c === true)}
                  aria-describedby={`${id}-description`}
                  className="mt-0.5"
                />
                <div className="min-w-0">
                  <Label htmlFor={id} className="font-mono text-xs">
                    {key}
                  </Label>
                  {entry.description && (
                    <p id={`${id}-description`} className="mt-0.5 text-xs text-muted-foreground">
                      {entry.description}
                    </p>
                  )}
                </div>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
