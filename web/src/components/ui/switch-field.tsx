import type { ComponentProps, ReactNode } from "react";
import { Controller, type Control, type FieldValues, type Path } from "react-hook-form";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";

type SwitchFieldProps = Omit<ComponentProps<typeof Switch>, "id" | "aria-describedby"> & {
  id: string;
  label: string;
  /** The sentence under the label saying what the switch does; it describes the switch. */
  description: ReactNode;
};

/** A bordered row: label and description on the left, the switch on the right ("Active" and the like). */
export function SwitchField({ id, label, description, ...props }: SwitchFieldProps) {
  return (
    <div className="flex items-center justify-between gap-4 rounded-md border border-border p-3">
      <div className="space-y-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch id={id} aria-describedby={`${id}-hint`} {...props} />
    </div>
  );
}

type FormSwitchFieldProps<Values extends FieldValues, Output> = Omit<SwitchFieldProps, "checked" | "onCheckedChange" | "onBlur" | "ref"> & {
  control: Control<Values, unknown, Output>;
  /** A boolean field of the form. */
  name: Path<Values>;
};

/** A SwitchField bound to a boolean field of a react-hook-form form (unset counts as on). */
export function FormSwitchField<Values extends FieldValues, Output>({ control, name, ...props }: FormSwitchFieldProps<Values, Output>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <SwitchField {...props} checked={field.value ?? true} onCheckedChange={field.onChange} onBlur={field.onBlur} ref={field.ref} />
      )}
    />
  );
}
