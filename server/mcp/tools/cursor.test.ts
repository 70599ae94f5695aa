import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox } from "../../lib/secret-box";
import { createCursors, cursorsFor, pageNumber } from "./cursor";

describe("tool cursors: opaque and tamper-checked", () => {
  const cursors = createCursors(createSecretBox(randomBytes(32)));

  it("opens what it sealed, for the same scope only", () => {
    const cursor = cursors.seal("jira_search\u0000project = BK", "token-à-1");
    expect(cursor).not.toContain("token");
    expect(cursors.open("jira_search\u0000project = BK", cursor)).toBe("token-à-1");
    expect(() => cursors.open("jira_search\u0000project = OPS", cursor)).toThrow(/not a nextCursor this server gave for this query/);
    expect(() => cursors.open("confluence_search\u0000project = BK", cursor)).toThrow(/Call again without cursor/);
  });

  it("refuses an edited value or tag, garbage, and another server's cursor", () => {
    const cursor = cursors.seal("s", "2");
    const [body, tag] = cursor.split(".");
    const edited = `${Buffer.from("3").toString("base64url")}.${tag}`;
    for (const bad of [edited, `${body}.${tag!.slice(0, -2)}AA`, `${body}`, `${body}.${tag}.x`, "", ".", "2", "not a cursor at all"]) {
      expect(() => cursors.open("s", bad), bad).toThrow(/not a nextCursor/);
    }
    const other = createCursors(createSecretBox(randomBytes(32)));
    expect(() => other.open("s", cursor)).toThrow(/not a nextCursor/);
  });

  it("a caller's cursors open for that caller only: another client, or another user of the same client, is refused", () => {
    const mine = cursorsFor(cursors, "bk_a", "user-1");
    const cursor = mine.seal("jira_search\u0000project = BK", "2");
    expect(cursorsFor(cursors, "bk_a", "user-1").open("jira_search\u0000project = BK", cursor)).toBe("2");
    for (const other of [
      cursorsFor(cursors, "bk_b", "user-1"),
      cursorsFor(cursors, "bk_a", "user-2"),
      cursorsFor(cursors, "bk_a", null),
      cursors,
    ]) {
      expect(() => other.open("jira_search\u0000project = BK", cursor)).toThrow(/not a nextCursor/);
    }
  });

  it("page numbers: absent is the first page; a sealed non-number is refused", () => {
    expect(pageNumber(cursors, "p", undefined, 1)).toBe(1);
    expect(pageNumber(cursors, "p", cursors.seal("p", "4"), 1)).toBe(4);
    expect(() => pageNumber(cursors, "p", cursors.seal("p", "0"), 1)).toThrow(/does not name a page/);
    expect(() => pageNumber(cursors, "p", cursors.seal("p", "x"), 1)).toThrow(/does not name a page/);
  });
});
