import { timingSafeEqual } from "node:crypto";
import type { SecretBox } from "./secret-box";

const TAG_BYTES = 16;

/** The purpose the console lists' cursors are tagged for (secret-box derives a key of its own from it). */
const PAGE_CURSOR_PURPOSE = "console page cursor";

/**
 * Opaque, tamper-evident cursors: `<value>.<tag>`, both base64url, the tag an HMAC (secret-box
 * `mac`) over the scope and the value. The scope is the list and the filters the cursor was given
 * for, so a cursor cannot be edited, nor carried to another list, other filters or another server
 * (each has its own key): the caller is told to start again instead of being shown a wrong page.
 */
export interface Cursors {
  seal(scope: string, value: string): string;
  /** The sealed value; throws when the cursor is not one this server gave for this scope. */
  open(scope: string, cursor: string): string;
}

export function createCursors(box: Pick<SecretBox, "mac">, purpose = PAGE_CURSOR_PURPOSE): Cursors {
  const tag = (scope: string, body: string) => box.mac(`${scope}\u0000${body}`, purpose).subarray(0, TAG_BYTES);
  return {
    seal(scope, value) {
      const body = Buffer.from(value, "utf8").toString("base64url");
      return `${body}.${tag(scope, body).toString("base64url")}`;
    },
    open(scope, cursor) {
      const [body, given, extra] = cursor.split(".");
      const expected = body ? tag(scope, body) : null;
      const presented = given ? Buffer.from(given, "base64url") : null;
      if (extra !== undefined || !expected || !presented || presented.length !== TAG_BYTES || !timingSafeEqual(presented, expected)) {
        throw new Error("not a cursor this server gave for this scope");
      }
      return Buffer.from(body!, "base64url").toString("utf8");
    },
  };
}

/** A cursor's scope: the list it pages and the filters that define its rows (undefined ones left out). */
export const cursorScope = (list: string, filters: Record<string, unknown>): string => `${list}\u0000${JSON.stringify(filters)}`;

/** Where a keyset page ends: its last row's time and id (the lists are ordered by at, then id). */
interface PagePosition {
  at: Date;
  id: string;
}

/** The cursor of the page after `last`. */
export const sealPosition = (cursors: Cursors, scope: string, last: PagePosition): string =>
  cursors.seal(scope, `${last.at.toISOString()}|${last.id}`);

/**
 * The position a cursor names. A cursor that is not one this server gave for this scope is the
 * caller's error (`refuse`: each list answers with its own field message, a 400).
 */
export function openPosition(cursors: Cursors, scope: string, cursor: string, refuse: () => Error): PagePosition {
  let value: string;
  try {
    value = cursors.open(scope, cursor);
  } catch {
    throw refuse();
  }
  const [at, id] = value.split("|");
  const when = new Date(at ?? "");
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(when.getTime())) throw refuse();
  return { at: when, id };
}
