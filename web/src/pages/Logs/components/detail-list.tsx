import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/** A definition list of label and value pairs, two columns even on a phone (labels stay short). */
export function DetailList({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn("grid grid-cols-[minmax(0,8rem)_minmax(0,1fr)] gap-x-4 gap-y-2.5 text-sm", className)}>{children}</dl>;
}

/** One pair; `mono` for ids, paths and addresses. A missing value reads "None". */
export function DetailItem({
  label,
  value,
  mono = false,
  monoLabel = false,
}: {
  label: string;
  value: ReactNode;
  mono?: boolean;
  monoLabel?: boolean;
}) {
  const missing = value === null || value === undefined || value === "";
  return (
    <>
      <dt className={cn("min-w-0 break-words text-muted-foreground", monoLabel && "font-mono text-[13px]")}>{label}</dt>
      <dd className={cn("min-w-0 break-words", mono && !missing && "font-mono text-[13px]", missing && "text-muted-foreground")}>
        {missing ? "None" : value}
      </dd>
    </>
  );
}

export function DetailSection({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <section className="space-y-3 border-t border-border pt-4">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        {aside}
      </div>
      {children}
    </section>
  );
}
