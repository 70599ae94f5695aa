/**
 * The pagination styles of the Atlassian clouds and of Bitbucket Data Center, as async iterators over items. Each stops
 * after `maxItems` (default 10,000) so a runaway listing cannot exhaust memory or the rate budget.
 */

const DEFAULT_MAX_ITEMS = 10_000;

/** Jira's offset pages: `startAt`, `maxResults`, `total` (and `isLast` on some endpoints). */
export async function* paginateStartAt<T>(
  fetchPage: (startAt: number) => Promise<{ startAt?: number; maxResults?: number; total?: number; isLast?: boolean; items: T[] }>,
  maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<T> {
  let startAt = 0;
  let yielded = 0;
  for (;;) {
    const page = await fetchPage(startAt);
    for (const item of page.items) {
      if (yielded++ >= maxItems) return;
      yield item;
    }
    startAt += page.items.length;
    const done = page.isLast === true || page.items.length === 0 || (page.total !== undefined && startAt >= page.total);
    if (done) return;
  }
}

/** Jira's enhanced search: `nextPageToken` until `isLast` (no total). */
export async function* paginateToken<T>(
  fetchPage: (token: string | undefined) => Promise<{ nextPageToken?: string | null; isLast?: boolean; items: T[] }>,
  maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<T> {
  let token: string | undefined;
  let yielded = 0;
  for (;;) {
    const page = await fetchPage(token);
    for (const item of page.items) {
      if (yielded++ >= maxItems) return;
      yield item;
    }
    if (page.isLast === true || !page.nextPageToken || page.nextPageToken === token) return;
    token = page.nextPageToken;
  }
}

/**
 * A link to the next page: Bitbucket's absolute `next`, Confluence's `_links.next` (relative to
 * the site). `fetchPage(undefined)` fetches the first page.
 */
export async function* paginateNextLink<T>(
  fetchPage: (next: string | undefined) => Promise<{ next?: string | null; items: T[] }>,
  maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<T> {
  let next: string | undefined;
  let yielded = 0;
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(next);
    for (const item of page.items) {
      if (yielded++ >= maxItems) return;
      yield item;
    }
    if (!page.next || seen.has(page.next)) return;
    seen.add(page.next);
    next = page.next;
  }
}

/**
 * Bitbucket Data Center's pages (REST 1.0): `start` and `limit` asked, `isLastPage` and
 * `nextPageStart` answered (a page's `size` counts its own values, not the total).
 */
export async function* paginateStartLimit<T>(
  fetchPage: (start: number) => Promise<{ values?: T[]; isLastPage?: boolean; nextPageStart?: number | null }>,
  maxItems = DEFAULT_MAX_ITEMS,
): AsyncGenerator<T> {
  let start = 0;
  let yielded = 0;
  for (;;) {
    const page = await fetchPage(start);
    for (const item of page.values ?? []) {
      if (yielded++ >= maxItems) return;
      yield item;
    }
    const next = page.nextPageStart;
    // A page that does not move forward ends the listing rather than looping on it.
    if (page.isLastPage !== false || typeof next !== "number" || next <= start) return;
    start = next;
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * The first `max` items that `keep` accepts, and whether there were more: reading stops at the
 * first kept item past `max`, so a listing costs no more pages than the answer needs.
 */
export async function firstOf<T>(
  items: AsyncIterable<T>,
  max: number,
  keep: (item: T) => boolean = () => true,
): Promise<{ items: T[]; truncated: boolean }> {
  const out: T[] = [];
  for await (const item of items) {
    if (!keep(item)) continue;
    if (out.length === max) return { items: out, truncated: true };
    out.push(item);
  }
  return { items: out, truncated: false };
}
