import { Pencil, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

interface CardEditDeleteActionsProps {
  /** Read after "Edit " and "Delete " by a screen reader: "Ollama", "role auditors". */
  label: string;
  /** The thing, for the buttons' tooltips: "provider", "role". */
  noun: string;
  onEdit: () => void;
  onDelete: () => void;
  /** The delete is under way: its button spins and waits. */
  deleting?: boolean;
  /** Marks the Edit button as `data-edit-for`, for focus to find it again after a dialog. */
  editFor?: string;
}

/** A card's Edit and Delete icon buttons, at its top right. */
export function CardEditDeleteActions({ label, noun, onEdit, onDelete, deleting = false, editFor }: CardEditDeleteActionsProps) {
  return (
    <div className="-mr-2 -mt-1 flex shrink-0 gap-1">
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={`Edit ${label}`}
        title={`Edit ${noun}`}
        data-edit-for={editFor}
        onClick={onEdit}
      >
        <Pencil aria-hidden="true" />
      </Button>
      <Button
        variant="ghost-destructive"
        size="icon"
        className="size-8"
        aria-label={`Delete ${label}`}
        title={`Delete ${noun}`}
        disabled={deleting}
        onClick={onDelete}
      >
        {deleting ? <Spinner /> : <Trash2 aria-hidden="true" />}
      </Button>
    </div>
  );
}
