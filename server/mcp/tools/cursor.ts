import { z } from "zod";
import { createCursors as createSealedCursors, type Cursors } from "../../lib/cursor";
import type { SecretBox } from "../../lib/secret-box";
import { ToolError } from "./tool-error";

const PURPOSE = "mcp tool cursor";

/**
 * Opaque, tamper-checked cursors (issue 11 item 2). A tool seals what it needs to fetch the next
 * page (an upstream page number or token) with the scope of the query it belongs to (the tool and
 * the arguments that define the result set); opening checks both. So a cursor cannot be edited,
 * nor carried to another query, another tool, or another server (each has its own key): the
 * model gets a sentence telling it to start again instead of a wrong page.
 */
export type { Cursors };

/** The server's sealed cursors (lib/cursor.ts) under a key of the tools' own; a cursor that does not open is the model's to fix. */
export function createCursors(box: Pick<SecretBox, "mac">): Cursors {
  const sealed = createSealedCursors(box, PURPOSE);
  return {
    seal: sealed.seal,
    open(scope, cursor) {
      try {
        return sealed.open(scope, cursor);
      } catch {
        throw new ToolError(
          "cursor is not a nextCursor this server gave for this query (it may be from another query or edited). Call again without cursor to start from the first page.",
        );
      }
    },
  };
}

/**
 * The cursors of one caller: every scope is prefixed with who asks (the OAuth client, and the
 * user behind the token), so a cursor one client was given does not open for another client,
 * even for the same query (issue 24 item 9): a cursor names a position in a result set that was
 * shaped by its client's allow-lists.
 */
export function cursorsFor(cursors: Cursors, clientId: string, userId: string | null): Cursors {
  const bound = (scope: string) => `${clientId}\u0000${userId ?? ""}\u0000${scope}`;
  return {
    seal: (scope, value) => cursors.seal(bound(scope), value),
    open: (scope, cursor) => cursors.open(bound(scope), cursor),
  };
}

/** A page number cursor's value, checked to be one. */
export function pageNumber(cursors: Cursors, scope: string, cursor: string | undefined, first: number): number {
  if (cursor === undefined) return first;
  const value = Number(cursors.open(scope, cursor));
  if (!Number.isSafeInteger(value) || value < first)
    throw new ToolError("cursor does not name a page. Call again without cursor to start from the first page.");
  return value;
}

/** The `cursor` argument of a paginated tool. */
export const cursorArg = z.string().min(1, "cursor must not be empty").max(4000, "cursor may be at most 4000 characters").optional();

/**
 * An offset-paged listing (Jira's startAt/total): where this page starts, and once it is read,
 * its end, the total and the sealed cursor of the next page (null on the last).
 */
export function offsetPaging(cursors: Cursors, scope: string, cursor: string | undefined) {
  const startAt = pageNumber(cursors, scope, cursor, 0);
  return {
    startAt,
    next(shown: number, reportedTotal: unknown): { end: number; total: number | null; nextCursor: string | null } {
      const total = typeof reportedTotal === "number" ? reportedTotal : null;
      const end = startAt + shown;
      return { end, total, nextCursor: shown > 0 && total !== null && end < total ? cursors.seal(scope, String(end)) : null };
    },
  };
}
