import type { Deployment } from "./integrations";
import type { OAuthScope } from "./oauth";
import { ClientPolicySchema, toolsetsOf, type ClientPolicy, type Toolset } from "./policy";

/**
 * What the policy editor picks from (issue 25 item 5): GET /api/admin/policy-options answers the
 * live integrations' projects, spaces and repositories, and this server's tools. A down or
 * unconfigured integration answers `available: false` with its error sentence, never a failure.
 */

export type PolicyService = "jira" | "confluence" | "bitbucket";

/** At most this many projects, spaces or repositories are listed per integration. */
export const POLICY_OPTIONS_LIMIT = 500;

interface Listing {
  /** Whether the integration answered the listing. */
  available: boolean;
  /** Why not, as a sentence (not configured, unreachable, refused ...); null when it answered. */
  error: string | null;
  /** More than POLICY_OPTIONS_LIMIT exist: only the first ones are listed. */
  truncated: boolean;
}

export interface PolicyToolOption {
  name: string;
  title: string;
  toolset: Toolset;
  service: PolicyService;
  scope: OAuthScope;
  /** Deletes or merges: hidden everywhere while MCP_DESTRUCTIVE_TOOLS is off. */
  destructive: boolean;
  /** Where the tool can be served (issue 28); absent: Cloud and Data Center alike. */
  deployments?: Deployment[];
}

export interface PolicyOptionsDto {
  jira: Listing & { projects: { key: string; name: string }[] };
  confluence: Listing & { spaces: { key: string; name: string }[] };
  bitbucket: Listing & { workspace: string | null; repositories: { slug: string; fullName: string; name: string }[] };
  /** Every tool of this server, by name. */
  tools: PolicyToolOption[];
  /** The services whose integration is configured and active: only their tools are offered. */
  services: PolicyService[];
  /** MCP_DESTRUCTIVE_TOOLS. */
  destructiveTools: boolean;
}

/** Where a tool is offered: the integrations on, the token's scopes (null: every scope), the policy, the server's switch. */
export interface OfferContext {
  services: ReadonlySet<PolicyService>;
  scopes: readonly string[] | null;
  policy: Pick<ClientPolicy, "readOnly" | "toolsets" | "disabledTools">;
  destructive: boolean;
  /** Each service's deployment (absent: Cloud): a tool its deployment cannot serve is not offered there. */
  deployments?: Partial<Record<PolicyService, Deployment>>;
}

type OfferedTool = Pick<PolicyToolOption, "name" | "toolset" | "service" | "scope" | "destructive" | "deployments">;

/**
 * Whether a tool is listed and callable: its integration is on, the token holds its scope, the
 * policy allows it (read-only, toolsets, tools switched off), destructive tools only while the
 * server allows them, and only where its service's deployment can serve it. The rule of the MCP server's tools/list (server/mcp/mcp-server.ts `offered`,
 * which calls it; pinned by server/modules/oauth/policy-options.test.ts).
 */
export const isToolOffered = (tool: OfferedTool, ctx: OfferContext): boolean =>
  ctx.services.has(tool.service) &&
  (ctx.scopes === null || ctx.scopes.includes(tool.scope)) &&
  !(ctx.policy.readOnly && tool.scope !== "read") &&
  toolsetsOf(ctx.policy).includes(tool.toolset) &&
  !ctx.policy.disabledTools.includes(tool.name) &&
  (ctx.destructive || !tool.destructive) &&
  (tool.deployments === undefined || tool.deployments.includes(ctx.deployments?.[tool.service] ?? "cloud"));

/** The message for tool names this server does not have. */
export const unknownToolsMessage = (names: readonly string[]): string =>
  names.length === 1 ? `${names[0]} is not a tool of this server` : `${names.join(", ")} are not tools of this server`;

/**
 * ClientPolicySchema that also refuses tools switched off that this server does not have (a
 * typo would otherwise switch nothing off, silently). The server's PUT and the console's form
 * use it with the catalogue's names.
 */
export const clientPolicySchemaFor = (toolNames: ReadonlySet<string>) =>
  ClientPolicySchema.superRefine((policy, ctx) => {
    const unknown = policy.disabledTools.filter((name) => !toolNames.has(name));
    if (unknown.length > 0) ctx.addIssue({ code: "custom", path: ["disabledTools"], message: unknownToolsMessage(unknown) });
  });
