import type { z } from "zod";
import type { OAuthScope } from "../../../contract/oauth";
import type { ClientPolicy, Toolset } from "../../../contract/policy";
import type { UpstreamTargets } from "../../modules/integrations/upstream-targets";
import type { UpstreamService } from "../../upstream/errors";
import type { Cursors } from "./cursor";

/** MCP tool annotations (MCP 2025-06-18 and later, "Tool annotations"): hints for the client, never a guarantee. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The hints of a tool that only reads an upstream service (the open world). */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

/** The hints of a tool that changes an upstream service without destroying anything. */
export const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;

/** The hints of a tool that deletes or merges: hidden everywhere by MCP_DESTRUCTIVE_TOOLS=false. */
export const DESTRUCTIVE = { ...WRITES, destructiveHint: true } as const;

/**
 * A failure a tool explains itself (an unknown transition name, nothing to change): it becomes a
 * tool result with `isError` and this sentence, which says what to do instead.
 */
export class ToolError extends Error {
  override name = "ToolError";
  /**
   * Set when the failure, though handled, means something went wrong that should not have (a
   * search answered outside the client's allow-list): callTool also logs it as a warning.
   */
  readonly warning: { event: string; details: Record<string, unknown> } | undefined;
  constructor(message: string, warning?: { event: string; details: Record<string, unknown> }) {
    super(message);
    this.warning = warning;
  }
}

/** What a tool hands back: `structured` must satisfy the tool's output schema; `text` is the compact rendering a model reads. */
export interface ToolOutput<T> {
  structured: T;
  text: string;
}

/** What a tool may use while it runs. */
export interface ToolContext {
  /** Typed clients on the stored configuration (server/upstream/*.client.ts). */
  clients: UpstreamTargets["clients"];
  /** The Atlassian instance URL (no trailing slash), for browse links such as `${instanceUrl}/browse/BK-1`; null when not configured. */
  atlassianUrl: string | null;
  /** The configured Bitbucket workspace; null when not configured. */
  bitbucketWorkspace: string | null;
  /** What the calling client may touch (OPEN_POLICY when nobody restricted it); tools apply its lists (policy.ts). */
  policy: ClientPolicy;
  /** Seals and opens the tool's nextCursor (opaque, tamper-checked, bound to its query). */
  cursors: Cursors;
  /** Aborted when the client hangs up or cancels. */
  signal?: AbortSignal;
}

/**
 * One MCP tool: an adapter over the upstream clients (ARCHITECTURE rule 1). Its input schema
 * carries limits, its output schema describes `structuredContent`, and `run` returns both the
 * structured result and a compact text rendering (not the raw upstream JSON).
 */
export interface ToolSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  /** The service it calls: the tool is listed only while that service's integration is configured and active. */
  service: UpstreamService;
  /** The OAuth scope a client needs to see and call it. */
  scope: OAuthScope;
  /** The group a client's policy switches on or off. */
  toolset: Toolset;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolOutput<z.output<O>>>;
}

/**
 * A string argument that becomes part of a URL, a file name or an identifier, refused (naming
 * `name`) when it holds broken Unicode: encodeURIComponent throws on a lone surrogate (an
 * unexpected failure instead of a tool error), and a form or a query string silently turns it
 * into U+FFFD, another value than the one given.
 */
export const wellFormed = <T extends z.ZodString>(schema: T, name: string): T =>
  schema.refine((value) => value.isWellFormed(), `${name} holds broken Unicode (a lone surrogate); send it as valid text`) as T;

/** Keeps the input/output types of a literal tool definition (so `run`'s arguments are typed). */
export const defineTool = <I extends z.ZodType, O extends z.ZodType>(spec: ToolSpec<I, O>): ToolSpec => spec as unknown as ToolSpec;
