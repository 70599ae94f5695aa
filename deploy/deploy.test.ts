import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join, relative } from "node:path";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Secret, Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { HAPROXY, HAPROXY_CFG, startHaproxy } from "../server/test/haproxy";

/**
 * The packaging (issue 29 item 8): the Dockerfile, compose.yaml, HAProxy's configuration and the
 * Kubernetes kustomize base. Each check runs where its tool is: `kubectl kustomize` renders the base
 * and every object is validated against the Kubernetes API schemas (kubernetes-models: the
 * Kubernetes 1.33 OpenAPI definitions compiled with ajv, shipped in the npm package); `haproxy -c`
 * checks the load balancer's configuration and a real HAProxy is run on loopback in front of two
 * test servers; `docker compose config` (or Debian's docker-compose) checks the compose file.
 * Where a tool is missing its checks are skipped, saying which; the checks of the files themselves
 * always run.
 */

const ROOT = join(import.meta.dirname, "..");
const K8S = join(ROOT, "deploy/kubernetes");
const HEALTH = "/api/mcp/health";

const runs = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { stdio: "ignore", timeout: 10_000 });
  return !result.error && result.status === 0;
};
const KUBECTL = runs("kubectl", ["version", "--client"]);
const COMPOSE: string[] | undefined = runs("docker", ["compose", "version"])
  ? ["docker", "compose"]
  : runs("docker-compose", ["version"])
    ? ["docker-compose"]
    : undefined;
if (!KUBECTL)
  console.warn("deploy.test.ts: kubectl not found, the kustomize base is not rendered here (its files are validated as written)");
if (!HAPROXY) console.warn("deploy.test.ts: haproxy not found (apt-get install haproxy), its configuration is not checked by HAProxy here");
if (!COMPOSE) console.warn("deploy.test.ts: neither `docker compose` nor docker-compose found, compose.yaml is checked as YAML only");

type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: any;
};

/** The Kubernetes API schema of each kind the base may hold. */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "networking.k8s.io/v1/Ingress": Ingress,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
};

/** Why `object` is not a valid Kubernetes object, or null. */
function schemaErrors(object: K8sObject): string | null {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) return `no schema here for ${object.apiVersion} ${object.kind}`;
  try {
    new Model(object).validate();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

let renderedCache: K8sObject[] | undefined;
/** `kubectl kustomize deploy/kubernetes`, parsed. */
function rendered(): K8sObject[] {
  if (!renderedCache) {
    const result = spawnSync("kubectl", ["kustomize", K8S], { encoding: "utf8", timeout: 30_000 });
    if (result.status !== 0) throw new Error(`kubectl kustomize failed: ${result.stderr || result.error}`);
    renderedCache = parseAllDocuments(result.stdout).map((doc) => doc.toJS() as K8sObject);
  }
  return renderedCache;
}
const one = (kind: string): K8sObject => {
  const found = rendered().filter((o) => o.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0]!;
};
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

describe("the Kubernetes validator", () => {
  it("rejects what the API server would (so a pass below means something)", () => {
    const broken = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "x" },
      spec: { selector: {}, template: { spec: { containers: [{ name: "a", image: "b", ports: [{ containerPort: "http" }] }] } } },
    };
    expect(schemaErrors(broken)).toMatch(/containerPort must be integer/);
    expect(schemaErrors({ ...broken, spec: { selector: {} } })).toMatch(/required property template/);
    expect(schemaErrors({ ...broken, apiVersion: "extensions/v1beta1" })).toMatch(/no schema/);
  });
});

describe.skipIf(!KUBECTL)("the kustomize base, rendered by kubectl kustomize", () => {
  it("holds the Deployment, Service, Ingress, HPA, PDB and its ConfigMap: no Secret, no namespace", () => {
    expect(
      rendered()
        .map((o) => o.kind)
        .sort(),
    ).toEqual(["ConfigMap", "Deployment", "HorizontalPodAutoscaler", "Ingress", "PodDisruptionBudget", "Service"]);
    for (const object of rendered()) {
      expect(object.metadata.namespace, object.kind).toBeUndefined();
      expect(object.metadata.labels?.["app.kubernetes.io/name"], object.kind).toBe("bridgekeeper");
    }
  });

  it("every object is valid against the Kubernetes API schemas", () => {
    for (const object of rendered()) expect(schemaErrors(object), `${object.kind} ${object.metadata.name}`).toBeNull();
  });

  it("the Deployment: two replicas rolled without a gap, a pinned image, probes on the health endpoint, resources", () => {
    const deployment = one("Deployment");
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.strategy).toMatchObject({ type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0 } });
    const pod = deployment.spec.template.spec;
    expect(pod.containers).toHaveLength(1);
    const container = pod.containers[0];
    // The base's `images` entry pins a tag an overlay replaces; never an implicit or explicit latest.
    expect(container.image).toMatch(/^[^:@]+(:[\w.-]+|@sha256:[0-9a-f]{64})$/);
    expect(container.image).not.toMatch(/:latest$/);
    const port = container.ports.find((p: any) => p.name === "http");
    expect(port.containerPort).toBe(5000);
    for (const probe of ["startupProbe", "readinessProbe"]) {
      expect(container[probe]?.httpGet, probe).toEqual({ path: HEALTH, port: "http" });
    }
    // Liveness never asks the database: an outage must not restart every pod at once.
    expect(container.livenessProbe?.httpGet).toEqual({ path: `${HEALTH}/live`, port: "http" });
    const patience = (p: any) => p.periodSeconds * p.failureThreshold;
    expect(patience(container.livenessProbe)).toBeGreaterThan(patience(container.readinessProbe));
    expect(patience(container.livenessProbe)).toBeGreaterThanOrEqual(30);
    expect(patience(container.startupProbe)).toBeGreaterThanOrEqual(60);
    for (const kind of ["requests", "limits"]) {
      expect(container.resources[kind]?.cpu, kind).toBeTruthy();
      expect(container.resources[kind]?.memory, kind).toBeTruthy();
    }
    expect(pod.topologySpreadConstraints.length).toBeGreaterThan(0);
    for (const spread of pod.topologySpreadConstraints)
      expect(selects(spread.labelSelector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
  });

  it("the pod: non-root, read-only root filesystem, no privileges; /tmp and DATA_DIR writable", () => {
    const pod = one("Deployment").spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(pod.automountServiceAccountToken).toBe(false);
    const container = pod.containers[0];
    expect(container.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ["ALL"] },
    });
    const dataDir = container.env.find((e: any) => e.name === "DATA_DIR")?.value ?? "/data";
    const mounts = Object.fromEntries(container.volumeMounts.map((m: any) => [m.mountPath, m.name]));
    const volumes = Object.fromEntries(pod.volumes.map((v: any) => [v.name, v]));
    for (const path of ["/tmp", dataDir]) {
      expect(mounts[path], path).toBeTruthy();
      expect(volumes[mounts[path]].emptyDir, path).toBeDefined();
    }
  });

  it("the pod drains: a preStop pause, then the server's own drain, within the grace period", () => {
    const pod = one("Deployment").spec.template.spec;
    const preStop = pod.containers[0].lifecycle.preStop;
    const pause = preStop.sleep?.seconds ?? Number(preStop.exec?.command?.at(-1));
    expect(pause).toBeGreaterThan(0);
    // server/env.ts: SHUTDOWN_TIMEOUT_MS defaults to 9 s; streams get their final event within 10 s.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(pause + 10);
  });

  it("secrets are referenced from the Secret `bridgekeeper`, never written in; DATABASE_URL and SECRET_KEY required, REDIS_URL optional", () => {
    const container = one("Deployment").spec.template.spec.containers[0];
    const env = Object.fromEntries(container.env.map((e: any) => [e.name, e]));
    for (const name of ["DATABASE_URL", "SECRET_KEY"]) {
      expect(env[name]?.valueFrom?.secretKeyRef, name).toEqual({ name: "bridgekeeper", key: name });
    }
    expect(env.REDIS_URL?.valueFrom?.secretKeyRef).toEqual({ name: "bridgekeeper", key: "REDIS_URL", optional: true });
    for (const e of container.env) {
      if (/URL$|KEY|PASSWORD|TOKEN|SECRET/.test(e.name) && e.name !== "PUBLIC_URL") expect(e.value, e.name).toBeUndefined();
    }
    const configMap = one("ConfigMap");
    expect(container.envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }]);
    expect(Object.keys(configMap.data)).toContain("PUBLIC_URL");
    for (const key of Object.keys(configMap.data)) expect(key).not.toMatch(/DATABASE_URL|SECRET_KEY|PASSWORD|TOKEN|REDIS_URL/);
  });

  it("the Service, the PodDisruptionBudget and the autoscaler reach the Deployment's pods", () => {
    const deployment = one("Deployment");
    const podLabels = deployment.spec.template.metadata.labels;
    expect(selects(deployment.spec.selector.matchLabels, podLabels)).toBe(true);

    const service = one("Service");
    expect(service.spec.type ?? "ClusterIP").toBe("ClusterIP");
    expect(service.spec.sessionAffinity ?? "None").toBe("None");
    expect(selects(service.spec.selector, podLabels)).toBe(true);
    expect(service.spec.ports).toEqual([{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }]);

    const pdb = one("PodDisruptionBudget");
    expect(selects(pdb.spec.selector.matchLabels, podLabels)).toBe(true);
    expect(pdb.spec.minAvailable).toBe(1);

    const hpa = one("HorizontalPodAutoscaler");
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: deployment.metadata.name });
    expect(hpa.spec).toMatchObject({ minReplicas: 2, maxReplicas: 6 });
    expect(hpa.spec.metrics).toEqual([
      { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } },
    ]);
    // minAvailable 1 with at least 2 replicas: a node drain can always evict one.
    expect(hpa.spec.minReplicas).toBeGreaterThan(pdb.spec.minAvailable);
  });

  it("the Ingress: to the Service's port, event streams unbuffered with hour-long timeouts, no affinity", () => {
    const ingress = one("Ingress");
    const service = one("Service");
    const annotations = ingress.metadata.annotations ?? {};
    expect(annotations["nginx.ingress.kubernetes.io/proxy-buffering"]).toBe("off");
    expect(Number(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"])).toBeGreaterThanOrEqual(3600);
    expect(Number(annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"])).toBeGreaterThanOrEqual(3600);
    expect(Object.keys(annotations).filter((k) => /affinity|session-cookie|upstream-hash-by/.test(k))).toEqual([]);
    const backends = ingress.spec.rules.flatMap((r: any) => r.http.paths.map((p: any) => p.backend.service));
    expect(backends).toEqual([{ name: service.metadata.name, port: { name: "http" } }]);
  });
});

describe("the kustomize base's files", () => {
  const kustomization = parse(readFileSync(join(K8S, "kustomization.yaml"), "utf8"));

  it("lists every manifest but the secret example, and names the image so an overlay can set it", () => {
    const manifests = readdirSync(K8S).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    expect([...kustomization.resources].sort()).toEqual(manifests.filter((f) => f !== "secret.example.yaml").sort());
    expect(kustomization.namespace).toBeUndefined();
    expect(kustomization.images).toEqual([
      expect.objectContaining({ name: "bridgekeeper", newTag: expect.stringMatching(/^(?!latest$).+/) }),
    ]);
  });

  it("every manifest, as written, is valid against the Kubernetes API schemas (with or without kubectl)", () => {
    for (const file of kustomization.resources as string[]) {
      const docs = parseAllDocuments(readFileSync(join(K8S, file), "utf8")).map((doc) => doc.toJS() as K8sObject);
      expect(docs, file).toHaveLength(1);
      expect(schemaErrors(docs[0]!), file).toBeNull();
    }
  });

  it("secret.example.yaml is a valid Secret holding placeholders only, for the keys the Deployment reads", () => {
    const secret = parse(readFileSync(join(K8S, "secret.example.yaml"), "utf8")) as K8sObject;
    expect(schemaErrors(secret)).toBeNull();
    expect(secret.metadata.name).toBe("bridgekeeper");
    expect(Object.keys(secret.stringData)).toEqual(expect.arrayContaining(["DATABASE_URL", "SECRET_KEY", "REDIS_URL"]));
    for (const [key, value] of Object.entries<string>(secret.stringData)) expect(value, key).toContain("CHANGE-ME");
    // A placeholder key shorter than 32 characters: the server refuses to start on it (server/env.ts).
    expect(secret.stringData.SECRET_KEY.length).toBeLessThan(32);
  });
});

describe("HAProxy's configuration", () => {
  const cfg = readFileSync(HAPROXY_CFG, "utf8");
  const directives = cfg
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
  const seconds = (name: string) => {
    const line = directives.find((d) => d.startsWith(`timeout ${name} `));
    const m = line?.match(/ (\d+)(ms|s|m|h)?$/);
    if (!m) return 0;
    return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[(m[2] ?? "ms") as "ms" | "s" | "m" | "h"];
  };

  it("balances round-robin with no stickiness, checks the health endpoint, keeps event streams open", () => {
    expect(directives).toContain("balance roundrobin");
    expect(directives.filter((d) => /^(cookie|stick|stick-table|balance source|hash-type)\b/.test(d))).toEqual([]);
    expect(directives).toContain(`option httpchk GET ${HEALTH}`);
    expect(directives).toContain("http-check expect status 200");
    expect(directives).toContain("option forwardfor");
    const defaultServer = directives.find((d) => d.startsWith("default-server "));
    expect(defaultServer).toMatch(/\bcheck\b.*\binter 2s\b.*\bfall 2\b.*\brise 2\b/);
    // Requests under way on an instance marked down (a draining one) finish: none is cut.
    expect(defaultServer).not.toMatch(/on-marked-down shutdown-sessions/);
    for (const name of ["client", "server", "tunnel"]) expect(seconds(name), `timeout ${name}`).toBeGreaterThanOrEqual(3600);
    expect(seconds("http-request")).toBeGreaterThan(0);
    expect(seconds("http-request")).toBeLessThanOrEqual(30);
    expect(directives.filter((d) => /^(compression|option http-buffer-request)\b/.test(d))).toEqual([]);
  });

  it.skipIf(!HAPROXY)("haproxy -c accepts it (the instances' names need not resolve)", () => {
    const result = spawnSync(HAPROXY!, ["-c", "-f", HAPROXY_CFG], { encoding: "utf8", timeout: 10_000 });
    expect(result.stdout + result.stderr).toMatch(/Configuration file is valid/);
    expect(result.stdout + result.stderr).not.toMatch(/\[ALERT\]/);
    expect(result.status).toBe(0);
  });

  it.skipIf(!HAPROXY)(
    "run for real in front of two servers: alternates, forwards the client's address, streams unbuffered, drops a failing server and leaves its streams to it",
    { timeout: 60_000 },
    async () => {
      const backend = (name: string) => {
        const state = { healthy: true, forwardedFor: "", proto: "" };
        const server = createServer((req, res) => {
          if (req.url === HEALTH) return void res.writeHead(state.healthy ? 200 : 503).end();
          state.forwardedFor = String(req.headers["x-forwarded-for"]);
          state.proto = String(req.headers["x-forwarded-proto"]);
          if (req.url === "/events") {
            res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
            res.write(`event: hello\ndata: ${name}\n\n`);
            const beat = setInterval(() => res.write(": heartbeat\n\n"), 500);
            streams.add(res);
            res.on("close", () => {
              clearInterval(beat);
              streams.delete(res);
            });
            return;
          }
          res.end(name);
        });
        const streams = new Set<ServerResponse>();
        return { name, state, server, streams };
      };
      const listen = (server: Server) =>
        new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
      const first = backend("one");
      const second = backend("two");
      const [portOne, portTwo] = [await listen(first.server), await listen(second.server)];

      // The real file, with the compose services' addresses and the public port moved to loopback.
      const haproxy = await startHaproxy([portOne, portTwo], { readyPath: HEALTH });
      const { url } = haproxy;
      const get = async () => (await fetch(`${url}/`, { signal: AbortSignal.timeout(5_000) })).text();
      const until = async (what: string, condition: () => Promise<boolean>, ms = 15_000) => {
        const deadline = Date.now() + ms;
        while (!(await condition().catch(() => false))) {
          if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms; HAProxy said:\n${haproxy.log()}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      /** Opens an event stream through HAProxy; resolves with the backend's name once its first event arrived. */
      const openStream = async () => {
        const response = await fetch(`${url}/events`, { signal: AbortSignal.timeout(30_000) });
        const reader = response.body!.getReader();
        let text = "";
        while (!/data: (\w+)\n\n/.test(text)) {
          const { value, done } = await reader.read();
          if (done) throw new Error("stream ended before its first event");
          text += new TextDecoder().decode(value);
        }
        const ended = (async () => {
          for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return true;
        })();
        return { name: text.match(/data: (\w+)/)![1]!, ended, cancel: () => reader.cancel().catch(() => undefined) };
      };
      const streams: Awaited<ReturnType<typeof openStream>>[] = [];
      try {
        await until("HAProxy answering", async () => ["one", "two"].includes(await get()));
        const answers = [];
        for (let i = 0; i < 6; i++) answers.push(await get());
        expect(answers.filter((a) => a === "one")).toHaveLength(3);
        expect(answers.filter((a) => a === "two")).toHaveLength(3);
        expect(first.state.forwardedFor).toBe("127.0.0.1");
        expect(first.state.proto).toBe("http");

        // Round-robin puts one stream on each server; each first event arrives while its stream stays
        // open (nothing waits for the response to end).
        streams.push(await openStream(), await openStream());
        expect(streams.map((s) => s.name).sort()).toEqual(["one", "two"]);

        // Server one fails its health check (as a draining server does): after two checks it gets no
        // new requests, but what it is serving is not cut: its stream ends when the server ends it
        // (a stopping server sends a final event first), and the client reconnects to server two.
        first.state.healthy = false;
        await until("server one marked down", async () => {
          const got = [await get(), await get(), await get()];
          return got.every((a) => a === "two");
        });
        expect(haproxy.log()).toMatch(/bridgekeeper-1 is DOWN/);
        const onOne = streams.find((s) => s.name === "one")!;
        const onTwo = streams.find((s) => s.name === "two")!;
        expect(first.streams.size).toBe(1);
        for (const res of first.streams) res.end();
        expect(await Promise.race([onOne.ended, new Promise((r) => setTimeout(() => r(false), 5_000))])).toBe(true);
        streams.push(await openStream());
        expect(streams.at(-1)!.name).toBe("two");
        expect(await Promise.race([onTwo.ended, new Promise((r) => setTimeout(() => r(false), 1_000))])).toBe(false);

        // Healthy again: back in the rotation after two good checks.
        first.state.healthy = true;
        await until("server one back", async () => {
          const got = [await get(), await get()];
          return got.includes("one");
        });
      } finally {
        for (const s of streams) await s.cancel();
        await haproxy.stop();
        for (const b of [first, second]) {
          for (const res of b.streams) res.destroy();
          await new Promise((resolve) => b.server.close(resolve));
        }
      }
    },
  );
});

describe("compose.yaml", () => {
  const compose = parse(readFileSync(join(ROOT, "compose.yaml"), "utf8"), { merge: true });
  const instances = ["bridgekeeper-1", "bridgekeeper-2"];

  it("PostgreSQL, two instances, HAProxy; an optional Redis behind a profile", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["bridgekeeper-1", "bridgekeeper-2", "haproxy", "postgres", "redis"]);
    expect(compose.services.postgres.image).toMatch(/^postgres:1[5-9]\b/);
    expect(compose.services.postgres.healthcheck.test.join(" ")).toMatch(/pg_isready/);
    expect(compose.services.postgres.ports).toBeUndefined();
    expect(compose.services.redis.profiles).toEqual(["redis"]);
    expect(compose.services.haproxy.ports).toEqual(["8080:8080"]);
    expect(compose.services.haproxy.volumes).toContain("./deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro");
  });

  it("the instances: built from the Dockerfile, read-only with /tmp in memory, one shared key, after PostgreSQL is healthy", () => {
    for (const name of instances) {
      const service = compose.services[name];
      expect(service.build, name).toBe(".");
      expect(service.read_only, name).toBe(true);
      expect(
        service.tmpfs.some((t: string) => t.split(":")[0] === "/tmp"),
        name,
      ).toBe(true);
      expect(
        service.volumes.some((v: string) => v.endsWith(":/data")),
        name,
      ).toBe(true);
      expect(service.depends_on.postgres.condition, name).toBe("service_healthy");
      expect(service.environment.DATABASE_URL, name).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
      expect(service.environment.SECRET_KEY, name).toMatch(/^\$\{SECRET_KEY:\?/);
      expect(service.environment.PUBLIC_URL, name).toMatch(/localhost:8080/);
      expect(service.environment.TRUST_PROXY, name).toBe("1");
      // More than the server's own drain (SHUTDOWN_TIMEOUT_MS, 9 s) before Docker kills it.
      expect(Number.parseInt(service.stop_grace_period, 10), name).toBeGreaterThan(10);
    }
    const volumes = instances.map((name) => compose.services[name].volumes.find((v: string) => v.endsWith(":/data")));
    expect(new Set(volumes).size).toBe(instances.length);
  });

  it("HAProxy's servers are the compose instances on the server's port", () => {
    const servers = [...readFileSync(HAPROXY_CFG, "utf8").matchAll(/^\s*server (\S+) (\S+):(\d+)/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(servers).toEqual(instances.map((name) => [name, name, "5000"]));
  });

  it.skipIf(!COMPOSE)("the compose client accepts it", () => {
    const [command, ...args] = COMPOSE!;
    const result = spawnSync(command!, [...args, "-f", "compose.yaml", "--profile", "redis", "config", "-q"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, SECRET_KEY: "x".repeat(40) },
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

describe("the Dockerfile", () => {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
  const lines = dockerfile
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const stages = lines.reduce<string[][]>((acc, line) => (line.startsWith("FROM ") ? [...acc, [line]] : (acc.at(-1)?.push(line), acc)), []);
  const runtime = stages.at(-1)!;

  it("builds in stages on Node 20 (Debian bookworm, slim) and runs production dependencies only", () => {
    expect(lines).toContain("ARG NODE_IMAGE=node:20-bookworm-slim");
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage[0]).toMatch(/^FROM \$\{NODE_IMAGE\} AS \w+$/);
    expect(stages.some((s) => s.includes("RUN npm ci --no-audit --no-fund") && s.includes("RUN npm run build"))).toBe(true);
    expect(stages.some((s) => s.some((l) => /^RUN npm ci --omit=dev\b/.test(l)))).toBe(true);
    expect(runtime.some((l) => /^RUN npm (ci|install)\b(?!.*--omit=dev)/.test(l))).toBe(false);
  });

  it("runs as a numeric non-root user, with /data a volume, a health check, SIGTERM and the server's entry", () => {
    const user = runtime.find((l) => l.startsWith("USER "));
    expect(user).toMatch(/^USER [1-9]\d*(:[1-9]\d*)?$/);
    expect(runtime).toContain("ENV NODE_ENV=production HOST=0.0.0.0 PORT=5000 DATA_DIR=/data");
    expect(runtime).toContain("VOLUME /data");
    expect(runtime).toContain("EXPOSE 5000");
    expect(runtime).toContain("STOPSIGNAL SIGTERM");
    expect(runtime).toContain('CMD ["node", "dist/server/main.js"]');
    const healthcheck = runtime.find((l) => l.startsWith("HEALTHCHECK "));
    expect(healthcheck).toContain(HEALTH);
    expect(healthcheck).toMatch(/CMD \["node", "-e", "fetch\(/);
  });

  it("copies every path the server reads from its root at run time", () => {
    // Where each COPY puts its source, relative to WORKDIR /app (a destination ending in / keeps the name).
    const copied = runtime.flatMap((l) => {
      const m = l.match(/^COPY (?:--from=\w+ )?(\S+) (\S+)$/);
      if (!m) return [];
      const to = m[2]!.endsWith("/") ? `${m[2]}${basename(m[1]!)}` : m[2]!;
      return [to.replace(/^(\/app\/|\.\/)/, "")];
    });
    expect(copied).toEqual(
      expect.arrayContaining(["node_modules", "package.json", "server/db/migrations", "dist/server", "dist/web", "dist/pglite-seed"]),
    );
    // Every `join(APP_ROOT, "…")` in the server's code (but the development server's Vite config)
    // must be in the image.
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [join(dir, e.name)] : [],
      );
    const read = sources(join(ROOT, "server"))
      .filter((file) => !relative(ROOT, file).startsWith("server/test/"))
      .flatMap((file) => [...readFileSync(file, "utf8").matchAll(/join\(APP_ROOT, "([^"]+)"\)/g)].map((m) => m[1]!));
    expect(read.length).toBeGreaterThan(0);
    for (const path of read.filter((p) => p !== "vite.config.ts")) {
      expect(
        copied.some((to) => path === to || path.startsWith(`${to}/`)),
        path,
      ).toBe(true);
    }
  });

  it(".dockerignore keeps dependencies, builds, data and history out of the context", () => {
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    expect(ignored).toEqual(expect.arrayContaining(["**/node_modules", "dist", "data*", ".git", "test-results"]));
  });
});
