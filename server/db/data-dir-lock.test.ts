import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataDirInUse, LOCK_FILE, lockDataDir } from "./data-dir-lock";

/** The embedded database's one-process claim on its data directory (issue 29). */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "bk-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited (so no live process holds it, barring reuse in a few ms). */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
};

describe("lockDataDir", () => {
  it("claims the directory with this process's pid and releases it", () => {
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), "utf8").trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("refuses a second process while the holder lives, naming it and what to do instead", () => {
    const lock = lockDataDir(dir);
    try {
      let refused: unknown;
      try {
        lockDataDir(dir, process.pid + 100_000);
      } catch (err) {
        refused = err;
      }
      expect(refused).toBeInstanceOf(DataDirInUse);
      expect((refused as Error).message).toBe(
        `Another Bridgekeeper process (pid ${process.pid}) has the embedded database in ${dir} open. The embedded database serves one process: stop that one first, or run several instances on one PostgreSQL (set DATABASE_URL on each).`,
      );
      // The refused one takes nothing away from the holder.
      expect(readFileSync(join(dir, LOCK_FILE), "utf8").trim()).toBe(String(process.pid));
    } finally {
      lock.release();
    }
  });

  it("takes over a claim left by a process that is gone, or unreadable", () => {
    writeFileSync(join(dir, LOCK_FILE), `${deadPid()}\n`);
    lockDataDir(dir).release();
    writeFileSync(join(dir, LOCK_FILE), "not a pid\n");
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), "utf8").trim()).toBe(String(process.pid));
    lock.release();
  });

  it("release leaves another process's claim alone", () => {
    const lock = lockDataDir(dir);
    writeFileSync(join(dir, LOCK_FILE), "12345\n");
    lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), "utf8").trim()).toBe("12345");
  });
});
