import { ProtocolError, ProtocolErrorCode, Server, type AuthInfo, type CallToolResult, type McpServerFactory, type Tool } from "@modelcontextprotocol/server";
import { objectsOf, redactArguments, type ToolCallsService } from "../modules/tool-calls/tool-calls.service";
import type { Logger } from "../lib/logger";
import type { UpstreamTargets } from "../modules/integrations/upstream-targets";
import type { UpstreamService } from "../upstream/errors";
import { callTool, toolDefinition } from "./tools/call-tool";
import { TOOLS, toolByName } from "./tools/catalogue";
import { OPEN_POLICY, toolsetsOf, type ClientPolicy } from "../../contract/policy";
import type { ToolContext, ToolSpec } from "./tools/tool";
import type { Cursors } from "./tools/cursor";
import type { Metrics } from "../lib/metrics";

export const SERVER_NAME = "bridgekeeper";

const INSTRUCTIONS =
  "Bridgekeeper reads Jira, Confluence and Bitbucket for you. Find things with jira_search (JQL), confluence_search (CQL) " +
  "and bitbucket_list_repositories, then open one with jira_get_issue, confluence_get_page or bitbucket_get_pull_request. " +
  "Results are compact: page with the cursor a result gives. A result with isError explains what went wrong and what to try next.";

/** How long a client may reuse a tools/list answer (2026-07-28 cacheable results): it depends on the caller, so `private`. */
export const TOOLS_LIST_TTL_MS = 60_000;

/**
 * Which services' tools are on offer: those whose integration is configured and active (D11).
 * Read through the upstream targets' own short cache, so a tools/list costs no query.
 */
export function createToolAvailability(targets: UpstreamTargets) {
  return {
    async context(): Promise<{ services: Set<UpstreamService>; atlassianUrl: string | null; bitbucketWorkspace: string | null }> {
      const [atlassian, bitbucket] = await Promise.all([targets.state("atlassian"), targets.state("bitbucket")]);
      const services = new Set<UpstreamService>();
      if (atlassian?.isActive) services.add("jira").add("confluence");
      if (bitbucket?.isActive) services.add("bitbucket");
      return {
        services,
        atlassianUrl: atlassian?.settings.instanceUrl ?? null,
        bitbucketWorkspace: bitbucket?.settings.workspace ?? null,
      };
    },
  };
}

export type ToolAvailability = ReturnType<typeof createToolAvailability>;

/** Who is calling, as the tools need it: the token's scopes and its client's policy. */
export interface Caller {
  scopes: readonly string[];
  policy: ClientPolicy;
  /** For the tool-call audit: the OAuth client, the user behind the token, the HTTP request. */
  clientId: string;
  userId: string | null;
  requestId: string | null;
}

export function callerOf(auth: AuthInfo | undefined): Caller {
  const extra = (auth?.extra ?? {}) as { policy?: ClientPolicy | null; userId?: string | null; requestId?: string };
  return { scopes: auth?.scopes ?? [], policy: extra.policy ?? OPEN_POLICY, clientId: auth?.clientId ?? "unknown", userId: extra.userId ?? null, requestId: extra.requestId ?? null };
}

/**
 * The tools a caller may see and call: its integration is on, its token holds the tool's scope,
 * and its client's policy allows it (read-only, toolsets, tools switched off); destructive tools
 * only while MCP_DESTRUCTIVE_TOOLS allows them.
 */
export const toolsFor = (services: Set<UpstreamService>, caller: Caller, options: { destructive?: boolean } = {}): ToolSpec[] => TOOLS.filter((tool) => offered(tool, services, caller, options));

/** Whether `tool` is among toolsFor's. */
const offered = (tool: ToolSpec, services: Set<UpstreamService>, caller: Caller, options: { destructive?: boolean }): boolean =>
  services.has(tool.service) &&
  caller.scopes.includes(tool.scope) &&
  !(caller.policy.readOnly && tool.scope !== "read") &&
  toolsetsOf(caller.policy).includes(tool.toolset) &&
  !caller.policy.disabledTools.includes(tool.name) &&
  (options.destructive !== false || !tool.annotations.destructiveHint);

export interface McpCoreDeps {
  targets: UpstreamTargets;
  availability: ToolAvailability;
  version: string;
  log: Logger;
  /** Where every call is recorded (issue 11 item 5). */
  toolCalls: ToolCallsService;
  /** The tools' cursor sealer (a key of this server's). */
  cursors: Cursors;
  /** MCP_DESTRUCTIVE_TOOLS: false hides tools that delete or merge, for every client. */
  destructiveTools?: boolean;
  /** Counts and times each call by tool and outcome. */
  metrics?: Pick<Metrics, "toolCall">;
}

/**
 * What both ways of serving MCP share (the SDK server below and the fast lane): who we are, the
 * tools a caller may see, and running one. Keeping them here means the two cannot drift apart.
 */
export function createMcpCore(deps: McpCoreDeps) {
  const serverInfo = { name: SERVER_NAME, title: "Bridgekeeper", version: deps.version };
  type Available = Awaited<ReturnType<ToolAvailability["context"]>>;
  const contextFor =
    (available: Available, caller: Caller) =>
    (signal?: AbortSignal): ToolContext => ({ clients: deps.targets.clients, cursors: deps.cursors, atlassianUrl: available.atlassianUrl, bitbucketWorkspace: available.bitbucketWorkspace, policy: caller.policy, ...(signal ? { signal } : {}) });
  return {
    deps,
    serverInfo,
    async listTools(caller: Caller): Promise<{ tools: Tool[] }> {
      const { services } = await deps.availability.context();
      return { tools: toolsFor(services, caller, { destructive: deps.destructiveTools }).map(toolDefinition) };
    },
    /**
     * Every tool this caller may run among `services`, with what they run with: the chat offers
     * these to its model (the same filter, policy and audit as an MCP client's tools/list).
     */
    async offer(caller: Caller, services: readonly UpstreamService[]): Promise<{ tools: ToolSpec[]; context: (signal?: AbortSignal) => ToolContext }> {
      const available = await deps.availability.context();
      const wanted = new Set(services.filter((s) => available.services.has(s)));
      return {
        tools: toolsFor(wanted, caller, { destructive: deps.destructiveTools }),
        context: contextFor(available, caller),
      };
    },
    /** The tool `name` as this caller may run it, with what it runs with; undefined when it is not on offer to them. */
    async resolveTool(name: string, caller: Caller): Promise<{ tool: ToolSpec; context: (signal?: AbortSignal) => ToolContext; caller: Caller } | undefined> {
      const available = await deps.availability.context();
      const tool = toolByName(name);
      if (!tool || !offered(tool, available.services, caller, { destructive: deps.destructiveTools })) return undefined;
      return {
        tool,
        caller,
        context: contextFor(available, caller),
      };
    },
    /** Runs the tool (never throws) and records the call in the tool-call audit. */
    async callTool(tool: ToolSpec, args: unknown, context: ToolContext, caller: Caller): Promise<CallToolResult> {
      const started = performance.now();
      const result = await callTool(tool, args ?? {}, context, deps.log);
      const input = (args ?? {}) as Record<string, unknown>;
      deps.toolCalls.record({
        clientId: caller.clientId,
        userId: caller.userId,
        tool: tool.name,
        arguments: redactArguments(input),
        error: result.isError ? ((result.content[0] as { text?: string } | undefined)?.text ?? "error") : null,
        durationMs: performance.now() - started,
        objects: result.isError ? objectsOf(tool.service, input, undefined, context.bitbucketWorkspace) : objectsOf(tool.service, input, result.structuredContent, context.bitbucketWorkspace),
        requestId: caller.requestId,
      });
      deps.metrics?.toolCall(tool.name, !result.isError, (performance.now() - started) / 1000);
      return result;
    },
  };
}

export type McpCore = ReturnType<typeof createMcpCore>;

/**
 * The MCP server, one instance per request (both eras are served statelessly, D8). Nothing is
 * registered per request: tool definitions are computed once (toolDefinition caches them), and
 * the handlers only filter and dispatch.
 */
export function createMcpServerFactory(core: McpCore): McpServerFactory {
  return ({ authInfo }) => buildServer(core, authInfo);
}

export function buildServer(core: McpCore, authInfo: AuthInfo | undefined): Server {
  const server = new Server(core.serverInfo, {
    capabilities: { tools: { listChanged: true }, logging: {} },
    instructions: INSTRUCTIONS,
    cacheHints: { "tools/list": { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "private" } },
  });
  const caller = callerOf(authInfo);

  server.setRequestHandler("tools/list", () => core.listTools(caller));

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const resolved = await core.resolveTool(name, caller);
    // MCP 2025-11-25 Server/Tools "Error Handling": an unknown tool is a protocol error (-32602).
    if (!resolved) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. Call tools/list for the tools available to you.`);
    return core.callTool(resolved.tool, args, resolved.context(ctx.mcpReq.signal), resolved.caller);
  });

  // The 2025 revisions' logging capability: the client may set a level; we send no log messages yet.
  server.setRequestHandler("logging/setLevel", async () => ({}));
  return server;
}
