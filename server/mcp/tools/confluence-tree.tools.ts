import { z } from "zod";
import { collect, firstOf } from "../../upstream/paginate";
import { cursorArg } from "./cursor";
import { maxLengthArg, PageAnswerSchema, pageAnswer, readPage, pageUrl, spaceKey as spaceKeyOf, wikiUrl } from "./confluence-common";
import type { ConfluencePage } from "../../upstream/confluence.client";
import { isUpstreamError } from "../../upstream/errors";
import { outsidePage } from "./policy";
import { defineTool, READ_ONLY, ToolError, wellFormed, WRITES, type ToolContext } from "./tool";

/** Finding one's way around Confluence: the spaces, where a page sits (its parents and children), its labels. */

const pageId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "pageId must be a page id (digits), as confluence_search gives it");
const spaceKey = z
  .string()
  .trim()
  .regex(/^~?[\w-]{1,255}$/, "spaceKey must be a space key such as ENG")
  .describe("The space key, e.g. ENG.");
/** Keys are upper case, personal spaces (~account) as given. */
const noSpace = (key: string) =>
  new ToolError(`There is no Confluence space ${key}. List the spaces with confluence_list_spaces and try again.`);
const PageLineSchema = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  outside: z.literal(true).optional().describe("Outside this client's spaces: shown by id only"),
});

/**
 * A page related to one already held to the allow-list (its child, its ancestor). Confluence keeps
 * a page tree inside one space, so a page of the checked page's space is shown in full; one naming
 * another space or none (which should not happen) shows as outside (outsidePage), with no read to place it.
 */
const pageLine = (
  ctx: ToolContext,
  p: { id: string | number; title: string; spaceId?: string | number | null },
  checkedSpaceId: string | number | null | undefined,
) =>
  ctx.policy.confluenceSpaces === null || (p.spaceId !== null && p.spaceId !== undefined && String(p.spaceId) === String(checkedSpaceId))
    ? { id: String(p.id), title: p.title, url: pageUrl(ctx, { ...p, id: String(p.id) }) }
    : outsidePage(String(p.id));

export const confluenceListSpaces = defineTool({
  name: "confluence_list_spaces",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [{ kind: "listing", service: "confluence" }],
  scope: "read",
  description:
    "The Confluence spaces Bridgekeeper's account can see: key, name and link. Use a key in CQL (space = KEY) or with confluence_create_page.",
  input: z.object({ maxResults: z.number().int().min(1).max(250, "maxResults may be at most 250").default(100) }),
  output: z.object({
    spaces: z.array(z.object({ key: z.string(), name: z.string(), id: z.string(), url: z.string().nullable() })),
    truncated: z.boolean(),
  }),
  annotations: { title: "List Confluence spaces", ...READ_ONLY },
  async run({ maxResults }, ctx) {
    const allowed = ctx.policy.confluenceSpaces;
    const { items, truncated } = await firstOf(
      ctx.clients.confluence.spaces(),
      maxResults,
      (s) => allowed === null || allowed.includes(s.key),
    );
    // The space's own link where Confluence gives one (Data Center's is /display/KEY), else Cloud's address.
    const spaces = items.map((s) => ({
      key: s.key,
      name: s.name,
      id: String(s.id),
      url: wikiUrl(ctx, (s as { _links?: { webui?: string } })._links?.webui ?? `/spaces/${s.key}`),
    }));
    const text = spaces.length
      ? [
          `${spaces.length} space${spaces.length === 1 ? "" : "s"}${truncated ? " (more: raise maxResults)" : ""}:`,
          ...spaces.map((s) => `- ${s.key}: ${s.name}`),
        ].join("\n")
      : "No spaces.";
    return { structured: { spaces, truncated }, text };
  },
});

export const confluenceGetPageChildren = defineTool({
  name: "confluence_get_page_children",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description: "The pages directly under a Confluence page, in the space's order: id, title and link. Read one with confluence_get_page.",
  input: z.object({ pageId, maxResults: z.number().int().min(1).max(250, "maxResults may be at most 250").default(50) }),
  output: z.object({ pageId: z.string(), title: z.string(), children: z.array(PageLineSchema), truncated: z.boolean() }),
  annotations: { title: "List a Confluence page's children", ...READ_ONLY },
  async run({ pageId: id, maxResults }, ctx) {
    const parent = await readPage(ctx, id);
    const { items, truncated } = await firstOf(ctx.clients.confluence.children(id), maxResults);
    const children = items.map((p) => pageLine(ctx, p, parent.spaceId));
    const text = children.length
      ? [
          `${children.length} page${children.length === 1 ? "" : "s"} under "${parent.title}"${truncated ? " (more: raise maxResults)" : ""}:`,
          ...children.map((c) => `- ${c.title} (id ${c.id})`),
        ].join("\n")
      : `"${parent.title}" has no child pages.`;
    return { structured: { pageId: id, title: parent.title, children, truncated }, text };
  },
});

export const confluenceGetPageAncestors = defineTool({
  name: "confluence_get_page_ancestors",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description: "Where a Confluence page sits: its parents from the space's top page down (id, title, link), as a breadcrumb.",
  input: z.object({ pageId }),
  output: z.object({ pageId: z.string(), title: z.string(), ancestors: z.array(PageLineSchema) }),
  annotations: { title: "Show a Confluence page's parents", ...READ_ONLY },
  async run({ pageId: id }, ctx) {
    const page = await readPage(ctx, id);
    const ids = (await collect(ctx.clients.confluence.ancestors(id))).map((a) => String(a.id));
    // Confluence names ancestors by id only: their titles are read alongside (a handful, in parallel).
    const pages = await Promise.all(ids.map((a) => ctx.clients.confluence.getPage(a, "storage")));
    const ancestors = pages.map((p) => pageLine(ctx, p, page.spaceId));
    const crumbs = [...ancestors.map((a) => a.title), page.title].join(" › ");
    return {
      structured: { pageId: id, title: page.title, ancestors },
      text: ancestors.length ? crumbs : `"${page.title}" is at the top of its space.`,
    };
  },
});

/** Confluence's rule for a label: one word, lower case, none of :;,.?&[]()#^*@! */
const LABEL = wellFormed(
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[^\s:;,.?&[\]()#^*@!]{1,255}$/, "a label is one word without spaces or any of :;,.?&[]()#^*@!"),
  "a label",
);

export const confluenceLabelPage = defineTool({
  name: "confluence_label_page",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "write",
  description:
    'Add labels to a Confluence page, remove some, or both; answers with the page\'s labels after the change. Find pages by label with confluence_search (label = "x").',
  input: z
    .object({
      pageId,
      add: z.array(LABEL).max(20, "at most 20 labels at once").default([]),
      remove: z.array(LABEL).max(20, "at most 20 labels at once").default([]),
    })
    .refine((a) => a.add.length + a.remove.length > 0, "nothing to change: give labels to add or remove"),
  output: z.object({ pageId: z.string(), labels: z.array(z.string()) }),
  annotations: { title: "Label a Confluence page", ...WRITES, idempotentHint: true },
  async run({ pageId: id, add, remove }, ctx) {
    const page = await readPage(ctx, id);
    if (add.length > 0) await ctx.clients.confluence.addLabels(id, add);
    for (const label of remove) {
      await ctx.clients.confluence.removeLabel(id, label).catch((err: unknown) => {
        // Removing a label the page does not have leaves it as asked.
        if (!(isUpstreamError(err) && err.kind === "not_found")) throw err;
      });
    }
    const labels = (await ctx.clients.confluence.labels(id)).results.map((l) => l.name);
    return {
      structured: { pageId: id, labels },
      text: `"${page.title}" is labelled ${labels.length ? labels.join(", ") : "with nothing"}.`,
    };
  },
});

export const confluenceListLabels = defineTool({
  name: "confluence_list_labels",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description:
    'A Confluence page\'s labels: name and prefix (global, my, team). Pass nextCursor for more. Find pages by label with confluence_search (label = "x").',
  input: z.object({
    pageId,
    prefix: z
      .enum(["global", "my", "team"], { error: "prefix must be global, my or team" })
      .optional()
      .describe("Only labels of this prefix."),
    maxResults: z
      .number()
      .int("maxResults must be a whole number")
      .min(1, "maxResults must be at least 1")
      .max(250, "maxResults may be at most 250")
      .default(100),
    cursor: cursorArg,
  }),
  output: z.object({
    pageId: z.string(),
    title: z.string(),
    labels: z.array(z.object({ name: z.string(), prefix: z.string() })),
    nextCursor: z.string().nullable(),
    url: z.string().nullable(),
  }),
  annotations: { title: "List a Confluence page's labels", ...READ_ONLY },
  async run({ pageId: id, prefix, maxResults, cursor }, ctx) {
    const scope = `confluence_list_labels\u0000${id}\u0000${prefix ?? ""}`;
    const upstream = cursor === undefined ? undefined : ctx.cursors.open(scope, cursor);
    const page = await readPage(ctx, id);
    const listed = await ctx.clients.confluence.pageLabels(id, { limit: maxResults, prefix, ...(upstream ? { cursor: upstream } : {}) });
    const labels = listed.results.map((l) => ({ name: l.name, prefix: l.prefix ?? "global" }));
    const nextCursor = listed.nextCursor ? ctx.cursors.seal(scope, listed.nextCursor) : null;
    const url = pageUrl(ctx, page);
    const names = labels.map((l) => (l.prefix === "global" ? l.name : `${l.name} (${l.prefix})`)).join(", ");
    const what = prefix ? `${prefix} label` : "label";
    const head = labels.length
      ? `${labels.length} ${what}${labels.length === 1 ? "" : "s"} on "${page.title}" (id ${id}): ${names}`
      : `"${page.title}" (id ${id}) has no ${cursor ? "more " : ""}${what}s.`;
    return {
      structured: { pageId: id, title: page.title, labels, nextCursor, url },
      text: [head, url, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].filter(Boolean).join("\n"),
    };
  },
});

export const confluenceGetPageByTitle = defineTool({
  name: "confluence_get_page_by_title",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [{ kind: "confluence-space", arg: "spaceKey" }],
  scope: "read",
  description: "Read a Confluence page by space key and exact title, as confluence_get_page does.",
  input: z.object({
    spaceKey,
    title: z.string().trim().min(1, "title must not be empty").max(255, "title may be at most 255 characters"),
    maxLength: maxLengthArg,
  }),
  output: PageAnswerSchema,
  annotations: { title: "Read a Confluence page by title", ...READ_ONLY },
  async run({ spaceKey: given, title, maxLength }, ctx) {
    const key = spaceKeyOf(given);
    const space = await ctx.clients.confluence.spaceByKey(key);
    if (!space) throw noSpace(key);
    const page = await ctx.clients.confluence.pageByTitle(String(space.id), title);
    if (!page)
      throw new ToolError(
        `Space ${key} has no page titled "${title}". Titles must match exactly; find the page with confluence_search (space = ${key} AND title ~ "...").`,
      );
    return pageAnswer(ctx, page, maxLength);
  },
});

export const confluenceGetSpace = defineTool({
  name: "confluence_get_space",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [{ kind: "confluence-space", arg: "spaceKey" }],
  scope: "read",
  description: "A Confluence space by key: name, description, homepage and link.",
  input: z.object({ spaceKey }),
  output: z.object({
    id: z.string(),
    key: z.string(),
    name: z.string(),
    description: z.string(),
    homepage: PageLineSchema.nullable(),
    url: z.string().nullable(),
  }),
  annotations: { title: "Read a Confluence space", ...READ_ONLY },
  async run({ spaceKey: given }, ctx) {
    const key = spaceKeyOf(given);
    const space = await ctx.clients.confluence.spaceDetails(key);
    if (!space) throw noSpace(key);
    const home = space.homepageId
      ? await ctx.clients.confluence.getPage(String(space.homepageId), "storage").catch((err: unknown) => {
          if (isUpstreamError(err) && err.kind === "not_found") return null;
          throw err;
        })
      : null;
    const structured = {
      id: String(space.id),
      key: space.key,
      name: space.name,
      description: space.description?.plain?.value ?? "",
      homepage: home ? { id: String(home.id), title: home.title, url: pageUrl(ctx, home) } : null,
      url: wikiUrl(ctx, space._links?.webui ?? `/spaces/${space.key}`),
    };
    const lines = [
      `${structured.key}: ${structured.name}`,
      structured.description,
      structured.homepage ? `Homepage: ${structured.homepage.title} (id ${structured.homepage.id})` : "No homepage.",
      structured.url,
    ].filter(Boolean);
    return { structured, text: lines.join("\n") };
  },
});

const DescendantSchema = z.object({
  id: z.string(),
  title: z.string(),
  parentId: z.string().nullable(),
  depth: z.number().int(),
  url: z.string().nullable(),
});

export const confluenceGetPageDescendants = defineTool({
  name: "confluence_get_page_descendants",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description: "The pages under a Confluence page to a depth (1-5), as an indented outline with ids.",
  input: z.object({
    pageId,
    depth: z.number().int("depth must be a whole number").min(1, "depth must be at least 1").max(5, "depth may be at most 5").default(3),
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(500, "maxResults may be at most 500").default(200),
  }),
  output: z.object({ pageId: z.string(), title: z.string(), descendants: z.array(DescendantSchema), truncated: z.boolean() }),
  annotations: { title: "Outline a Confluence page's subtree", ...READ_ONLY },
  async run({ pageId: id, depth, maxResults }, ctx) {
    const root = await readPage(ctx, id);
    // Confluence's descendants do not name their space: they are in the root's, as a page tree is in one space.
    const { items, truncated } = await firstOf(ctx.clients.confluence.descendants(id, depth), maxResults);
    const found = items.map((d) => ({
      id: String(d.id),
      title: d.title,
      parentId: d.parentId ? String(d.parentId) : null,
      depth: d.depth ?? 1,
      url: pageUrl(ctx, d),
    }));
    // The outline: each page under its parent, in the order Confluence gave them.
    const under = new Map<string, typeof found>();
    for (const d of found) {
      const key = d.parentId ?? id;
      under.set(key, [...(under.get(key) ?? []), d]);
    }
    const descendants: typeof found = [];
    const placed = new Set<string>();
    const walk = (parent: string) => {
      for (const d of under.get(parent) ?? []) {
        if (placed.has(d.id)) continue;
        placed.add(d.id);
        descendants.push(d);
        walk(d.id);
      }
    };
    walk(id);
    // Pages whose parent fell outside the answer (cut by maxResults) follow at their own depth.
    for (const d of found) if (!placed.has(d.id)) descendants.push(d);
    const lines = descendants.map((d) => `${"  ".repeat(Math.max(0, d.depth - 1))}- ${d.title} (id ${d.id})`);
    const head = descendants.length
      ? `${descendants.length} page${descendants.length === 1 ? "" : "s"} under "${root.title}" (depth ${depth})${truncated ? " (more: raise maxResults or lower depth)" : ""}:`
      : `"${root.title}" has no child pages.`;
    return { structured: { pageId: id, title: root.title, descendants, truncated }, text: [head, ...lines].join("\n") };
  },
});

/**
 * Data Center moves a page by giving it new `ancestors` (it has no move resource): a new parent in
 * the same space. A target at the top of its space (before/after it) or in another space is a move
 * DC's REST API cannot make, said before anything is sent.
 */
function assertDataCenterMove(page: ConfluencePage, target: ConfluencePage, position: "append" | "before" | "after"): void {
  if (position !== "append" && !target.parentId)
    throw new ToolError(
      `Page ${target.id} is at the top of its space, and Confluence Data Center's REST API cannot move a page to the top level: move it under a page instead (position append).`,
    );
  if (page.spaceId && target.spaceId && String(page.spaceId) !== String(target.spaceId))
    throw new ToolError(
      `Page ${target.id} is in another space, and Confluence Data Center's REST API moves a page within its own space only: choose a target in the page's space.`,
    );
}

export const confluenceMovePage = defineTool({
  name: "confluence_move_page",
  service: "confluence",
  toolset: "confluence-tree",
  reaches: [
    { kind: "confluence-page", arg: "pageId" },
    { kind: "confluence-page", arg: "targetId" },
  ],
  scope: "write",
  description: "Move a Confluence page: under a new parent (append), or before/after a sibling page. Its subtree moves with it.",
  input: z.object({
    pageId,
    targetId: pageId.describe("The new parent (append), or the page to sit before or after."),
    position: z.enum(["append", "before", "after"], { error: "position must be append, before or after" }).default("append"),
  }),
  output: z.object({
    pageId: z.string(),
    title: z.string(),
    parentId: z.string().nullable(),
    position: z.string(),
    targetId: z.string(),
    url: z.string().nullable(),
  }),
  annotations: { title: "Move a Confluence page", ...WRITES, idempotentHint: true },
  async run({ pageId: id, targetId, position }, ctx) {
    if (id === targetId) throw new ToolError("pageId and targetId are the same page: a page cannot move relative to itself.");
    const page = await readPage(ctx, id);
    const target = await readPage(ctx, targetId);
    const dataCenter = ctx.deployments.confluence === "datacenter";
    if (dataCenter) assertDataCenterMove(page, target, position);
    await ctx.clients.confluence.movePage(id, position, targetId);
    const moved = await ctx.clients.confluence.getPage(id, "storage");
    const structured = {
      pageId: id,
      title: page.title,
      parentId: moved.parentId ? String(moved.parentId) : null,
      position,
      targetId,
      url: pageUrl(ctx, moved),
    };
    const where =
      position === "append"
        ? `under "${target.title}"`
        : dataCenter
          ? `beside "${target.title}" (under page ${structured.parentId}; Confluence Data Center orders the siblings itself: its REST API cannot place a page ${position} another)`
          : `${position} "${target.title}"`;
    return { structured, text: `Moved "${page.title}" (id ${id}) ${where}.${structured.url ? `\n${structured.url}` : ""}` };
  },
});

export const CONFLUENCE_TREE_TOOLS = [
  confluenceListSpaces,
  confluenceGetPageChildren,
  confluenceGetPageAncestors,
  confluenceLabelPage,
  confluenceListLabels,
  confluenceGetPageByTitle,
  confluenceGetSpace,
  confluenceGetPageDescendants,
  confluenceMovePage,
];
