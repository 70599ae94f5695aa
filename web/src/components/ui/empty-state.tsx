import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { cn } from "@/lib/utils";

export interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  /** The spec's action button, where it names one. */
  action?: ReactNode;
  className?: string;
  /** Without a card of its own, for a place that is one already. */
  bare?: boolean;
}

/** An empty list or a screen with nothing to show yet: icon, sentence, optional action. */
export function EmptyState({ icon: Icon, title, description, action, className, bare = false }: EmptyStateProps) {
  const Frame = bare ? "div" : Card;
  return (
    <Frame className={cn("flex flex-col items-center px-6 py-14 text-center", className)}>
      <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h2 className="text-base font-semibold">{title}</h2>
      {description && <p className="mt-1.5 max-w-md text-sm text-muted-foreground">{description}</p>}
      {action && <div className="mt-6">{action}</div>}
    </Frame>
  );
}
