/**
 * The toast store (shadcn/ui's use-toast, spec section 9): at most TIMINGS.toastLimit toasts
 * visible, a dismissed toast is kept TIMINGS.toastRemoveDelayMs before it is removed from the
 * store (so Radix can animate it out), default duration comes from the Toaster's provider.
 */
import { useSyncExternalStore, type ReactElement, type ReactNode } from "react";
import { TIMINGS } from "@contract/limits";

export type ToastVariant = "default" | "destructive";

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before it closes itself; defaults to TIMINGS.toastDurationMs. */
  duration?: number;
  /** An optional <ToastAction altText="..."> element. */
  action?: ReactElement;
}

export interface ToasterToast extends ToastInput {
  id: string;
  open: boolean;
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
  update: (next: ToastInput) => void;
}

let toasts: ToasterToast[] = [];
let counter = 0;
const listeners = new Set<() => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: ToasterToast[]): void {
  toasts = next;
  listeners.forEach((listener) => listener());
}

function scheduleRemoval(id: string): void {
  if (removeTimers.has(id)) return;
  const timer = setTimeout(() => {
    removeTimers.delete(id);
    setToasts(toasts.filter((t) => t.id !== id));
  }, TIMINGS.toastRemoveDelayMs);
  removeTimers.set(id, timer);
}

/** Closes one toast, or all of them without an id. */
export function dismissToast(id?: string): void {
  toasts.forEach((t) => {
    if (id === undefined || t.id === id) scheduleRemoval(t.id);
  });
  setToasts(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

/** Shows a toast: `toast({ title: "Error", description: err.serverMessage, variant: "destructive" })`. */
export function toast(input: ToastInput): ToastHandle {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const next: ToasterToast = { ...input, id, open: true };
  setToasts([next, ...toasts].slice(0, TIMINGS.toastLimit));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (changes) => setToasts(toasts.map((t) => (t.id === id ? { ...t, ...changes } : t))),
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => toasts;

/** `const { toast, dismiss, toasts } = useToast()`. */
export function useToast(): { toasts: ToasterToast[]; toast: typeof toast; dismiss: typeof dismissToast } {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}
