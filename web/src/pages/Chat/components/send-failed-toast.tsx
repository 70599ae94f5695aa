import { TOASTS } from "@contract/messages";
import { toast } from "@/hooks/use-toast";

/**
 * Spec §8: a failed send is the toast "Error" saying "Failed to send message", word for word; the
 * server's reason follows on a line of its own, so the spec's sentence stays whole.
 */
export function toastSendFailed(reason: string): void {
  toast({
    variant: "destructive",
    title: TOASTS.errorTitle,
    description: (
      <>
        <span className="block">{TOASTS.chat.sendFailed}</span>
        <span className="mt-1 block opacity-90">{reason}</span>
      </>
    ),
  });
}
