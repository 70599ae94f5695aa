import { Time } from "@/components/ui/time";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { ActiveBadge, Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

export interface StoredState {
  configured: boolean;
  isActive: boolean;
  updatedAt: string | null;
}

interface IntegrationCardProps {
  id: string;
  icon: LucideIcon;
  title: string;
  description: string;
  /** The stored config once loaded (null: none or not loaded). */
  stored: StoredState | null | undefined;
  children: ReactNode;
  /** A read-only line above "Last saved". */
  footer?: ReactNode;
}

/** A card titled like the spec's form ("Atlassian Integration"), a landmark named by its heading. */
export function IntegrationCard({ id, icon: Icon, title, description, stored, children, footer }: IntegrationCardProps) {
  const titleId = `${id}-title`;
  return (
    <Card role="region" aria-labelledby={titleId} className="flex min-w-0 flex-col">
      <div className="flex items-start gap-3 p-6">
        <span className="hidden size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground sm:flex">
          <Icon className="size-[1.125rem]" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex items-start justify-between gap-3">
            <h2 id={titleId} className="text-base font-semibold leading-tight">
              {title}
            </h2>
            {stored !== undefined && <StoredBadge stored={stored} />}
          </div>
          <p className="text-sm text-muted-foreground">{description}</p>
        </div>
      </div>
      <CardContent className="flex-1">{children}</CardContent>
      {(footer || stored?.updatedAt) && (
        <div className="flex flex-col gap-1 border-t border-border px-6 py-3 text-xs text-muted-foreground">
          {footer}
          {stored?.updatedAt && <LastSaved at={stored.updatedAt} />}
        </div>
      )}
    </Card>
  );
}

function StoredBadge({ stored }: { stored: StoredState | null }) {
  if (!stored?.configured) return <Badge variant="outline">Not configured</Badge>;
  return <ActiveBadge active={stored.isActive} inactive="secondary" />;
}

function LastSaved({ at }: { at: string }) {
  return (
    <p>
      Last saved <Time iso={at} as="dateTime" />
    </p>
  );
}

/** Shaped like the form: label and input pairs, the switch row and the buttons. */
export function FormSkeleton({ fields = 3 }: { fields?: number }) {
  return (
    <div className="grid gap-4" role="status" aria-label="Loading configuration">
      {Array.from({ length: fields }, (_, i) => (
        <div key={i} className="space-y-2">
          <Skeleton className="h-3.5 w-28" />
          <Skeleton className="h-9 w-full" />
        </div>
      ))}
      <Skeleton className="h-[3.75rem] w-full" />
      <div className="flex gap-2">
        <Skeleton className="h-9 w-20" />
        <Skeleton className="h-9 w-36" />
      </div>
    </div>
  );
}
