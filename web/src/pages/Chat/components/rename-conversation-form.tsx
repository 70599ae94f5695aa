import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ConversationRenameSchema, type Conversation } from "@contract/chat";
import { useRenameConversation } from "@/api/chat";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { applyServerFieldErrors } from "@/lib/form-errors";

type RenameValues = z.input<typeof ConversationRenameSchema>;
type RenameOutput = z.output<typeof ConversationRenameSchema>;

export default function RenameConversationForm({ conversation, onClose }: { conversation: Conversation; onClose: () => void }) {
  const rename = useRenameConversation();
  const form = useForm<RenameValues, unknown, RenameOutput>({
    resolver: zodResolver(ConversationRenameSchema),
    defaultValues: { title: conversation.title },
  });
  const error = form.formState.errors.title?.message;
  const onSubmit = form.handleSubmit(({ title }) =>
    rename.mutate({ id: conversation.id, title }, { onSuccess: onClose, onError: (e) => applyServerFieldErrors(form, e, ["title"]) }),
  );
  return (
    <form noValidate className="grid gap-4" onSubmit={onSubmit}>
      <div className="grid gap-2">
        <Label htmlFor="conversation-title">Title</Label>
        <Input
          id="conversation-title"
          maxLength={200}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "conversation-title-error" : undefined}
          disabled={rename.isPending}
          autoFocus
          {...form.register("title")}
        />
        <FieldError id="conversation-title-error" message={error} />
      </div>
      <DialogFormFooter busy={rename.isPending} onCancel={onClose} submitLabel="Save" pendingLabel="Saving..." />
    </form>
  );
}
