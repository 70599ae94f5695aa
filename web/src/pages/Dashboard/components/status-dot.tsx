import { cn } from "@/lib/utils";

export type DotTone = "success" | "info" | "warning" | "destructive" | "muted";

const TONE: Record<DotTone, string> = {
  success: "bg-success",
  info: "bg-info",
  warning: "bg-warning",
  destructive: "bg-destructive",
  muted: "bg-muted-foreground/60",
};

/** A status colour; decorative, so always placed beside the word or code it stands for (UI.md). */
export function StatusDot({ tone, className }: { tone: DotTone; className?: string }) {
  return <span aria-hidden="true" data-tone={tone} className={cn("inline-block size-2 shrink-0 rounded-full", TONE[tone], className)} />;
}
