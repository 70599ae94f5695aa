// Bundled by bench/observability.bench.mjs: fills a data directory's database with request log
// rows (and their per-minute sums, as the writer keeps them) before the server starts on it.
import { sql } from "drizzle-orm";
import { openDatabase } from "../server/db/client";

/**
 * `rows` rows, one every 86 ms back from now (a million span about a day): methods, paths,
 * clients and tools in rotation; 1 in 20 a 500, 1 in 13 a 404; 1 in 5 an MCP tools/call.
 */
export async function fill(dataDir: string, rows: number): Promise<{ ms: number }> {
  const t0 = performance.now();
  const database = await openDatabase({ kind: "pglite", dataDir });
  try {
    const run = (text: string) => database.db.execute(sql.raw(text));
    await database.migrate();
    await run(`
      INSERT INTO request_logs (at, method, path, status_code, duration_ms, client_id, ip, user_agent, rpc_method, tool_name)
      SELECT now() - (g * interval '86 milliseconds'),
             (ARRAY['GET','POST','PUT','DELETE'])[1 + g % 4],
             (ARRAY['/mcp','/api/admin/logs','/api/mcp/health','/oauth/token','/api/atlassian/jira/rest/api/3/search'])[1 + g % 5],
             CASE WHEN g % 20 = 0 THEN 500 WHEN g % 13 = 0 THEN 404 ELSE 200 END,
             (g % 300)::real / 3,
             'bk_client_' || (g % 50),
             '10.0.' || (g % 200) || '.1',
             'bench-agent/1.0 (g' || (g % 7) || ')',
             CASE WHEN g % 5 = 0 THEN 'tools/call' END,
             CASE WHEN g % 5 = 0 THEN (ARRAY['jira_search','confluence_search','bitbucket_get_file'])[1 + g % 3] END
      FROM generate_series(1, ${Math.floor(rows)}) AS g`);
    await run(`
      INSERT INTO request_log_minutes (minute, method, status_code, requests, duration_ms_sum)
      SELECT date_trunc('minute', at), method, status_code, count(*), sum(duration_ms) FROM request_logs GROUP BY 1, 2, 3`);
    await run("ANALYZE request_logs");
    await run("ANALYZE request_log_minutes");
    return { ms: performance.now() - t0 };
  } finally {
    await database.close();
  }
}
