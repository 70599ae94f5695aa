import { spawn, type ChildProcess } from "node:child_process";

/** The real entry point (server/main.ts) as a child process, once it listens. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
}

/**
 * A cold start compiles the server with tsx: seconds on an idle machine, a minute and more on one
 * busy with other work (a fresh-clone CI run beside a CPU hog took over 30 s). A child that exits
 * is noticed at once; only a start that hangs waits the whole deadline. The caller's test or hook
 * timeout must be longer.
 */
export const SERVER_START_DEADLINE_MS = 150_000;

export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + SERVER_START_DEADLINE_MS;
  let port = 0;
  while (!port) {
    if (Date.now() > deadline || child.exitCode !== null) {
      // A start that hung is not left running behind the failure.
      if (child.exitCode === null) child.kill("SIGKILL");
      throw new Error(`server did not start:\n${output}`);
    }
    port = Number(/"port":(\d+)/.exec(output)?.[1] ?? 0);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, port, url: `http://127.0.0.1:${port}`, output: () => output };
}
