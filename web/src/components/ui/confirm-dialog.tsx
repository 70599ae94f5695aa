import type { ReactNode } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
  title: ReactNode;
  description: ReactNode;
  /** The destructive button: "Delete", "Deactivate", ... */
  confirmLabel: string;
  /** When given, the button says this while busy ("Deleting...") and is marked aria-busy. */
  pendingLabel?: string;
  /** The server is being asked: the dialog cannot be closed and both buttons are disabled. */
  busy: boolean;
  onConfirm: () => void;
}

/** A destructive confirmation (Cancel, then the red button); it stays open until the server has answered. */
export function ConfirmDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
  title,
  description,
  confirmLabel,
  pendingLabel,
  busy,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={onConfirm} disabled={busy} aria-busy={pendingLabel === undefined ? undefined : busy}>
            {busy && <Spinner />}
            {busy && pendingLabel !== undefined ? pendingLabel : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
