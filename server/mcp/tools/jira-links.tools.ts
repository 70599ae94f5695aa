import { z } from "zod";
import { browseUrl, ISSUE_KEY } from "./jira-common";
import { defineTool, READ_ONLY, ToolError, wellFormed, WRITES } from "./tool";

/** The jira-links toolset: links between issues (the kinds there are, linking two), who watches an issue, and links from an issue to pages outside Jira (remote links). */

const issueKeyArg = (name: string) => z.string().trim().regex(ISSUE_KEY, `${name} must be an issue key such as BK-12`);

export const jiraListLinkTypes = defineTool({
  name: "jira_list_link_types",
  service: "jira",
  toolset: "jira-links",
  reaches: [],
  scope: "read",
  description:
    'The kinds of link between Jira issues, each with its two readings (e.g. Blocks: "blocks" / "is blocked by"), for jira_link_issues.',
  input: z.object({}),
  output: z.object({ linkTypes: z.array(z.object({ name: z.string(), outward: z.string(), inward: z.string() })) }),
  annotations: { title: "List Jira issue link types", ...READ_ONLY },
  async run(_args, ctx) {
    const { issueLinkTypes } = await ctx.clients.jira.linkTypes();
    const linkTypes = issueLinkTypes.map((t) => ({ name: t.name, outward: t.outward, inward: t.inward }));
    return {
      structured: { linkTypes },
      text: linkTypes.map((t) => `- ${t.name}: A ${t.outward} B / B ${t.inward} A`).join("\n") || "No link types.",
    };
  },
});

export const jiraLinkIssues = defineTool({
  name: "jira_link_issues",
  service: "jira",
  toolset: "jira-links",
  reaches: [
    { kind: "jira-issue", arg: "from" },
    { kind: "jira-issue", arg: "to" },
  ],
  scope: "write",
  description:
    'Link two Jira issues so that `from` <type\'s outward reading> `to`, e.g. {from: "BK-1", type: "Blocks", to: "BK-2"}: BK-1 blocks BK-2. Types come from jira_list_link_types.',
  input: z.object({
    from: issueKeyArg("from"),
    type: z.string().trim().min(1).max(100).describe('A link type name, e.g. "Blocks", "Relates", "Duplicate".'),
    to: issueKeyArg("to"),
  }),
  output: z.object({ from: z.string(), type: z.string(), to: z.string(), reading: z.string(), url: z.string().nullable() }),
  annotations: { title: "Link two Jira issues", ...WRITES },
  async run({ from, type, to }, ctx) {
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

const issueKey = z
  .string()
  .trim()
  .regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)")
  .describe("The issue key, e.g. BK-12.");
const accountId = wellFormed(
  z.string().trim().min(1, "accountId must not be empty").max(128, "accountId may be at most 128 characters"),
  "accountId",
).describe("A user's accountId (jira_search_users).");

const WatcherSchema = z.object({ accountId: z.string(), name: z.string(), active: z.boolean().nullable() });

export const jiraListWatchers = defineTool({
  name: "jira_list_watchers",
  service: "jira",
  toolset: "jira-links",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "read",
  description: "Who watches a Jira issue (name and accountId), and whether Bridgekeeper's account does.",
  input: z.object({ issueKey }),
  output: z.object({
    key: z.string(),
    watchCount: z.number().int(),
    isWatching: z.boolean(),
    watchers: z.array(WatcherSchema),
    url: z.string().nullable(),
  }),
  annotations: { title: "List a Jira issue's watchers", ...READ_ONLY },
  async run({ issueKey: given }, ctx) {
    const key = given.toUpperCase();
    const found = await ctx.clients.jira.watchers(key);
    const watchers = found.watchers.map((u) => ({
      accountId: u.accountId,
      name: u.displayName,
      active: typeof u.active === "boolean" ? u.active : null,
    }));
    const structured = {
      key,
      watchCount: found.watchCount ?? watchers.length,
      isWatching: found.isWatching === true,
      watchers,
      url: browseUrl(ctx, key),
    };
    const lines = watchers.map((w) => `- ${w.name}: ${w.accountId}${w.active === false ? " (inactive)" : ""}`);
    return {
      structured,
      text: watchers.length
        ? [`${key} has ${structured.watchCount} watcher${structured.watchCount === 1 ? "" : "s"}:`, ...lines].join("\n")
        : `Nobody watches ${key}.`,
    };
  },
});

const WatchChangeSchema = z.object({ key: z.string(), accountId: z.string(), watching: z.boolean(), url: z.string().nullable() });

export const jiraAddWatcher = defineTool({
  name: "jira_add_watcher",
  service: "jira",
  toolset: "jira-links",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "write",
  description: "Make a user (by accountId) watch a Jira issue, so Jira notifies them of its changes.",
  input: z.object({ issueKey, accountId }),
  output: WatchChangeSchema,
  annotations: { title: "Add a watcher to a Jira issue", ...WRITES, idempotentHint: true },
  async run({ issueKey: given, accountId: user }, ctx) {
    const key = given.toUpperCase();
    await ctx.clients.jira.addWatcher(key, user);
    return { structured: { key, accountId: user, watching: true, url: browseUrl(ctx, key) }, text: `${user} now watches ${key}.` };
  },
});

export const jiraRemoveWatcher = defineTool({
  name: "jira_remove_watcher",
  service: "jira",
  toolset: "jira-links",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "write",
  description: "Stop a user (by accountId) watching a Jira issue.",
  input: z.object({ issueKey, accountId }),
  output: WatchChangeSchema,
  annotations: { title: "Remove a watcher from a Jira issue", ...WRITES, idempotentHint: true },
  async run({ issueKey: given, accountId: user }, ctx) {
    const key = given.toUpperCase();
    await ctx.clients.jira.removeWatcher(key, user);
    return { structured: { key, accountId: user, watching: false, url: browseUrl(ctx, key) }, text: `${user} no longer watches ${key}.` };
  },
});

const RemoteLinkSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  url: z.string(),
  summary: z.string().nullable(),
  relationship: z.string().nullable(),
});

export const jiraListRemoteLinks = defineTool({
  name: "jira_list_remote_links",
  service: "jira",
  toolset: "jira-links",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "read",
  description: "The links from a Jira issue to pages outside Jira (documents, web pages): title and URL.",
  input: z.object({ issueKey }),
  output: z.object({ key: z.string(), links: z.array(RemoteLinkSchema) }),
  annotations: { title: "List a Jira issue's remote links", ...READ_ONLY },
  async run({ issueKey: given }, ctx) {
    const key = given.toUpperCase();
    const links = (await ctx.clients.jira.remoteLinks(key)).slice(0, 100).map((l) => ({
      id: l.id,
      title: l.object.title,
      url: l.object.url,
      summary: l.object.summary?.slice(0, 500) || null,
      relationship: l.relationship || null,
    }));
    const lines = links.map(
      (l) => `- [${l.title}](${l.url})${l.relationship ? ` (${l.relationship})` : ""}${l.summary ? ` — ${l.summary}` : ""} · id ${l.id}`,
    );
    return {
      structured: { key, links },
      text: links.length
        ? [`${links.length} remote link${links.length === 1 ? "" : "s"} on ${key}:`, ...lines].join("\n")
        : `${key} has no remote links.`,
    };
  },
});

export const jiraAddRemoteLink = defineTool({
  name: "jira_add_remote_link",
  service: "jira",
  toolset: "jira-links",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "write",
  description: "Link a Jira issue to a web page or document outside Jira (an http or https URL with a title).",
  input: z.object({
    issueKey,
    url: z
      .string()
      .trim()
      .max(2000, "url may be at most 2000 characters")
      .refine(
        (v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v),
        "url must be an http or https URL such as https://example.com/spec",
      ),
    title: z.string().trim().min(1, "title must not be empty").max(255, "title may be at most 255 characters"),
    summary: z.string().trim().max(1_000, "summary may be at most 1000 characters").optional(),
    relationship: z
      .string()
      .trim()
      .min(1)
      .max(100, "relationship may be at most 100 characters")
      .optional()
      .describe('How it relates, e.g. "mentioned in", "design".'),
  }),
  output: z.object({ key: z.string(), id: z.number().int(), title: z.string(), url: z.string(), issueUrl: z.string().nullable() }),
  annotations: { title: "Add a remote link to a Jira issue", ...WRITES },
  async run({ issueKey: given, url, title, summary, relationship }, ctx) {
    const key = given.toUpperCase();
    const created = await ctx.clients.jira.addRemoteLink(key, {
      object: { url, title, ...(summary ? { summary } : {}) },
      ...(relationship ? { relationship } : {}),
    });
    return {
      structured: { key, id: created.id, title, url, issueUrl: browseUrl(ctx, key) },
      text: `Linked ${key} to [${title}](${url}) (remote link ${created.id}).`,
    };
  },
});

export const JIRA_LINKS_TOOLS = [
  jiraListLinkTypes,
  jiraLinkIssues,
  jiraListWatchers,
  jiraAddWatcher,
  jiraRemoveWatcher,
  jiraListRemoteLinks,
  jiraAddRemoteLink,
];
