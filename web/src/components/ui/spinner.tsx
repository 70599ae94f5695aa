import { LoaderCircle } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** A spinning icon; decorative, so pair it with visible text or wrap it in a role="status". */
export function Spinner({ className, ...props }: ComponentProps<typeof LoaderCircle>) {
  return <LoaderCircle aria-hidden="true" className={cn("size-4 animate-spin", className)} {...props} />;
}

/** A centred spinner with a visible label, announced politely ("Loading..." by default). */
export function LoadingState({ label = "Loading...", className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={cn("flex items-center justify-center gap-3 text-muted-foreground", className)}>
      <Spinner className="size-5 text-primary" />
      <span className="text-sm">{label}</span>
    </div>
  );
}
