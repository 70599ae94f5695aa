import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** The file naming the process that has the embedded database open. */
export const LOCK_FILE = "bridgekeeper.pid";

/** A second process tried to open a data directory another live process has open. */
export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Bridgekeeper process (pid ${pid}) has the embedded database in ${dataDir} open. The embedded database serves ` +
        "one process: stop that one first, or run several instances on one PostgreSQL (set DATABASE_URL on each).",
    );
    this.name = "DataDirInUse";
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Claims `dataDir` for this process (issue 29). PGlite keeps no lock of its own: two processes on
 * one directory each run their own PostgreSQL over the same files, and each loses the other's
 * writes. The claim is a file created exclusively with the holder's pid; one left by a process that
 * is gone (a crash, `kill -9`, a container restarted with the same pid) is taken over.
 */
export function lockDataDir(dataDir: string, pid = process.pid): { release(): void } {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      try {
        writeSync(fd, `${pid}\n`);
      } finally {
        closeSync(fd);
      }
      return {
        release() {
          try {
            if (readFileSync(path, "utf8").trim() === String(pid)) unlinkSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw err;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(path, "utf8").trim());
      } catch {
        // removed meanwhile: try again
      }
      if (Number.isInteger(holder) && holder > 0 && holder !== pid && alive(holder)) throw new DataDirInUse(dataDir, holder);
      try {
        unlinkSync(path);
      } catch {
        // another starter removed it first; the exclusive create decides
      }
    }
  }
}
