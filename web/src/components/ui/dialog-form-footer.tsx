import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";

interface DialogFormFooterProps {
  /** The form is being saved: both buttons are disabled and the submit button spins. */
  busy: boolean;
  onCancel: () => void;
  /** "Create User", "Update User", ... */
  submitLabel: string;
  /** What the submit button says while busy: "Creating...", "Updating...". */
  pendingLabel: string;
}

/** The footer of a form in a dialog: Cancel, then the submit button with its pending label and spinner. */
export function DialogFormFooter({ busy, onCancel, submitLabel, pendingLabel }: DialogFormFooterProps) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" disabled={busy}>
        {busy && <Spinner />}
        {busy ? pendingLabel : submitLabel}
      </Button>
    </DialogFooter>
  );
}
