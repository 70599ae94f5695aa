/**
 * Shared pieces of the MCP tests: the app with both integrations on the sandbox, an OAuth client,
 * tokens (client_credentials, or user-bound through consent), raw JSON-RPC posts, and a reader of
 * server-sent events that waits for states, never for time.
 */
import type { SecretBox } from "../lib/secret-box";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import type { OAuthClientDto } from "../../contract/oauth";
import type { AppConfig } from "../container";
import { basicOf, createClient, obtainTokens, startRig, type Rig } from "../oauth/oauth.adversarial.helpers";
import { formPost } from "../test/oauth";

export const MODERN = "2026-07-28";

export interface McpRig extends Rig {
  sandbox: Sandbox;
  client: OAuthClientDto;
  /** A client_credentials token of `client` (no user). */
  token(scope?: string, client?: OAuthClientDto): Promise<string>;
  /** A user-bound token: authorize → consent by `rig.user` (an operator) → code → token. */
  userToken(scope?: string, client?: OAuthClientDto): Promise<string>;
}

/** The project a bare Bitbucket repository name is in on the Data Center flavour (sandbox/bitbucket/catalog.ts). */
export const DC_DEFAULT_PROJECT = "PLAT";

/** The Atlassian configuration on the sandbox's Data Center flavour, as `token`'s owner (Jira's and Confluence's token alike). */
export const dataCenterAtlassianConfig = (sandbox: Sandbox, token: string) => ({
  deployment: "datacenter",
  instanceUrl: sandbox.dataCenter.jira,
  confluenceUrl: sandbox.dataCenter.confluence,
  authMethod: "token",
  apiToken: token,
  confluenceToken: token,
  isActive: true,
});

/**
 * `secretBox`: shared by rigs whose sealed values (tool cursors) must compare equal.
 * `flavour: "datacenter"` (issue 28): both integrations on the sandbox's Data Center flavour
 * (`sandbox.dataCenter.*`, each under its context path), as the service account's personal access
 * token, with Bitbucket's default project DC_DEFAULT_PROJECT.
 */
export async function startMcpRig(
  config: Partial<AppConfig> | ((sandbox: Sandbox) => Partial<AppConfig>) = {},
  options: { secretBox?: SecretBox; flavour?: "cloud" | "datacenter" } = {},
): Promise<McpRig> {
  const { flavour = "cloud", ...rigOptions } = options;
  const sandbox = await startSandbox();
  // The API limit is not what these tests are about (it has its own): out of the way unless set.
  const rig = await startRig(sandbox.url, {
    config: {
      RATE_LIMIT_API_PER_MINUTE: 100_000,
      RATE_LIMIT_API_BURST: 1000,
      ...(typeof config === "function" ? config(sandbox) : config),
    },
    ...rigOptions,
  });
  const dc = sandbox.credentials.dataCenter;
  const saved = await rig.admin.post(
    "/api/admin/atlassian-config",
    flavour === "datacenter"
      ? dataCenterAtlassianConfig(sandbox, dc.personalAccessToken)
      : { instanceUrl: sandbox.url, email: "demo@bridgekeeper.test", apiToken: "sandbox-api-token", isActive: true },
  );
  if (saved.status >= 300) throw new Error(`atlassian config: ${saved.status} ${saved.text}`);
  if (flavour === "datacenter") {
    const bitbucket = await rig.admin.post("/api/admin/bitbucket-config", {
      deployment: "datacenter",
      baseUrl: sandbox.dataCenter.bitbucket,
      workspace: DC_DEFAULT_PROJECT,
      authMethod: "token",
      appPassword: dc.personalAccessToken,
      isActive: true,
    });
    if (bitbucket.status >= 300) throw new Error(`bitbucket config: ${bitbucket.status} ${bitbucket.text}`);
  }
  const client = await createClient(rig, { name: "MCP test client" });
  return {
    ...rig,
    sandbox,
    client,
    async token(scope = "read write", c = client) {
      const res = await formPost(`${rig.baseUrl}/oauth/token`, { grant_type: "client_credentials", scope }, basicOf(c));
      if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.access_token as string;
    },
    async userToken(scope = "read write", c = client) {
      return (await obtainTokens(rig, c, { scope })).access_token;
    },
  };
}

/** A rig for the tests of one file (on the Data Center flavour with `flavour: "datacenter"`). */
export function mcpRigForFile(
  use: (rig: McpRig) => void,
  config: Partial<AppConfig> = {},
  options: { flavour?: "cloud" | "datacenter" } = {},
): void {
  let rig: McpRig | undefined;
  beforeAll(async () => {
    rig = await startMcpRig(config, options);
    use(rig);
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });
}

/** The `_meta` envelope a 2026-07-28 request carries. */
export const envelope = (extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bridgekeeper-tests", version: "1.0.0" },
  ...extra,
});

export interface RpcAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The JSON-RPC message: the JSON body, or the last `data:` of an SSE answer. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever shape the answer has
  json: any;
}

/** One raw POST; `body` is sent as is when it is a string. */
export async function rpc(
  baseUrl: string,
  token: string | null,
  body: unknown,
  headers: Record<string, string> = {},
  path = "/mcp",
): Promise<RpcAnswer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    const data = text
      .split(/\n\n/)
      .map((f) =>
        f
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .join("\n"),
      )
      .filter(Boolean)
      .at(-1);
    if (data) json = JSON.parse(data);
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A 2026-07-28 request with its envelope and the Mcp-Method / Mcp-Name headers. */
export function modernRpc(
  baseUrl: string,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  id: number | string = 1,
  path = "/mcp",
) {
  const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method };
  if (method === "tools/call" && typeof params.name === "string") headers["mcp-name"] = params.name;
  return rpc(baseUrl, token, { jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope() } }, headers, path);
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Reads a server-sent event stream; `next(predicate)` resolves with the first matching event. */
export async function openEvents(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal });
  // A refusal is a plain body, read whole; a stream is read event by event.
  const body = res.status === 200 ? "" : await res.text();
  const events: SseEvent[] = [];
  const waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  let ended = false;
  const endWaiters: (() => void)[] = [];
  const pump = async () => {
    if (!res.body || res.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = frame.split("\n");
          const event =
            lines
              .find((l) => l.startsWith("event:"))
              ?.slice(6)
              .trim() ?? "message";
          const data = lines
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          if (!lines.some((l) => l.startsWith("data:"))) continue; // a comment (keep-alive)
          const e = { event, data };
          events.push(e);
          for (const w of [...waiters]) {
            if (!w.match(e)) continue;
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(e);
          }
        }
      }
    } catch {
      // aborted
    }
    ended = true;
    for (const resolve of endWaiters) resolve();
  };
  void pump();
  return {
    status: res.status,
    headers: res.headers,
    events,
    next(match: (e: SseEvent) => boolean = () => true, after = 0): Promise<SseEvent> {
      const seen = events.slice(after).find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    nextNamed(name: string) {
      return this.next((e) => e.event === name);
    },
    /** Resolves when the server ends the stream. */
    ended(): Promise<void> {
      return ended ? Promise.resolve() : new Promise((resolve) => endWaiters.push(resolve));
    },
    close: () => controller.abort(),
    /** The body of a refused request. */
    body,
  };
}

/** A tool's answer as the tests read it: the error flag, the text a model reads, the structured content. */
export interface ToolAnswer {
  isError: boolean;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each tool's structuredContent has its own shape
  data: any;
}

/** A real MCP client (SDK v2, 2026-07-28) on /mcp with `token`, and a `call` that reads its answers. */
export async function mcpClient(rig: McpRig, token: string, name = "bridgekeeper-tests") {
  const client = new Client({ name, version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", rig.baseUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return {
    client,
    async call(tool: string, args: Record<string, unknown>): Promise<ToolAnswer> {
      const res = await client.callTool({ name: tool, arguments: args });
      return { isError: res.isError === true, text: (res.content as { text: string }[])[0]!.text, data: res.structuredContent };
    },
    close: () => client.close(),
  };
}

/** A `subscriptions/listen` stream for tools/list_changed; `waitFor(text)` resolves once the stream has carried it. */
export async function listenForToolChanges(baseUrl: string, token: string) {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "subscriptions/listen",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, _meta: envelope() },
    }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  return {
    status: res.status,
    async waitFor(text: string): Promise<void> {
      while (!seen.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${text}: ${seen}`);
        seen += decoder.decode(value);
      }
    },
    close: () => reader.cancel(),
  };
}
