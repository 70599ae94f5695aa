import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "./app-error";
import { createCursors, cursorScope, openPosition, sealPosition } from "./cursor";
import { createSecretBox } from "./secret-box";

describe("page cursors: opaque, tamper-evident, bound to their list and filters", () => {
  const cursors = createCursors(createSecretBox(randomBytes(32)));
  const refuse = () => new AppError("validation_failed", "cursor is not valid", { fields: { cursor: "cursor is not valid" } });
  const last = { at: new Date("2026-03-02T10:00:00.123Z"), id: "0b6f3c1e-8d2a-4c5b-9e7f-1a2b3c4d5e6f" };
  const scope = cursorScope("audit", { action: "user.created", from: new Date("2026-03-01T00:00:00Z") });

  it("opens what it sealed, and shows nothing of it", () => {
    const cursor = sealPosition(cursors, scope, last);
    expect(cursor).not.toContain(last.id);
    expect(openPosition(cursors, scope, cursor, refuse)).toEqual(last);
  });

  it("refuses an edited cursor, another list's or other filters' cursor, another server's, and garbage, with the caller's error", () => {
    const cursor = sealPosition(cursors, scope, last);
    const [body, tag] = cursor.split(".");
    const edited = `${Buffer.from(`${last.at.toISOString()}|${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`).toString("base64url")}.${tag}`;
    const other = createCursors(createSecretBox(randomBytes(32)));
    for (const [s, c, box] of [
      [scope, edited, cursors],
      [scope, `${body}.${tag!.slice(0, -2)}AA`, cursors],
      [cursorScope("request-log", { action: "user.created", from: new Date("2026-03-01T00:00:00Z") }), cursor, cursors],
      [cursorScope("audit", { action: "user.deleted", from: new Date("2026-03-01T00:00:00Z") }), cursor, cursors],
      [scope, cursor, other],
      [scope, Buffer.from(`${last.at.toISOString()}|${last.id}`).toString("base64url"), cursors],
      [scope, "not-a-cursor", cursors],
      [scope, "", cursors],
    ] as const) {
      expect(() => openPosition(box, s, c, refuse), c).toThrow(AppError);
    }
  });

  it("a sealed value that is not a position is refused too", () => {
    expect(() => openPosition(cursors, scope, cursors.seal(scope, "2"), refuse)).toThrow("cursor is not valid");
  });
});
