import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** A data table (shadcn/ui's). Wrap it in a scroll container: the page itself never scrolls sideways. */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return <table data-slot="table" className={cn("w-full caption-bottom border-separate border-spacing-0 text-sm", className)} {...props} />;
}

/** The header row stays in view while the table's container scrolls (UI.md: sticky header). */
export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return (
    <thead
      data-slot="table-header"
      className={cn("[&_th]:sticky [&_th]:top-0 [&_th]:z-10 [&_th]:bg-card [&_th]:shadow-[inset_0_-1px_0_var(--color-border)]", className)}
      {...props}
    />
  );
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={cn("[&_tr:last-child_td]:border-b-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={cn("transition-colors hover:bg-muted/50", className)} {...props} />;
}

export function TableHead({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      data-slot="table-head"
      className={cn("h-10 whitespace-nowrap px-4 text-left align-middle text-xs font-medium text-muted-foreground", className)}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td data-slot="table-cell" className={cn("border-b border-border px-4 py-2 align-middle", className)} {...props} />;
}

/**
 * A table whose rows become cards on a phone (below `sm`, UI.md), in one DOM: add these classes
 * to its parts and a <TableCellLabel> to each cell. The header is then only visually hidden, and
 * the parts carry their roles explicitly (role="table", "row", "columnheader", "cell"), so a screen
 * reader still hears each value with its column's name when the elements are not laid out as a
 * table. From `sm` up nothing of this applies.
 */
export const cardRows = {
  table: "max-sm:block",
  header: "max-sm:sr-only",
  body: "max-sm:block",
  /** A card: the console's card border, radius and shadow, 16 px padding, a two-column grid. */
  row: "max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:rounded-lg max-sm:border max-sm:border-border max-sm:bg-card max-sm:p-4 max-sm:shadow-xs max-sm:hover:bg-card",
  cell: "max-sm:block max-sm:min-w-0 max-sm:max-w-none max-sm:border-0 max-sm:p-0",
  /** The row's actions: the card's foot, across its width, under a rule. */
  foot: "max-sm:col-[1/-1] max-sm:border-t max-sm:border-border max-sm:pt-3",
} as const;

/**
 * A cell's column name, shown above its value on a phone only (a 12 px caption). Hidden from
 * assistive tech: the column header, kept in the accessibility tree, already names the cell.
 */
export function TableCellLabel({ className, ...props }: ComponentProps<"span">) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "mb-1 hidden font-sans text-xs font-medium leading-4 whitespace-nowrap text-muted-foreground not-italic max-sm:block",
        className,
      )}
      {...props}
    />
  );
}
