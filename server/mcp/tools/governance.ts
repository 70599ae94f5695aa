import { findComment, spaceKey } from "./confluence-common";
import { assertFieldsAllowed } from "./field-policy";
import {
  assertBoardAllowed,
  assertIssueAllowed,
  assertIssueIdAllowed,
  assertProjectAllowed,
  assertRepositoryAllowed,
  assertSpaceAllowed,
  assertSprintAllowed,
  notFoundAs,
  projectOfKey,
} from "./policy";
import { bitbucketTarget } from "./bitbucket-common";
import { ToolError, type Reach, type ToolContext, type ToolSpec } from "./tool";

/**
 * The one step that holds what a tool reaches to the calling client's allow-lists (contract/policy.ts),
 * before the tool runs (call-tool.ts runTool): each of the tool's declared reaches (tool.ts `Reach`)
 * is checked in turn, and the first one outside the lists refuses the call with a tool error that
 * says what is allowed. Without a list of a kind nothing of that kind is checked, and nothing read;
 * with one, an object whose container is known only after a lookup (a page's space, a board's
 * project, an issue named by id) is placed by the cheapest read that tells it, before the tool
 * reads or writes anything. Searches and listings are held by the tools themselves (Reach "listing").
 */
export async function enforceReaches(spec: ToolSpec, args: unknown, ctx: ToolContext): Promise<void> {
  if (spec.reaches.length === 0) return;
  const { jiraProjects, confluenceSpaces, bitbucketRepositories } = ctx.policy;
  // Most clients have no list at all: every call passes here, so it costs them nothing.
  if (jiraProjects === null && confluenceSpaces === null && bitbucketRepositories === null) return;
  for (const reach of spec.reaches) {
    if (reach.kind === "listing") continue;
    const values = valuesAt(args, reach.arg);
    // Field sets are checked together: Jira's field list is read once for all of a batch's items.
    if (reach.kind === "jira-fields") await assertFieldsAllowed(ctx, ...(values as Record<string, unknown>[]));
    else for (const value of values) await check(reach, value, args, ctx);
  }
}

/** The values of `path` in `args` (`issueKey`, `issues[].projectKey`, `issueKeys[]`), those left out skipped. */
export function valuesAt(args: unknown, path: string): unknown[] {
  let values: unknown[] = [args];
  for (const part of path.split(".")) {
    const list = part.endsWith("[]");
    const key = list ? part.slice(0, -2) : part;
    values = values.flatMap((v) => {
      const x = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
      return list ? (Array.isArray(x) ? x : []) : [x];
    });
  }
  return values.filter((v) => v !== undefined && v !== null);
}

async function check(
  reach: Exclude<Reach, { kind: "listing" | "jira-fields" }>,
  value: unknown,
  args: unknown,
  ctx: ToolContext,
): Promise<void> {
  const { jiraProjects, confluenceSpaces, bitbucketRepositories } = ctx.policy;
  switch (reach.kind) {
    case "jira-issue":
      if (jiraProjects === null) return;
      if (reach.byId === "read" && projectOfKey(String(value)) === null) return assertIssueIdAllowed(ctx, String(value));
      return assertIssueAllowed(ctx, String(value));
    case "jira-project":
      return assertProjectAllowed(ctx, String(value));
    case "jira-comment":
      if (jiraProjects === null) return;
      return assertCommentOf(ctx, String(valuesAt(args, reach.issueArg)[0]).toUpperCase(), String(value));
    case "jira-board":
      return assertBoardAllowed(ctx, Number(value));
    case "jira-sprint":
      return assertSprintAllowed(ctx, Number(value));
    case "confluence-space":
      return assertSpaceAllowed(ctx, spaceKey(String(value)));
    case "confluence-page":
      if (confluenceSpaces === null) return;
      return assertPageAllowed(ctx, String(value));
    case "confluence-comment": {
      if (confluenceSpaces === null) return;
      // A comment on no page (a blog post's) is refused by the tool itself, which says why.
      const { comment } = await findComment(ctx, String(value));
      if (comment.pageId) await assertPageAllowed(ctx, String(comment.pageId));
      return;
    }
    case "bitbucket-repository": {
      if (bitbucketRepositories === null) return;
      const given = reach.workspaceArg === undefined ? undefined : valuesAt(args, reach.workspaceArg)[0];
      const { workspace, repo } = bitbucketTarget(ctx, String(value), given === undefined ? undefined : String(given));
      return assertRepositoryAllowed(ctx, workspace, repo);
    }
  }
}

/** A page's space, from the page without its body (and the space's key from its id): nothing of the page's content is read. */
async function assertPageAllowed(ctx: ToolContext, id: string): Promise<void> {
  const page = await ctx.clients.confluence.getPage(id, null);
  assertSpaceAllowed(ctx, page.spaceId ? (await ctx.clients.confluence.space(String(page.spaceId))).key : null);
}

/**
 * The comment, read through the issue named before it is changed: Jira's edit and delete take the
 * issue in their path, but the allow-list checked only that issue, so a comment of another issue
 * (one outside the client's projects) must not be reachable by naming an allowed one. Without a
 * project list any issue may be named, so there is nothing to protect and nothing is read.
 */
async function assertCommentOf(ctx: ToolContext, key: string, id: string): Promise<void> {
  await ctx.clients.jira
    .comment(key, id)
    .catch(
      notFoundAs(
        () =>
          new ToolError(
            `${key} has no comment ${id}: Jira found nothing there (404). Find the issue's comment ids with jira_list_comments.`,
          ),
      ),
    );
}
