import { randomBytes } from "node:crypto";
// Bundled by bench/request-log.bench.mjs: how many request log rows a second the batched writer
// stores on PGlite (on disk, as `npm start` runs it), measured in process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../server/db/client";
import { systemClock } from "../server/lib/clock";
import { createLogger } from "../server/lib/logger";
import { createRequestLogRepo } from "../server/modules/request-log/request-log.repo";
import { createCursors } from "../server/lib/cursor";
import { createSecretBox } from "../server/lib/secret-box";
import { createRequestLogService } from "../server/modules/request-log/request-log.service";

export async function measure(rows = 200_000): Promise<{ rowsPerSecond: number; recordNsPerRow: number }> {
  const dir = mkdtempSync(join(tmpdir(), "bk-bench-log-"));
  const database = await openDatabase({ kind: "pglite", dataDir: dir });
  try {
    await database.migrate();
    const service = createRequestLogService({
      repo: createRequestLogRepo(database.db),
      cursors: createCursors(createSecretBox(randomBytes(32))),
      clock: systemClock,
      log: createLogger({ level: "silent" }),
    });
    const at = new Date();
    const t0 = performance.now();
    for (let i = 0; i < rows; i++) {
      service.record({
        at,
        method: "POST",
        path: "/mcp",
        statusCode: 200,
        durationMs: 1.25,
        clientId: "bk_bench_client",
        userId: null,
        ip: "127.0.0.1",
        userAgent: "bench/1.0",
        rpcMethod: "tools/call",
        toolName: "jira_search",
      });
    }
    const recorded = performance.now();
    await service.close();
    const done = performance.now();
    const stored = (await service.countSince(3_600_000)).total;
    if (stored !== rows) throw new Error(`stored ${stored} of ${rows}`);
    return { rowsPerSecond: rows / ((done - t0) / 1000), recordNsPerRow: ((recorded - t0) * 1e6) / rows };
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
