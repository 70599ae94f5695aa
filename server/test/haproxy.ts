/**
 * Debian's HAProxy run for real with the project's own configuration (deploy/haproxy/haproxy.cfg),
 * its public port and its two instances moved to loopback ports: deploy/deploy.test.ts puts it in
 * front of two test servers, server/cluster/haproxy-cluster.test.ts in front of two server
 * processes. Test code only.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./throwaway-postgres";

/** The load balancer's configuration as shipped (compose.yaml mounts it). */
export const HAPROXY_CFG = join(import.meta.dirname, "../../deploy/haproxy/haproxy.cfg");

/** Debian's HAProxy (`apt-get install haproxy`, which .ci/run does), or undefined when it is not installed. */
export const HAPROXY: string | undefined = ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"].find((path) => {
  const result = spawnSync(path, ["-v"], { stdio: "ignore", timeout: 10_000 });
  return !result.error && result.status === 0;
});

/**
 * The shipped configuration with `bind :8080` on 127.0.0.1:`frontPort` and the compose services
 * `bridgekeeper-1:5000`, `bridgekeeper-2:5000`… on 127.0.0.1:`backendPorts[0]`, `[1]`…; everything
 * else (balancing, health checks, timeouts, retries) as shipped. Throws when the file no longer has
 * a line it rewrites, rather than running something else.
 */
export function loopbackConfig(frontPort: number, backendPorts: readonly number[], cfg = readFileSync(HAPROXY_CFG, "utf8")): string {
  let live = cfg.replace(/^(\s*)bind :8080$/m, `$1bind 127.0.0.1:${frontPort}`);
  backendPorts.forEach((port, i) => (live = live.replace(`bridgekeeper-${i + 1}:5000`, `127.0.0.1:${port}`)));
  const left = /bridgekeeper-\d+:5000|bind :8080/.exec(live);
  if (left || live === cfg) throw new Error(`haproxy.cfg: ${left ? `"${left[0]}" left after rewriting` : "nothing rewritten"}`);
  return live;
}

export interface RunningHaproxy {
  /** The public address, http://127.0.0.1:<port>. */
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Everything HAProxy printed so far: its request log (`option httplog`) and its alerts (a server DOWN or UP). */
  log(): string;
  /** SIGTERM by its pid (a hard stop), SIGKILL if it has not gone within 10 s; removes its directory. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/**
 * Starts `haproxy -db -f <loopbackConfig>` in front of the given loopback ports, and resolves once a
 * GET of `readyPath` through it answers 200 (a backend is up behind it), within `deadlineMs`.
 * `frontPort`: where it listens (default: a free port), for callers that must name the public
 * address before HAProxy starts (the instances' PUBLIC_URL). `config`: another text than the shipped
 * file to rewrite the same way (an experiment with one directive changed).
 */
export async function startHaproxy(
  backendPorts: readonly number[],
  options: { frontPort?: number; readyPath?: string; deadlineMs?: number; config?: string } = {},
): Promise<RunningHaproxy> {
  if (!HAPROXY) throw new Error("haproxy is not installed (apt-get install -y haproxy)");
  const port = options.frontPort ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "bk-haproxy-"));
  const cfgPath = join(dir, "haproxy.cfg");
  writeFileSync(cfgPath, loopbackConfig(port, backendPorts, options.config));
  let output = "";
  const child = spawn(HAPROXY, ["-db", "-f", cfgPath], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!(await exited(child, 0))) {
      process.kill(child.pid!, "SIGTERM");
      if (!(await exited(child, 10_000))) process.kill(child.pid!, "SIGKILL");
      await exited(child, 5_000);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.deadlineMs ?? 15_000);
  const readyPath = options.readyPath ?? "/api/mcp/health";
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`haproxy exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    const status = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(2_000) }).then(
      async (res) => {
        await res.arrayBuffer();
        return res.status;
      },
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`haproxy did not answer 200 on ${readyPath} in time (last: ${status || "no answer"}):\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, port, pid: child.pid!, child, log: () => output, stop };
}
