import { z } from "zod";
import { browseUrl, ISSUE_KEY } from "./jira.tools";
import { assertIssueAllowed } from "./policy";
import { defineTool, READ_ONLY, ToolError, WRITES } from "./tool";

/** Links between Jira issues: the kinds there are, and linking two issues. */

const issueKey = (name: string) => z.string().trim().regex(ISSUE_KEY, `${name} must be an issue key such as BK-12`);

export const jiraListLinkTypes = defineTool({
  name: "jira_list_link_types",
  service: "jira",
  toolset: "jira-links",
  scope: "read",
  description: 'The kinds of link between Jira issues, each with its two readings (e.g. Blocks: "blocks" / "is blocked by"), for jira_link_issues.',
  input: z.object({}),
  output: z.object({ linkTypes: z.array(z.object({ name: z.string(), outward: z.string(), inward: z.string() })) }),
  annotations: { title: "List Jira issue link types", ...READ_ONLY },
  async run(_args, ctx) {
    const { issueLinkTypes } = await ctx.clients.jira.linkTypes();
    const linkTypes = issueLinkTypes.map((t) => ({ name: t.name, outward: t.outward, inward: t.inward }));
    return { structured: { linkTypes }, text: linkTypes.map((t) => `- ${t.name}: A ${t.outward} B / B ${t.inward} A`).join("\n") || "No link types." };
  },
});

export const jiraLinkIssues = defineTool({
  name: "jira_link_issues",
  service: "jira",
  toolset: "jira-links",
  scope: "write",
  description: 'Link two Jira issues so that `from` <type\'s outward reading> `to`, e.g. {from: "BK-1", type: "Blocks", to: "BK-2"}: BK-1 blocks BK-2. Types come from jira_list_link_types.',
  input: z.object({
    from: issueKey("from"),
    type: z.string().trim().min(1).max(100).describe('A link type name, e.g. "Blocks", "Relates", "Duplicate".'),
    to: issueKey("to"),
  }),
  output: z.object({ from: z.string(), type: z.string(), to: z.string(), reading: z.string(), url: z.string().nullable() }),
  annotations: { title: "Link two Jira issues", ...WRITES },
  async run({ from, type, to }, ctx) {
    assertIssueAllowed(ctx, from);
    assertIssueAllowed(ctx, to);
    const [a, b] = [from.toUpperCase(), to.toUpperCase()];
    if (a === b) throw new ToolError("from and to are the same issue: an issue cannot be linked to itself.");
    const { issueLinkTypes } = await ctx.clients.jira.linkTypes();
    const kind = issueLinkTypes.find((t) => t.name.toLowerCase() === type.toLowerCase());
    if (!kind) throw new ToolError(`There is no link type "${type}". The types are: ${issueLinkTypes.map((t) => t.name).join(", ")}.`);
    // The outward reading starts from Jira's `outwardIssue` (BK-1 blocks BK-2: outwardIssue BK-1, inwardIssue BK-2).
    await ctx.clients.jira.linkIssues(kind.name, b, a);
    const reading = `${a} ${kind.outward} ${b}`;
    return { structured: { from: a, type: kind.name, to: b, reading, url: browseUrl(ctx, a) }, text: `Linked: ${reading}.` };
  },
});

export const JIRA_LINK_TOOLS = [jiraListLinkTypes, jiraLinkIssues];
