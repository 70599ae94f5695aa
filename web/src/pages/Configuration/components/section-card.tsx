import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/lib/utils";

interface SectionCardProps {
  id: string;
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A read-mostly card: icon, h2 title and description, a landmark named by its title. */
export function SectionCard({ id, icon: Icon, title, description, children, className }: SectionCardProps) {
  const titleId = `${id}-title`;
  return (
    <Card role="region" aria-labelledby={titleId} className={cn("min-w-0", className)}>
      <div className="flex min-w-0 items-start gap-3 p-6">
        <span className="hidden size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground sm:flex">
          <Icon className="size-[1.125rem]" aria-hidden="true" />
        </span>
        <div className="min-w-0 space-y-1.5">
          <h2 id={titleId} className="text-base font-semibold leading-tight">
            {title}
          </h2>
          <p className="text-sm text-muted-foreground">{description}</p>
        </div>
      </div>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
