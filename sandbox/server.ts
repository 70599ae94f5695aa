import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { z } from "zod";
import { bitbucketModule } from "./bitbucket";
import type { BitbucketState } from "./bitbucket/model";
import { confluenceModule } from "./confluence";
import type { ConfluenceState } from "./confluence/types";
import { dataCenterPath, DC_CONTEXT, dcErrorReply } from "./core/datacenter";
import { errorReply, serviceOf, type Service } from "./core/errors";
import { Faults, FaultSpecSchema } from "./core/faults";
import {
  BodyTooLarge,
  json,
  parseCredentials,
  readBody,
  Router,
  send,
  type Credentials,
  type Reply,
  type SandboxRequest,
} from "./core/http";
import type { SandboxModule } from "./core/module";
import { Rng } from "./core/random";
import { DEFAULT_CREDENTIALS, type SandboxCredentials } from "./credentials";
import { gatewayPath, isRefusal } from "./identity/auth";
import { SERVICE_CALLER } from "./identity/caller";
import { createIdentity } from "./identity/context";
import { identityControlRoutes } from "./identity/control";
import { jiraModule } from "./jira";
import type { JiraState } from "./jira/model";

/** Until the response can take more, or the client is gone; either way both listeners are removed again. */
const drainedOrClosed = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });

export interface SandboxOptions {
  port?: number;
  host?: string;
  seed?: number;
  credentials?: SandboxCredentials;
  /** Requests per hour each service reports in its X-RateLimit-* headers (reported, not enforced). */
  rateLimitPerHour?: number;
  /** Lifetime of the Atlassian 3LO access tokens the sandbox issues (default 3600 s). */
  accessTokenTtlSeconds?: number;
  /** Lifetime of the Bitbucket OAuth access tokens (default 7200 s). */
  bitbucketAccessTokenTtlSeconds?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  at: number;
}

export type Flavour = "cloud" | "datacenter";

export interface Sandbox {
  /** `http://127.0.0.1:PORT`: Jira at the root, Confluence under /wiki, Bitbucket under /2.0. */
  url: string;
  /** The Data Center flavour's base URLs, each under its context path (`…/dc/jira`, `…/dc/confluence`, `…/dc/bitbucket`). */
  dataCenter: Record<Service, string>;
  port: number;
  credentials: SandboxCredentials;
  faults: Faults;
  /** The last requests the sandbox received (control paths excluded), oldest first. */
  requests(): RecordedRequest[];
  clearRequests(): void;
  /** One service's live data (seeded, and changed by the calls since): tests count what the sandbox holds from it. */
  state<S extends Service>(service: S, flavour?: Flavour): SandboxStates[S];
  /** Restores the seeded data and clears faults and the request record. */
  reset(): void;
  close(): Promise<void>;
}

export interface SandboxStates {
  jira: JiraState;
  confluence: ConfluenceState;
  bitbucket: BitbucketState;
}

const MODULES: SandboxModule<unknown>[] = [jiraModule, confluenceModule, bitbucketModule] as SandboxModule<unknown>[];
const REQUEST_RECORD_SIZE = 2_000;
/** What a Data Center server answers without credentials, as the real ones do: which product and version it is. */
const DC_ANONYMOUS = new Set(["/rest/api/2/serverInfo", "/rest/applinks/1.0/manifest", "/rest/api/1.0/application-properties"]);
const DEFAULT_SEED = 20_260_105;

/** The imitated REST APIs' paths: never served by a public web page, whatever a module registers. */
const isApiPath = (path: string) =>
  path.startsWith("/rest/") ||
  path.startsWith("/wiki/rest/") ||
  path.startsWith("/wiki/api/") ||
  path.startsWith("/2.0") ||
  path.startsWith("/dc/");

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const accounts = options.credentials ?? DEFAULT_CREDENTIALS;
  const seed = options.seed ?? DEFAULT_SEED;
  const rateLimit = options.rateLimitPerHour ?? 100_000;
  const faults = new Faults();
  const states = new Map<SandboxModule<unknown>, unknown>();
  const dcStates = new Map<SandboxModule<unknown>, unknown>();
  const reseed = () => {
    // Each module draws from its own stream, so adding data to one leaves the others unchanged;
    // the Data Center flavour is seeded from the same streams (the same data), apart.
    MODULES.forEach((m, i) => {
      states.set(m, m.seed(new Rng(seed + i * 7919), accounts));
      if (m.dataCenterRoutes) dcStates.set(m, m.seed(new Rng(seed + i * 7919), accounts));
    });
  };
  reseed();

  const router = new Router();
  const pages = new Router();
  const dcRouters = new Map<Service, Router>();
  for (const m of MODULES) {
    m.routes(router, () => states.get(m));
    m.pages?.(pages, () => states.get(m));
    if (m.dataCenterRoutes) {
      const dcRouter = new Router();
      m.dataCenterRoutes(dcRouter, () => dcStates.get(m));
      dcRouters.set(m.service, dcRouter);
    }
  }

  let recorded: RecordedRequest[] = [];
  const usage = new Map<string, { windowStart: number; count: number; reset: string }>();
  const limitHeader = String(rateLimit);
  const rateHeaders = (service: Service, now: number): Record<string, string> => {
    let u = usage.get(service);
    if (!u || now - u.windowStart >= 3_600_000) {
      u = { windowStart: now, count: 0, reset: new Date(now + 3_600_000).toISOString() };
      usage.set(service, u);
    }
    u.count += 1;
    return {
      "x-ratelimit-limit": limitHeader,
      "x-ratelimit-remaining": String(Math.max(0, rateLimit - u.count)),
      "x-ratelimit-reset": u.reset,
    };
  };
  const identity = createIdentity(accounts, options);

  const control = new Router()
    .get("/__sandbox/health", () => json({ status: "ok" }))
    // What to configure against this sandbox (the demo's start-up reads it: the server imports nothing of the sandbox).
    .get("/__sandbox/accounts", (req) =>
      json({
        atlassian: { email: accounts.atlassian.email, apiToken: accounts.atlassian.apiToken },
        bitbucket: {
          workspace: accounts.bitbucket.workspace,
          username: accounts.bitbucket.username,
          appPassword: accounts.bitbucket.appPassword,
        },
        atlassianApp: accounts.atlassianApp,
        bitbucketConsumer: { key: accounts.bitbucketConsumer.key, secret: accounts.bitbucketConsumer.secret },
        cloudId: accounts.cloudId,
        siteUrl: req.origin,
        dataCenter: {
          jiraUrl: `${req.origin}${DC_CONTEXT.jira}`,
          confluenceUrl: `${req.origin}${DC_CONTEXT.confluence}`,
          bitbucketUrl: `${req.origin}${DC_CONTEXT.bitbucket}`,
          // With the incoming application links' OAuth 2.0 clients (`oauthClients`, per server).
          ...accounts.dataCenter,
          people: accounts.people.map(({ nickname, apiToken, personalAccessToken }) => ({
            username: nickname,
            password: apiToken,
            personalAccessToken,
          })),
        },
        otherSite: accounts.otherSite,
        people: accounts.people.map(({ accountId, displayName, email, apiToken, nickname }) => ({
          accountId,
          displayName,
          email,
          apiToken,
          nickname,
        })),
      }),
    )
    .get("/__sandbox/requests", () => json(recorded))
    .delete("/__sandbox/requests", () => {
      recorded = [];
      return { status: 204 };
    })
    .post("/__sandbox/faults", (req) => {
      const parsed = FaultSpecSchema.safeParse(req.body);
      if (!parsed.success) return json({ error: z.prettifyError(parsed.error) }, 400);
      return json({ id: faults.add(parsed.data) }, 201);
    })
    .delete("/__sandbox/faults", () => {
      faults.clear();
      return { status: 204 };
    })
    .post("/__sandbox/reset", () => {
      reset();
      return { status: 204 };
    });
  identityControlRoutes(control, identity);

  const hanging = new Set<ServerResponse>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
    const method = req.method ?? "GET";
    // The API gateway (`/ex/{product}/{cloudId}/…`) serves the site path it names, for 3LO tokens only.
    const gateway = path.startsWith("/ex/") ? gatewayPath(path) : null;
    const dc = gateway ? null : dataCenterPath(path);
    const apiPath = gateway ? gateway.inner : dc ? dc.inner : path;
    const service = dc ? dc.service : serviceOf(apiPath);
    /** The error body of the service and flavour the path is on. */
    const failure = (status: number, message: string, headers?: Record<string, string>): Reply =>
      dc ? dcErrorReply(dc.service, status, message, headers) : errorReply(service, status, message, headers);
    const origin = `http://${req.headers.host ?? `127.0.0.1:${port}`}`;
    /** The request a handler gets: the parts every route shares, and what its match and the caller add. */
    const requestFor = (
      params: Record<string, string>,
      body: unknown,
      credentials: Credentials,
      caller: SandboxRequest["caller"] = SERVICE_CALLER,
      at = path,
    ): SandboxRequest => ({ method, path: at, query, params, headers: req.headers, body, credentials, origin, caller });
    /** An authorization server's endpoint (no API auth check), or the 404/405 `missing` answers for the path. */
    const authorizationServer = async (routes: Router, missing: (status: number, message: string) => Reply): Promise<Reply> => {
      const found = routes.match(method, path);
      if (!found) return missing(404, "Not found");
      if (found === "method") return missing(405, `Method ${method} is not allowed here`);
      let body: unknown;
      try {
        body = await readBody(req);
      } catch {
        return json({ error: "invalid_request", error_description: "The request body could not be read." }, 400);
      }
      return found.handler(requestFor(found.params, body, parseCredentials(req.headers.authorization)));
    };

    if (path.startsWith("/__sandbox/")) {
      const found = control.match(method, path);
      if (!found || found === "method") return send(res, json({ error: "Not found" }, 404));
      const body = await readBody(req);
      return send(res, await found.handler(requestFor(found.params, body, { kind: "none" })));
    }

    // The services' web pages answer a browser without credentials, outside the imitated APIs (not
    // recorded, no faults); API paths never reach them, so they always go through the auth check.
    if (method === "GET" && !isApiPath(path)) {
      const page = pages.match(method, path);
      if (page && page !== "method") return send(res, await page.handler(requestFor(page.params, undefined, { kind: "none" })));
    }
    // A Data Center server's own OAuth 2.0 provider answers a browser (and the app) without
    // credentials: before the auth check, not recorded as an API request, no faults.
    if (dc?.inner.startsWith("/rest/oauth2/")) return send(res, await authorizationServer(identity.dataCenterRouter, failure));

    recorded.push({ method, path, at: Date.now() });
    if (recorded.length > REQUEST_RECORD_SIZE) recorded = recorded.slice(-REQUEST_RECORD_SIZE / 2);

    // A fault set for a site path applies on the gateway too.
    const fault = faults.size > 0 ? (faults.take(method, path) ?? (gateway ? faults.take(method, apiPath) : null)) : null;
    if (fault) {
      if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
      if (fault.hang) {
        hanging.add(res);
        res.once("close", () => hanging.delete(res));
        return;
      }
      if (fault.oversizeBytes) {
        // Streamed with backpressure, and abandoned as soon as the client hangs up (as a client
        // that enforces a size cap will): the sandbox never buffers the whole body.
        const filler = "x".repeat(64 * 1024);
        const items = Math.ceil(fault.oversizeBytes / (filler.length + 3));
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"values":[');
        for (let i = 0; i < items && !res.destroyed; i++) {
          if (!res.write(`${i ? "," : ""}"${filler}"`)) await drainedOrClosed(res);
        }
        if (!res.destroyed) res.end("]}");
        return;
      }
      if (fault.body !== undefined) return send(res, json(fault.body, fault.status ?? 200));
      if (fault.status || fault.retryAfter !== undefined) {
        const status = fault.status ?? 429;
        const headers: Record<string, string> = fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {};
        return send(res, failure(status, status === 429 ? "Rate limit exceeded" : "Internal server error", headers));
      }
    }

    if (!service) {
      // The imitated authorization servers (/authorize, /oauth/token, /me, /site/oauth2/…), or nothing.
      return send(res, await authorizationServer(identity.router, (status, message) => errorReply(null, status, message)));
    }
    const authorization = req.headers.authorization;
    const caller = gateway
      ? identity.auth.gateway(gateway.cloudId, authorization)
      : dc
        ? authorization === undefined && method === "GET" && DC_ANONYMOUS.has(apiPath)
          ? SERVICE_CALLER
          : identity.auth.dataCenter(dc.service, authorization)
        : identity.auth.site(service, authorization);
    if (isRefusal(caller)) {
      const challenge = gateway
        ? 'Bearer realm="api.atlassian.com"'
        : service === "bitbucket"
          ? `Basic realm="${dc ? "Bitbucket" : "Bitbucket.org HTTP"}"`
          : 'Basic realm="protected-area"';
      return send(res, failure(caller.status, caller.message, caller.status === 401 ? { "www-authenticate": challenge } : undefined));
    }

    const routes = dc ? dcRouters.get(dc.service) : router;
    const found = routes?.match(method, apiPath);
    if (!found) return send(res, failure(404, "No resource found at this path"));
    if (found === "method") return send(res, failure(405, `Method ${method} is not allowed here`));
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (err) {
      if (err instanceof BodyTooLarge) return send(res, failure(413, "Request entity too large"));
      return send(res, failure(400, "Unexpected character in the JSON body"));
    }
    let reply: Reply;
    try {
      reply = await found.handler(requestFor(found.params, body, parseCredentials(authorization), caller, apiPath));
    } catch (err) {
      console.error("sandbox handler failed", method, path, err);
      reply = failure(500, "Internal server error");
    }
    reply.headers = reply.headers ? { ...rateHeaders(service, Date.now()), ...reply.headers } : rateHeaders(service, Date.now());
    send(res, reply);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error("sandbox request failed", err);
      if (!res.headersSent) send(res, errorReply(null, 500, "Internal server error"));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host && options.host !== "0.0.0.0" ? options.host : "127.0.0.1";

  function reset(): void {
    reseed();
    faults.clear();
    recorded = [];
    usage.clear();
    identity.oauth.reset();
  }

  return {
    url: `http://${host}:${port}`,
    dataCenter: {
      jira: `http://${host}:${port}${DC_CONTEXT.jira}`,
      confluence: `http://${host}:${port}${DC_CONTEXT.confluence}`,
      bitbucket: `http://${host}:${port}${DC_CONTEXT.bitbucket}`,
    },
    port,
    credentials: accounts,
    faults,
    requests: () => [...recorded],
    clearRequests: () => {
      recorded = [];
    },
    state: <S extends Service>(service: S, flavour: Flavour = "cloud") =>
      (flavour === "cloud" ? states : dcStates).get(MODULES.find((m) => m.service === service)!) as SandboxStates[S],
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
