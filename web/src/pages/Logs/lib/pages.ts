import type { LogEntryDto } from "@contract/logs";

/** One page of the request log: its rows, newest first, and the cursor of the next (older) page. */
export interface LogPage {
  entries: LogEntryDto[];
  nextCursor: string | null;
}

/** TanStack Query's infinite data, as far as this file needs it. */
export interface LogPages {
  pages: LogPage[];
  pageParams: (string | undefined)[];
}

/**
 * Folds a freshly polled first page into the pages already loaded, so a poll asks for one page,
 * not for every page the user scrolled through (spec: logs poll every 30 s).
 *
 * - Nothing or one page loaded: the new first page replaces it (the next page follows on from it).
 * - The new page overlaps the old first page: it goes in front, the old first page keeps only the
 *   rows it does not repeat, and the older pages stay as they were (their cursors still hold).
 * - No overlap (more new rows than a page since the last poll) or the new page is the whole log:
 *   the gap cannot be filled from here, so the list starts again from the new page.
 */
export function mergeNewestPage(old: LogPages | undefined, head: LogPage): LogPages {
  const fresh: LogPages = { pages: [head], pageParams: [undefined] };
  if (!old || old.pages.length <= 1 || head.nextCursor === null) return fresh;
  const [first, ...older] = old.pages as [LogPage, ...LogPage[]];
  const inHead = new Set(head.entries.map((e) => e.id));
  if (!first.entries.some((e) => inHead.has(e.id))) return fresh;
  const rest: LogPage = { entries: first.entries.filter((e) => !inHead.has(e.id)), nextCursor: first.nextCursor };
  const kept = rest.entries.length > 0 ? [rest, ...older] : older;
  const keptParams = rest.entries.length > 0 ? old.pageParams : old.pageParams.slice(1);
  return { pages: [head, ...kept], pageParams: [undefined, ...keptParams] };
}

/** Every loaded row once, newest first (a row can sit on two pages when new rows pushed it down). */
export function flattenPages(pages: readonly LogPage[]): LogEntryDto[] {
  const seen = new Set<string>();
  const rows: LogEntryDto[] = [];
  for (const page of pages) {
    for (const entry of page.entries) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      rows.push(entry);
    }
  }
  return rows;
}
