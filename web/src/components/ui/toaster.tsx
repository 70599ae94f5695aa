import { TIMINGS } from "@contract/limits";
import { dismissToast, useToast } from "@/hooks/use-toast";
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from "./toast";

/**
 * The toast area (spec section 9): default duration 5000 ms, swipe right past 50 px to dismiss,
 * F8 moves focus to the notifications. Mount once, near the root.
 */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastProvider
      duration={TIMINGS.toastDurationMs}
      swipeDirection="right"
      swipeThreshold={TIMINGS.toastSwipeThresholdPx}
      label="Notification"
    >
      {toasts.map(({ id, title, description, action, variant, duration, open }) => (
        <Toast
          key={id}
          variant={variant}
          duration={duration}
          open={open}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
        >
          <div className="grid gap-1">
            {title && <ToastTitle>{title}</ToastTitle>}
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport hotkey={["F8"]} label="Notifications ({hotkey})" />
    </ToastProvider>
  );
}
