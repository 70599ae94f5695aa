import { Lock } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

interface FormActionsProps {
  idPrefix: string;
  canWrite: boolean;
  saving: boolean;
  testing: boolean;
  /** A config is stored: only then is there something to test. */
  configured: boolean;
  /** The form holds unsaved changes: the test checks the stored config, not these. */
  dirty: boolean;
  onTest: () => void;
}

/** Save ("Saving...") and Test Connection ("Testing..."), or a read-only note for a viewer. */
export function FormActions({ idPrefix, canWrite, saving, testing, configured, dirty, onTest }: FormActionsProps) {
  if (!canWrite) {
    return (
      <p className="flex items-start gap-2 rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground">
        <Lock className="mt-px size-3.5 shrink-0" aria-hidden="true" />
        Read-only: changing or testing this integration needs the config.write permission.
      </p>
    );
  }
  const hintId = `${idPrefix}-test-hint`;
  const hint = !configured
    ? "Save a configuration first, then test it."
    : dirty
      ? "Test Connection checks the saved configuration, not unsaved changes."
      : null;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving || testing}>
          {saving && <Spinner />}
          {saving ? "Saving..." : "Save"}
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={onTest}
          disabled={!configured || saving || testing}
          aria-describedby={hint ? hintId : undefined}
          aria-busy={testing || undefined}
        >
          {testing && <Spinner />}
          {testing ? "Testing..." : "Test Connection"}
        </Button>
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * The stored secret as far as it may be shown: only its last four characters
 * (docs/decisions.md#write-only-secrets).
 */
export const secretHint = (hint: string) => `•••• ${hint}`;
