import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type AuthInfo,
  type CallToolResult,
  type McpServerFactory,
  type Tool,
} from "@modelcontextprotocol/server";
import { objectsOf, redactArguments, type ToolCallsService } from "../modules/tool-calls/tool-calls.service";
import type { Logger } from "../lib/logger";
import type { UpstreamTargets } from "../modules/integrations/upstream-targets";
import type { UpstreamService } from "../upstream/errors";
import { checkArguments, runTool, toolDefinition } from "./tools/call-tool";
import { TOOLS, toolByName } from "./tools/catalogue";
import { OPEN_POLICY, type ClientPolicy } from "../../contract/policy";
import type { Deployment } from "../../contract/integrations";
import { isToolOffered, type OfferContext } from "../../contract/policy-options";
import type { ToolContext, ToolSpec } from "./tools/tool";
import { cursorsFor, type Cursors } from "./tools/cursor";
import type { Metrics } from "../lib/metrics";
import type { ClientBudget } from "../upstream/client-budget";

export const SERVER_NAME = "bridgekeeper";

const INSTRUCTIONS =
  "Bridgekeeper reads Jira, Confluence and Bitbucket for you. Find things with jira_search (JQL), confluence_search (CQL) " +
  "and bitbucket_list_repositories, then open one with jira_get_issue, confluence_get_page or bitbucket_get_pull_request. " +
  "Results are compact: page with the cursor a result gives. A result with isError explains what went wrong and what to try next.";

/** How long a client may reuse a tools/list answer (2026-07-28 cacheable results): it depends on the caller, so `private`. */
export const TOOLS_LIST_TTL_MS = 60_000;

/**
 * Which services' tools are on offer: those whose integration is configured and active (docs/decisions.md#tools-and-client-policy).
 * Read through the upstream targets' own short cache, so a tools/list costs no query.
 */
export function createToolAvailability(targets: UpstreamTargets) {
  return {
    async context(): Promise<ToolContextFacts> {
      const [atlassian, bitbucket] = await Promise.all([targets.state("atlassian"), targets.state("bitbucket")]);
      const services = new Set<UpstreamService>();
      const deployments: Partial<Record<UpstreamService, Deployment>> = {};
      // A service the integration has no URL for (Confluence left out on Data Center) offers nothing.
      for (const state of [atlassian, bitbucket]) {
        if (!state?.isActive) continue;
        for (const service of Object.keys(state.site.urls) as UpstreamService[]) {
          services.add(service);
          deployments[service] = state.site.deployment;
        }
      }
      return {
        services,
        deployments,
        atlassianUrl: atlassian?.settings.instanceUrl ?? null,
        confluenceUrl: atlassian?.site.urls.confluence ?? null,
        bitbucketWorkspace: bitbucket?.settings.workspace || null,
      };
    },
  };
}

export type ToolAvailability = ReturnType<typeof createToolAvailability>;

/** What decides which tools are offered, and what they link to. */
export interface ToolContextFacts {
  services: Set<UpstreamService>;
  deployments: Partial<Record<UpstreamService, Deployment>>;
  /** The Atlassian site, or Jira DC's base URL. */
  atlassianUrl: string | null;
  /** Confluence's base URL: the site's `/wiki` on Cloud, its own server on Data Center. */
  confluenceUrl: string | null;
  /** Bitbucket Cloud's workspace, or the Data Center project repositories are in when an argument names none. */
  bitbucketWorkspace: string | null;
}

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
  return {
    scopes: auth?.scopes ?? [],
    policy: extra.policy ?? OPEN_POLICY,
    clientId: auth?.clientId ?? "unknown",
    userId: extra.userId ?? null,
    requestId: extra.requestId ?? null,
  };
}

/**
 * The tools a caller may see and call: its integration is on, its token holds the tool's scope,
 * and its client's policy allows it (read-only, toolsets, tools switched off); destructive tools
 * only while MCP_DESTRUCTIVE_TOOLS allows them.
 */
export const toolsFor = (services: Set<UpstreamService>, caller: Caller, options: OfferOptions = {}): ToolSpec[] => {
  const where = offerContext(services, caller, options);
  return TOOLS.filter((tool) => isToolOffered(offerShape(tool), where));
};

/** Where a caller is offered tools, in the shape of the rule the policy editor counts with too (contract/policy-options.ts). */
/** The server's switch for destructive tools, and each service's deployment (absent: Cloud). */
interface OfferOptions {
  destructive?: boolean | undefined;
  deployments?: Partial<Record<UpstreamService, Deployment>>;
}

const offerContext = (services: Set<UpstreamService>, caller: Caller, options: OfferOptions): OfferContext => ({
  services,
  scopes: caller.scopes,
  policy: caller.policy,
  destructive: options.destructive !== false,
  ...(options.deployments ? { deployments: options.deployments } : {}),
});

/** A tool as that rule reads it (the policy editor's options are these, with a title). */
export const offerShapeOf = (t: ToolSpec) => ({
  name: t.name,
  toolset: t.toolset,
  service: t.service,
  scope: t.scope,
  destructive: t.annotations.destructiveHint,
  ...(t.deployments ? { deployments: [...t.deployments] } : {}),
});
/** Each tool's shape, made once: tools/list reads it per tool. */
const OFFER_SHAPES = new Map(TOOLS.map((t) => [t, offerShapeOf(t)]));
const offerShape = (tool: ToolSpec) => OFFER_SHAPES.get(tool)!;

/** Whether `tool` is among toolsFor's. */
const offered = (tool: ToolSpec, services: Set<UpstreamService>, caller: Caller, options: OfferOptions): boolean =>
  isToolOffered(offerShape(tool), offerContext(services, caller, options));

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
  /** Each caller's share of the integrations' hourly upstream calls (issue 24 item 6); none: no share. */
  budget?: ClientBudget;
}

/**
 * What both ways of serving MCP share (the SDK server below and the direct answers, direct-answers.ts): who we are, the
 * tools a caller may see, and running one. Keeping them here means the two cannot drift apart.
 */
export function createMcpCore(deps: McpCoreDeps) {
  const serverInfo = { name: SERVER_NAME, title: "Bridgekeeper", version: deps.version };
  type Available = Awaited<ReturnType<ToolAvailability["context"]>>;
  /** Whose share of the hourly budget a call spends (client-budget.ts): the client and the user behind its token. */
  const spenderOf = (caller: Caller): string => `${caller.clientId}\u0000${caller.userId ?? ""}`;
  const contextFor = (available: Available, caller: Caller) => {
    const { budget } = deps;
    const spender = spenderOf(caller);
    return (signal?: AbortSignal): ToolContext => {
      // Whom the call acts as upstream: the person behind the token where their integration asks for it (issue 27).
      const actedAs = { identity: null as string | null };
      const who = { userId: caller.userId, used: (identity: string) => void (actedAs.identity = identity) };
      return {
        clients: deps.targets.clientsFor(who, budget ? (service) => budget.spend(spender, service) : undefined),
        cursors: cursorsFor(deps.cursors, caller.clientId, caller.userId),
        atlassianUrl: available.atlassianUrl,
        confluenceUrl: available.confluenceUrl,
        deployments: available.deployments,
        bitbucketWorkspace: available.bitbucketWorkspace,
        policy: caller.policy,
        actedAs,
        ...(signal ? { signal } : {}),
      };
    };
  };
  /**
   * Runs a tool within its caller's share of the integration's hourly calls (client-budget.ts; the
   * context's clients count what it spends): a caller that spent it gets a tool error saying how
   * long to wait, and no upstream call.
   */
  async function runWithinShare(tool: ToolSpec, args: unknown, context: ToolContext, caller: Caller): Promise<CallToolResult> {
    const share = deps.budget ? await deps.budget.check(spenderOf(caller), tool.service) : ({ ok: true } as const);
    if (!share.ok) {
      const minutes = Math.ceil(share.retryAfterSeconds / 60);
      const services = share.group === "atlassian" ? "Jira and Confluence" : "Bitbucket";
      const text = `This client has made its share of ${services} calls for this hour (${share.limit}), which keeps the integration's hourly budget for everyone else. Wait about ${minutes} minute${minutes === 1 ? "" : "s"} before calling again, make fewer calls, or ask an administrator.`;
      return { content: [{ type: "text", text }], isError: true };
    }
    return runTool(tool, args, context, deps.log, { clientId: caller.clientId, requestId: caller.requestId });
  }

  return {
    deps,
    serverInfo,
    async listTools(caller: Caller): Promise<{ tools: Tool[] }> {
      const { services, deployments } = await deps.availability.context();
      return { tools: toolsFor(services, caller, { destructive: deps.destructiveTools, deployments }).map(toolDefinition) };
    },
    /**
     * Every tool this caller may run among `services`, with what they run with: the chat offers
     * these to its model (the same filter, policy and audit as an MCP client's tools/list).
     */
    async offer(
      caller: Caller,
      services: readonly UpstreamService[],
    ): Promise<{ tools: ToolSpec[]; context: (signal?: AbortSignal) => ToolContext }> {
      const available = await deps.availability.context();
      const wanted = new Set(services.filter((s) => available.services.has(s)));
      return {
        tools: toolsFor(wanted, caller, { destructive: deps.destructiveTools, deployments: available.deployments }),
        context: contextFor(available, caller),
      };
    },
    /** The tool `name` as this caller may run it, with what it runs with; undefined when it is not on offer to them. */
    async resolveTool(
      name: string,
      caller: Caller,
    ): Promise<{ tool: ToolSpec; context: (signal?: AbortSignal) => ToolContext; caller: Caller } | undefined> {
      const available = await deps.availability.context();
      const tool = toolByName(name);
      if (!tool || !offered(tool, available.services, caller, { destructive: deps.destructiveTools, deployments: available.deployments }))
        return undefined;
      return {
        tool,
        caller,
        context: contextFor(available, caller),
      };
    },
    /**
     * Runs the tool (never throws) and records the call in the tool-call audit. A call its
     * arguments' check refused is recorded with the tool, the client and the error only: its
     * arguments are whatever a client made up (any names, any size), and name no object it reached.
     */
    async callTool(tool: ToolSpec, args: unknown, context: ToolContext, caller: Caller): Promise<CallToolResult> {
      const started = performance.now();
      const checked = checkArguments(tool, args ?? {});
      const result = checked.ok ? await runWithinShare(tool, checked.args, context, caller) : checked.refusal;
      const input = (args ?? {}) as Record<string, unknown>;
      deps.toolCalls.record({
        clientId: caller.clientId,
        userId: caller.userId,
        tool: tool.name,
        arguments: checked.ok ? redactArguments(input) : {},
        error: result.isError ? ((result.content[0] as { text?: string } | undefined)?.text ?? "error") : null,
        durationMs: performance.now() - started,
        objects: !checked.ok
          ? []
          : objectsOf(tool.service, input, result.isError ? undefined : result.structuredContent, context.bitbucketWorkspace),
        requestId: caller.requestId,
        upstreamIdentity: context.actedAs?.identity ?? null,
      });
      deps.metrics?.toolCall(tool.name, !result.isError, (performance.now() - started) / 1000);
      return result;
    },
  };
}

export type McpCore = ReturnType<typeof createMcpCore>;

/**
 * The MCP server, one instance per request (both eras are served statelessly, docs/decisions.md#mcp-transports). Nothing is
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
  /**
   * Who asks is read from each message's own verified token (the transport hands it in), falling
   * back to the one the server was built with: a legacy HTTP+SSE session lives for hours, and each
   * of its messages is held to the token's scopes and the client's policy as they are then, not
   * as they were when the stream opened (issue 24 item 1).
   */
  const callerNow = (ctx: { http?: { authInfo?: AuthInfo } }): Caller => callerOf(ctx.http?.authInfo ?? authInfo);

  server.setRequestHandler("tools/list", (_request, ctx) => core.listTools(callerNow(ctx)));

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const resolved = await core.resolveTool(name, callerNow(ctx));
    // MCP 2025-11-25 Server/Tools "Error Handling": an unknown tool is a protocol error (-32602).
    if (!resolved)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. Call tools/list for the tools available to you.`);
    return core.callTool(resolved.tool, args, resolved.context(ctx.mcpReq.signal), resolved.caller);
  });

  // The 2025 revisions' logging capability: the client may set a level; we send no log messages yet.
  server.setRequestHandler("logging/setLevel", async () => ({}));
  return server;
}
