import { z } from "zod";
import { UpstreamError } from "../../upstream/errors";
import { ToolError, type ToolContext } from "./tool";

/** A workspace or repository slug; never `.` or `..`, which would move the request path to another resource. */
export const SLUG = /^(?!\.\.?$)[\w.-]{1,100}$/;

/** Every project: on Data Center a listing or a search may span them all (Cloud has no such workspace). */
export const ALL_PROJECTS = "*";

/**
 * A workspace; on Data Center a project key, `~username` for a person's own project, or `*` for
 * every project.
 */
export const workspaceArg = z
  .string()
  .regex(
    /^(?:\*|~?(?!\.\.?$)[\w.-]{1,100})$/,
    "workspace must be a workspace slug such as acme (on Data Center a project key such as PLAT, ~username, or *)",
  )
  .optional();

/**
 * A repository: its slug in the configured workspace, or `workspace/slug` anywhere else (as in a
 * client's allow-list); on Data Center `PROJECT/slug`, `~username/slug` for a personal one.
 */
export const repositoryArg = z
  .string()
  .regex(
    /^(?:~?(?!\.\.?\/)[\w.-]{1,100}\/)?(?!\.\.?$)[\w.-]{1,100}$/,
    "repository must be a repository slug such as api-gateway, or workspace/slug (on Data Center PROJECT/slug or ~username/slug)",
  );

/** `*` (every project) is a Data Center workspace only: a Cloud workspace of that name cannot exist. */
export function assertWorkspaceServed(ctx: ToolContext, workspace: string): void {
  if (workspace === ALL_PROJECTS && ctx.deployments.bitbucket !== "datacenter")
    throw new ToolError('workspace "*" (every project) is for Bitbucket Data Center: on Cloud, name a workspace.');
}

export function workspaceOf(ctx: ToolContext, given: string | undefined): string {
  const workspace = given ?? ctx.bitbucketWorkspace;
  // A tool error a model can act on ("not configured"), not an unexpected failure.
  if (!workspace) throw new UpstreamError("bitbucket", "not_configured", "No Bitbucket workspace is configured and none was given");
  return workspace;
}

/** The workspace and repository `repository` names: `workspace/slug`, or a slug in `workspace` (the configured one when not given). */
export function bitbucketTarget(ctx: ToolContext, repository: string, workspace?: string): { workspace: string; repo: string } {
  const slash = repository.indexOf("/");
  return { workspace: workspaceOf(ctx, slash < 0 ? workspace : repository.slice(0, slash)), repo: repository.slice(slash + 1) };
}

/** The workspace and repository a tool works on (`slug` or `workspace/slug`); the client's repository allow-list held it before the tool ran (governance.ts). */
export const repositoryTarget = (ctx: ToolContext, repository: string): { workspace: string; repo: string } =>
  bitbucketTarget(ctx, repository);

export const href = (links: unknown, name: string): string | null => {
  const link = (links as Record<string, { href?: unknown }> | undefined)?.[name];
  return typeof link?.href === "string" ? link.href : null;
};
