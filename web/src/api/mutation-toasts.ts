import { toast } from "@/hooks/use-toast";
import type { ApiError } from "./client";

/** Spec section 8: a success toast with the spec's sentence. */
export function toastSuccess(title: string): void {
  toast({ title });
}

/** Spec section 8: failures are a destructive toast titled "Error" with the server's message. */
export function toastFailure(error: ApiError): void {
  toast({ variant: "destructive", title: "Error", description: error.serverMessage ?? error.message });
}
