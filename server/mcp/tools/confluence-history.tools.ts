import { z } from "zod";
import { isUpstreamError } from "../../upstream/errors";
import { accountNames as namesOf, readPage, pageUrl } from "./confluence-common";
import { cursorArg } from "./cursor";
import { shortDate } from "./format";
import { unifiedLineDiff } from "./line-diff";
import { markdownToStorage } from "./markdown/markdown-to-storage";
import { sameHeading, sectionsOf, replaceSectionBody } from "./markdown/sections";
import { storageToMarkdown } from "./markdown/storage-to-markdown";
import { DESTRUCTIVE, defineTool, READ_ONLY, ToolError, WRITES } from "./tool";

/**
 * A page's history and the edits that need care: its versions, the diff of two of them, replacing
 * one section (the rest of the page untouched byte for byte), and deleting it (to the trash).
 */

const pageId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "pageId must be a numeric page id such as 1081519")
  .describe("The page id.");
const versionNumber = (name: string) =>
  z
    .number({ error: `${name} must be a version number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`);

const staleVersion = (id: string, given: number, at: number) =>
  new ToolError(
    `Version ${given} is stale: page ${id} is at version ${at}. Read it again with confluence_get_page, apply your change to the current text, and pass version ${at}.`,
  );

export const confluenceUpdatePageSection = defineTool({
  name: "confluence_update_page_section",
  service: "confluence",
  toolset: "confluence-history",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "write",
  description:
    "Replace the body of one section of a Confluence page (under the heading named) with Markdown; the rest of the page stays exactly as it was. Pass the version you read.",
  input: z.object({
    pageId,
    version: versionNumber("version").describe("The version you read."),
    heading: z
      .string()
      .trim()
      .min(1, "heading must not be empty")
      .max(255, "heading may be at most 255 characters")
      .describe("The section's heading text."),
    body: z
      .string()
      .max(200_000, "the body may be at most 200000 characters")
      .describe("Markdown: the section's new content, below its heading."),
    occurrence: z
      .number()
      .int()
      .min(1, "occurrence must be at least 1")
      .max(100)
      .optional()
      .describe("Which of several headings with this text (1 = first)."),
    message: z.string().trim().max(500).optional().describe("What changed."),
  }),
  output: z.object({ id: z.string(), title: z.string(), version: z.number().int(), heading: z.string(), url: z.string().nullable() }),
  annotations: { title: "Update one section of a Confluence page", ...WRITES, idempotentHint: true },
  async run({ pageId: id, version, heading, body, occurrence, message }, ctx) {
    const current = await readPage(ctx, id);
    const at = current.version?.number ?? 1;
    if (version !== at) throw staleVersion(id, version, at);
    const storage = current.body?.storage?.value ?? "";
    const sections = sectionsOf(storage);
    const matches = sections.filter((s) => sameHeading(s.heading, heading));
    if (matches.length === 0) {
      const list = sections
        .slice(0, 30)
        .map((s) => `"${s.heading}"`)
        .join(", ");
      throw new ToolError(
        `Page ${id} has no heading "${heading}". ${sections.length ? `Its headings: ${list}${sections.length > 30 ? ", …" : ""}.` : "It has no headings: use confluence_update_page."}`,
      );
    }
    if (matches.length > 1 && occurrence === undefined)
      throw new ToolError(
        `${matches.length} headings of page ${id} read "${heading}": pass occurrence (1 to ${matches.length}) to say which.`,
      );
    const section = matches[(occurrence ?? 1) - 1];
    if (!section)
      throw new ToolError(
        `Page ${id} has only ${matches.length} heading${matches.length === 1 ? "" : "s"} reading "${heading}": occurrence ${occurrence} is past them.`,
      );
    // Macros of the old section come back where the Markdown keeps their markers.
    const old = storage.slice(section.bodyStart, section.end);
    const page = await ctx.clients.confluence.updatePage(id, {
      title: current.title,
      body: replaceSectionBody(storage, section, markdownToStorage(body, old)),
      version: at + 1,
      ...(message ? { message } : {}),
    });
    const structured = {
      id,
      title: page.title,
      version: page.version?.number ?? at + 1,
      heading: section.heading,
      url: pageUrl(ctx, page),
    };
    return {
      structured,
      text: `Replaced the section "${section.heading}" of page ${id} "${page.title}"; it is now at version ${structured.version}.${structured.url ? `\n${structured.url}` : ""}`,
    };
  },
});

export const confluenceDeletePage = defineTool({
  name: "confluence_delete_page",
  service: "confluence",
  toolset: "confluence-history",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "write",
  description: "Delete a Confluence page (to the space's trash, where an admin can restore it); its child pages move up to its parent.",
  input: z.object({ pageId }),
  output: z.object({ pageId: z.string(), title: z.string(), deleted: z.boolean() }),
  annotations: { title: "Delete a Confluence page", ...DESTRUCTIVE },
  async run({ pageId: id }, ctx) {
    const page = await readPage(ctx, id);
    await ctx.clients.confluence.deletePage(id);
    return {
      structured: { pageId: id, title: page.title, deleted: true },
      text: `Deleted page ${id} "${page.title}" (moved to the trash; its child pages moved up to its parent).`,
    };
  },
});

const VersionSchema = z.object({
  number: z.number().int(),
  author: z.string().nullable(),
  date: z.string().nullable(),
  message: z.string(),
  minorEdit: z.boolean(),
});

export const confluenceGetPageHistory = defineTool({
  name: "confluence_get_page_history",
  service: "confluence",
  toolset: "confluence-history",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description: "A Confluence page's versions, newest first: number, author, date, message. Pass nextCursor for older ones.",
  input: z.object({
    pageId,
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(50, "maxResults may be at most 50").default(20),
    cursor: cursorArg,
  }),
  output: z.object({ pageId: z.string(), title: z.string(), versions: z.array(VersionSchema), nextCursor: z.string().nullable() }),
  annotations: { title: "List a Confluence page's versions", ...READ_ONLY },
  async run({ pageId: id, maxResults, cursor }, ctx) {
    const scope = `confluence_get_page_history\u0000${id}`;
    const upstream = cursor === undefined ? undefined : ctx.cursors.open(scope, cursor);
    const page = await readPage(ctx, id);
    const listed = await ctx.clients.confluence.versions(id, { limit: maxResults, ...(upstream ? { cursor: upstream } : {}) });
    const names = await namesOf(
      ctx,
      listed.results.map((v) => v.authorId ?? ""),
    );
    const versions = listed.results.map((v) => ({
      number: v.number,
      author: v.authorId ? (names.get(v.authorId) ?? v.authorId) : null,
      date: v.createdAt ?? null,
      message: v.message ?? "",
      minorEdit: v.minorEdit === true,
    }));
    const nextCursor = listed.nextCursor ? ctx.cursors.seal(scope, listed.nextCursor) : null;
    const lines = versions.map(
      (v) =>
        `- v${v.number} ${v.date ? shortDate(v.date) : "?"} ${v.author ?? "unknown"}${v.minorEdit ? " (minor)" : ""}${v.message ? `: ${v.message}` : ""}`,
    );
    return {
      structured: { pageId: id, title: page.title, versions, nextCursor },
      text: [`Versions of "${page.title}" (id ${id}), newest first:`, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join(
        "\n",
      ),
    };
  },
});

export const confluenceDiffPageVersions = defineTool({
  name: "confluence_diff_page_versions",
  service: "confluence",
  toolset: "confluence-history",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description: "A unified line diff of a Confluence page's Markdown between two versions (see confluence_get_page_history).",
  input: z
    .object({
      pageId,
      from: versionNumber("from").describe("The older version."),
      to: versionNumber("to").describe("The newer version."),
      maxLines: z.number().int().min(20, "maxLines must be at least 20").max(2000, "maxLines may be at most 2000").default(400),
    })
    .refine((a) => a.from !== a.to, { message: "from and to must be different versions", path: ["to"] }),
  output: z.object({
    pageId: z.string(),
    from: z.number().int(),
    to: z.number().int(),
    titleChanged: z.boolean(),
    diff: z.string(),
    added: z.number().int(),
    removed: z.number().int(),
    lines: z.number().int(),
    truncated: z.boolean(),
  }),
  annotations: { title: "Diff two versions of a Confluence page", ...READ_ONLY },
  async run({ pageId: id, from, to, maxLines }, ctx) {
    const page = await readPage(ctx, id);
    const read = (n: number) =>
      ctx.clients.confluence.pageAtVersion(id, n).catch((err: unknown) => {
        if (isUpstreamError(err) && err.kind === "not_found")
          throw new ToolError(
            `Page ${id} has no version ${n} (it is at version ${page.version?.number ?? "?"}). List its versions with confluence_get_page_history.`,
          );
        throw err;
      });
    const [a, b] = await Promise.all([read(from), read(to)]);
    const { diff, added, removed } = unifiedLineDiff(
      storageToMarkdown(a.body?.storage?.value ?? ""),
      storageToMarkdown(b.body?.storage?.value ?? ""),
      { from: `version ${from}`, to: `version ${to}` },
    );
    const all = diff === "" ? [] : diff.split("\n");
    const truncated = all.length > maxLines;
    const shown = truncated ? all.slice(0, maxLines) : all;
    const titleChanged = a.title !== b.title;
    const structured = { pageId: id, from, to, titleChanged, diff: shown.join("\n"), added, removed, lines: all.length, truncated };
    const head = [
      `Page ${id} "${b.title}", version ${from} → ${to}: ${added} line${added === 1 ? "" : "s"} added, ${removed} removed.`,
      ...(titleChanged ? [`Title: "${a.title}" → "${b.title}"`] : []),
    ];
    const tail = truncated ? [`[cut at ${maxLines} of ${all.length} lines: raise maxLines to see more]`] : [];
    return { structured, text: [...head, ...(diff === "" ? ["The bodies are the same."] : [structured.diff]), ...tail].join("\n") };
  },
});

export const CONFLUENCE_HISTORY_TOOLS = [
  confluenceUpdatePageSection,
  confluenceDeletePage,
  confluenceGetPageHistory,
  confluenceDiffPageVersions,
];
