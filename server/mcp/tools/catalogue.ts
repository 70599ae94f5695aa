import { BITBUCKET_CODE_TOOLS } from "./bitbucket-code.tools";
import { BITBUCKET_HISTORY_TOOLS } from "./bitbucket-history.tools";
import { CONFLUENCE_ATTACHMENT_TOOLS } from "./confluence-attachments.tools";
import { CONFLUENCE_COMMENT_TOOLS } from "./confluence-comments.tools";
import { CONFLUENCE_HISTORY_TOOLS } from "./confluence-history.tools";
import { CONFLUENCE_TREE_TOOLS } from "./confluence-tree.tools";
import { BITBUCKET_PR_TOOLS } from "./bitbucket-prs.tools";
import { BITBUCKET_REVIEW_TOOLS } from "./bitbucket-reviews.tools";
import { BITBUCKET_TOOLS } from "./bitbucket.tools";
import { CONFLUENCE_PAGE_TOOLS } from "./confluence-pages.tools";
import { CONFLUENCE_TOOLS } from "./confluence.tools";
import { JIRA_AGILE_TOOLS } from "./jira-agile.tools";
import { JIRA_ATTACHMENT_TOOLS } from "./jira-attachments.tools";
import { JIRA_ISSUE_TOOLS } from "./jira-issues.tools";
import { JIRA_TOOLS } from "./jira.tools";
import { JIRA_COMMENT_TOOLS } from "./jira-comments.tools";
import { JIRA_LINK_TOOLS } from "./jira-links.tools";
import { JIRA_PROJECT_TOOLS } from "./jira-projects.tools";
import { JIRA_SCHEMA_TOOLS } from "./jira-schema.tools";
import { JIRA_SPRINT_TOOLS } from "./jira-sprints.tools";
import { JIRA_WATCHER_TOOLS } from "./jira-watchers.tools";
import { JIRA_WORKLOG_TOOLS } from "./jira-worklogs.tools";
import type { ToolSpec } from "./tool";

/** Every tool, in a fixed order (by name), so tools/list answers the same list every time. */
export const TOOLS: readonly ToolSpec[] = [...JIRA_TOOLS, ...JIRA_ISSUE_TOOLS, ...JIRA_COMMENT_TOOLS, ...JIRA_WORKLOG_TOOLS, ...JIRA_PROJECT_TOOLS, ...JIRA_SCHEMA_TOOLS, ...JIRA_LINK_TOOLS, ...JIRA_WATCHER_TOOLS, ...JIRA_AGILE_TOOLS, ...JIRA_SPRINT_TOOLS, ...JIRA_ATTACHMENT_TOOLS, ...CONFLUENCE_TOOLS, ...CONFLUENCE_PAGE_TOOLS, ...CONFLUENCE_TREE_TOOLS, ...CONFLUENCE_HISTORY_TOOLS, ...CONFLUENCE_COMMENT_TOOLS, ...CONFLUENCE_ATTACHMENT_TOOLS, ...BITBUCKET_TOOLS, ...BITBUCKET_PR_TOOLS, ...BITBUCKET_CODE_TOOLS, ...BITBUCKET_HISTORY_TOOLS, ...BITBUCKET_REVIEW_TOOLS].sort((a, b) => a.name.localeCompare(b.name));

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

export const toolByName = (name: string): ToolSpec | undefined => byName.get(name);
