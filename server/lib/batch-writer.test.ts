import { describe, expect, it } from "vitest";
import { createBatchWriter, type DropReason } from "./batch-writer";
import { createLogger } from "./logger";
import { createFakeClock } from "../test/fake-clock";

/** The batched writer's failure paths; its row-by-row pass on a real database is in request-log.test.ts. */
describe("batch writer", () => {
  const rig = (insertMany: (rows: number[]) => Promise<void>, options: { maxBuffered?: number } = {}) => {
    const clock = createFakeClock();
    const lines: string[] = [];
    const dropped: [DropReason, number][] = [];
    const log = createLogger({ level: "info" }, { write: (line: string) => void lines.push(line) } as unknown as NodeJS.WritableStream);
    const writer = createBatchWriter<number>({
      what: "test log",
      insertMany,
      log,
      clock,
      flushIntervalMs: 3_600_000,
      onDropped: (reason, rows) => dropped.push([reason, rows]),
      ...options,
    });
    const told = () =>
      lines.filter((l) => l.includes("could not be written")).map((l) => JSON.parse(l) as { reason: string; rows: number; code?: string });
    return { writer, lines, dropped, clock, told };
  };

  it("a database that is away costs one try of the batch and one of its first row, not one per row; all are counted", async () => {
    let calls = 0;
    const { writer, lines, dropped } = rig(async () => {
      calls++;
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    });
    for (let i = 0; i < 100; i++) writer.add(i);
    await writer.flush();
    expect(calls).toBe(2);
    expect(dropped.reduce((n, [, rows]) => n + rows, 0)).toBe(100);
    expect(new Set(dropped.map(([reason]) => reason))).toEqual(new Set(["database_error"]));
    expect(lines.filter((l) => l.includes("could not be written"))).toHaveLength(1);
    await writer.close();
  });

  it("after a reason's first line, its later drops are summed in one line at most once a minute", async () => {
    let refuse = true;
    const { writer, told, clock, lines } = rig(async (rows) => {
      if (refuse && rows.includes(13)) throw Object.assign(new Error('invalid input syntax for type uuid: "13"'), { code: "22P02" });
    });
    const dropOne = async () => {
      writer.add(13);
      await writer.flush();
    };
    await dropOne();
    expect(told()).toEqual([expect.objectContaining({ reason: "invalid_data", rows: 1, code: "22P02" })]);
    await dropOne();
    await dropOne();
    clock.advance(59_000);
    await dropOne();
    expect(told()).toHaveLength(1);
    clock.advance(2_000);
    await dropOne();
    expect(told()).toEqual([expect.objectContaining({ rows: 1 }), expect.objectContaining({ reason: "invalid_data", rows: 4 })]);
    refuse = false;
    await writer.close();
    expect(told()).toHaveLength(2);
    // The database's message quotes the refused value: only its SQLSTATE is logged.
    expect(lines.join("\n")).not.toContain("invalid input syntax");
  });

  it("rows pushed out of a full buffer are counted as buffer_full, logged once, and the rest summed at close", async () => {
    const written: number[] = [];
    const { writer, lines, dropped } = rig(async (rows) => void written.push(...rows), { maxBuffered: 10 });
    for (let i = 0; i < 25; i++) writer.add(i);
    await writer.flush();
    const lost = dropped.filter(([reason]) => reason === "buffer_full").reduce((n, [, rows]) => n + rows, 0);
    expect(lost + written.length).toBe(25);
    expect(lost).toBeGreaterThan(1);
    const told = () =>
      lines.filter((l) => l.includes("could not be written")).map((l) => JSON.parse(l) as { reason: string; rows: number });
    expect(told()).toEqual([expect.objectContaining({ reason: "buffer_full", rows: 1 })]);
    // Closing tells of the drops no line has yet: every dropped row is in some line.
    await writer.close();
    expect(told().reduce((n, l) => n + l.rows, 0)).toBe(lost);
  });
});
