import { TOOLSET_NAMES, type Toolset } from "../../../contract/policy";
import { BITBUCKET_CODE_TOOLS } from "./bitbucket-code.tools";
import { BITBUCKET_HISTORY_TOOLS } from "./bitbucket-history.tools";
import { BITBUCKET_PRS_TOOLS } from "./bitbucket-prs.tools";
import { BITBUCKET_REVIEWS_TOOLS } from "./bitbucket-reviews.tools";
import { CONFLUENCE_ATTACHMENTS_TOOLS } from "./confluence-attachments.tools";
import { CONFLUENCE_COMMENTS_TOOLS } from "./confluence-comments.tools";
import { CONFLUENCE_HISTORY_TOOLS } from "./confluence-history.tools";
import { CONFLUENCE_PAGES_TOOLS } from "./confluence-pages.tools";
import { CONFLUENCE_TREE_TOOLS } from "./confluence-tree.tools";
import { JIRA_ADMIN_TOOLS } from "./jira-admin.tools";
import { JIRA_AGILE_TOOLS } from "./jira-agile.tools";
import { JIRA_ATTACHMENTS_TOOLS } from "./jira-attachments.tools";
import { JIRA_COMMENTS_TOOLS } from "./jira-comments.tools";
import { JIRA_ISSUES_TOOLS } from "./jira-issues.tools";
import { JIRA_LINKS_TOOLS } from "./jira-links.tools";
import { JIRA_PROJECTS_TOOLS } from "./jira-projects.tools";
import { JIRA_WORKLOGS_TOOLS } from "./jira-worklogs.tools";
import type { ToolSpec } from "./tool";

/**
 * Each toolset's tools, from its own file (`<toolset>.tools.ts`). Keyed by the toolset names of
 * contract/policy.ts, so a toolset without a file, or a file without a toolset, does not compile;
 * catalogue.test.ts checks that every tool says the toolset of the file it is in.
 */
export const TOOLSET_TOOLS: Readonly<Record<Toolset, readonly ToolSpec[]>> = {
  "jira-issues": JIRA_ISSUES_TOOLS,
  "jira-comments": JIRA_COMMENTS_TOOLS,
  "jira-worklogs": JIRA_WORKLOGS_TOOLS,
  "jira-links": JIRA_LINKS_TOOLS,
  "jira-projects": JIRA_PROJECTS_TOOLS,
  "jira-admin": JIRA_ADMIN_TOOLS,
  "jira-agile": JIRA_AGILE_TOOLS,
  "jira-attachments": JIRA_ATTACHMENTS_TOOLS,
  "confluence-pages": CONFLUENCE_PAGES_TOOLS,
  "confluence-comments": CONFLUENCE_COMMENTS_TOOLS,
  "confluence-tree": CONFLUENCE_TREE_TOOLS,
  "confluence-history": CONFLUENCE_HISTORY_TOOLS,
  "confluence-attachments": CONFLUENCE_ATTACHMENTS_TOOLS,
  "bitbucket-code": BITBUCKET_CODE_TOOLS,
  "bitbucket-prs": BITBUCKET_PRS_TOOLS,
  "bitbucket-history": BITBUCKET_HISTORY_TOOLS,
  "bitbucket-reviews": BITBUCKET_REVIEWS_TOOLS,
};

/** Every tool, in a fixed order (by name), so tools/list answers the same list every time. */
export const TOOLS: readonly ToolSpec[] = TOOLSET_NAMES.flatMap((toolset) => TOOLSET_TOOLS[toolset]).sort((a, b) =>
  a.name.localeCompare(b.name),
);

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

export const toolByName = (name: string): ToolSpec | undefined => byName.get(name);
