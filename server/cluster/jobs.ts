import type { Pool } from "pg";

/** The table where each cluster-wide job notes its last run (server/db/schema.ts `jobRuns`). */
const JOB_RUNS_TABLE = "job_runs";

export interface Jobs {
  /**
   * Runs `job` unless it ran on any instance within `everyMs` (less a tenth, for timers that drift):
   * one instance at a time, under a PostgreSQL advisory lock held on one connection for the job's
   * length, its last run noted under the lock. True when it ran here.
   */
  once(name: string, everyMs: number, job: () => Promise<unknown>): Promise<boolean>;
}

/**
 * Jobs that must run once (issue 29 item 4): the clean-ups of sessions, tokens, logs and dead
 * registry rows. Several instances on one PostgreSQL take turns, so each runs once per period in
 * the whole cluster; the embedded database serves one process, which simply runs them.
 */
export function createJobs(pool: Pool | undefined, instanceId: string): Jobs {
  if (!pool)
    return {
      async once(_name, _everyMs, job) {
        await job();
        return true;
      },
    };
  return {
    async once(name, everyMs, job) {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock(hashtextextended($1, 0)) as locked", [
          `bridgekeeper:job:${name}`,
        ]);
        if (!rows[0]?.locked) return false; // another instance is running it now
        try {
          const last = await client.query<{ due: boolean }>(
            `select last_run_at < now() - make_interval(secs => $2) as due from ${JOB_RUNS_TABLE} where name = $1`,
            [name, (everyMs * 0.9) / 1000],
          );
          if (last.rows[0] && !last.rows[0].due) return false;
          await job();
          await client.query(
            `insert into ${JOB_RUNS_TABLE} (name, last_run_at, instance_id) values ($1, now(), $2)
             on conflict (name) do update set last_run_at = excluded.last_run_at, instance_id = excluded.instance_id`,
            [name, instanceId],
          );
          return true;
        } finally {
          await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [`bridgekeeper:job:${name}`]);
        }
      } finally {
        client.release();
      }
    },
  };
}
