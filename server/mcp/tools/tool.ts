import type { z } from "zod";
import type { Deployment } from "../../../contract/integrations";
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

export { ToolError } from "./tool-error";

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
  /** Confluence's base URL (the site's `/wiki` on Cloud, its own server on Data Center), for page links; null when not configured. */
  confluenceUrl: string | null;
  /** Each service's deployment (issue 28; absent: Cloud), for what differs beyond the clients: web links. */
  deployments: Partial<Record<UpstreamService, Deployment>>;
  /** The configured Bitbucket workspace (on Data Center: the project a bare repository name is in); null when not configured. */
  bitbucketWorkspace: string | null;
  /** What the calling client may touch (OPEN_POLICY when nobody restricted it): what a tool reaches is checked before it runs (governance.ts); listings and what an answer shows are held to it by the tool (policy.ts). */
  policy: ClientPolicy;
  /** Seals and opens the tool's nextCursor (opaque, tamper-checked, bound to its query). */
  cursors: Cursors;
  /** Aborted when the client hangs up or cancels. */
  signal?: AbortSignal;
  /**
   * Whom the call acted as upstream (issue 27), written by the identity layer when a request is
   * made: "shared", or the person's account id; null while nothing was reached. Read by the
   * tool-call audit; tools leave it alone.
   */
  actedAs?: { identity: string | null };
}

/**
 * What a tool's arguments name that a client's allow-lists govern (contract/policy.ts). Before the
 * tool runs, one step (governance.ts) holds every value of each declared argument to the calling
 * client's lists, and the catalogue matrix test reads these to know what each tool must refuse.
 * `arg` names the argument; `items[].key` reaches into each item of a list, `keys[]` each string
 * of one; an argument left out is not checked. Declared in the order the checks run.
 */
export type Reach =
  /** A Jira issue by key, placed by its key's project; one named by numeric id is refused under a project list, unless `byId: "read"`: then it is placed by a read of its project. */
  | { kind: "jira-issue"; arg: string; byId?: "read" }
  | { kind: "jira-project"; arg: string }
  /** Jira's `fields` JSON: the issues, projects and sprints its values name (a parent, an Epic Link, a sprint …), placed by key or by a read (field-policy.ts). */
  | { kind: "jira-fields"; arg: string }
  /** A comment of the issue `issueArg`: under a project list it is read through that issue, so a comment of another issue cannot be reached by naming an allowed one. */
  | { kind: "jira-comment"; arg: string; issueArg: string }
  /** A board, or a sprint (placed by its board): under a project list, read to be placed, and refused without naming its project. */
  | { kind: "jira-board"; arg: string }
  | { kind: "jira-sprint"; arg: string }
  | { kind: "confluence-space"; arg: string }
  /** A page: under a space list its space is learnt from a read of the page without its body, before the tool reads anything of it. */
  | { kind: "confluence-page"; arg: string }
  /** A comment, placed by its page (as a page is). */
  | { kind: "confluence-comment"; arg: string }
  /** A repository, `slug` (in `workspaceArg`'s workspace, or the configured one) or `workspace/slug`. */
  | { kind: "bitbucket-repository"; arg: string; workspaceArg?: string }
  /**
   * A search or listing of the service: it cannot be checked before it runs, so the tool holds it
   * to the lists itself (policy.ts: a JQL or CQL query wrapped in the allowed projects or spaces, a
   * BBQL clause of the allowed repositories, a listing filtered) and answers nothing from outside.
   */
  | { kind: "listing"; service: UpstreamService };

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
  /** Where it can be served (issue 28): absent, Cloud and Data Center alike; a deployment left out does not list it. */
  deployments?: readonly Deployment[];
  /** The group a client's policy switches on or off. */
  toolset: Toolset;
  /** What its arguments name that a client's allow-lists govern, checked before it runs; [] when none (users, fields, who I am). */
  reaches: readonly Reach[];
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
