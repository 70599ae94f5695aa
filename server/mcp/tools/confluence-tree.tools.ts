import { z } from "zod";
import { collect, firstOf } from "../../upstream/paginate";
import { pageInReach, pageUrl, wikiUrl } from "./confluence.tools";
import { isUpstreamError } from "../../upstream/errors";
import { defineTool, READ_ONLY, WRITES } from "./tool";

/** Finding one's way around Confluence: the spaces, where a page sits (its parents and children), its labels. */

const pageId = z.string().trim().regex(/^\d{1,20}$/, "pageId must be a page id (digits), as confluence_search gives it");
const PageLineSchema = z.object({ id: z.string(), title: z.string(), url: z.string().nullable() });

export const confluenceListSpaces = defineTool({
  name: "confluence_list_spaces",
  service: "confluence",
  toolset: "confluence-tree",
  scope: "read",
  description: "The Confluence spaces Bridgekeeper's account can see: key, name and link. Use a key in CQL (space = KEY) or with confluence_create_page.",
  input: z.object({ maxResults: z.number().int().min(1).max(250, "maxResults may be at most 250").default(100) }),
  output: z.object({ spaces: z.array(z.object({ key: z.string(), name: z.string(), id: z.string(), url: z.string().nullable() })), truncated: z.boolean() }),
  annotations: { title: "List Confluence spaces", ...READ_ONLY },
  async run({ maxResults }, ctx) {
    const allowed = ctx.policy.confluenceSpaces;
    const { items, truncated } = await firstOf(ctx.clients.confluence.spaces(), maxResults, (s) => allowed === null || allowed.includes(s.key));
    const spaces = items.map((s) => ({ key: s.key, name: s.name, id: String(s.id), url: wikiUrl(ctx, `/spaces/${s.key}`) }));
    const text = spaces.length ? [`${spaces.length} space${spaces.length === 1 ? "" : "s"}${truncated ? " (more: raise maxResults)" : ""}:`, ...spaces.map((s) => `- ${s.key}: ${s.name}`)].join("\n") : "No spaces.";
    return { structured: { spaces, truncated }, text };
  },
});

export const confluenceGetPageChildren = defineTool({
  name: "confluence_get_page_children",
  service: "confluence",
  toolset: "confluence-tree",
  scope: "read",
  description: "The pages directly under a Confluence page, in the space's order: id, title and link. Read one with confluence_get_page.",
  input: z.object({ pageId, maxResults: z.number().int().min(1).max(250, "maxResults may be at most 250").default(50) }),
  output: z.object({ pageId: z.string(), title: z.string(), children: z.array(PageLineSchema), truncated: z.boolean() }),
  annotations: { title: "List a Confluence page's children", ...READ_ONLY },
  async run({ pageId: id, maxResults }, ctx) {
    const parent = await pageInReach(ctx, id);
    const { items, truncated } = await firstOf(ctx.clients.confluence.children(id), maxResults);
    const children = items.map((p) => ({ id: String(p.id), title: p.title, url: pageUrl(ctx, p) }));
    const text = children.length ? [`${children.length} page${children.length === 1 ? "" : "s"} under "${parent.title}"${truncated ? " (more: raise maxResults)" : ""}:`, ...children.map((c) => `- ${c.title} (id ${c.id})`)].join("\n") : `"${parent.title}" has no child pages.`;
    return { structured: { pageId: id, title: parent.title, children, truncated }, text };
  },
});

export const confluenceGetPageAncestors = defineTool({
  name: "confluence_get_page_ancestors",
  service: "confluence",
  toolset: "confluence-tree",
  scope: "read",
  description: "Where a Confluence page sits: its parents from the space's top page down (id, title, link), as a breadcrumb.",
  input: z.object({ pageId }),
  output: z.object({ pageId: z.string(), title: z.string(), ancestors: z.array(PageLineSchema) }),
  annotations: { title: "Show a Confluence page's parents", ...READ_ONLY },
  async run({ pageId: id }, ctx) {
    const page = await pageInReach(ctx, id);
    const ids = (await collect(ctx.clients.confluence.ancestors(id))).map((a) => String(a.id));
    // Confluence names ancestors by id only: their titles are read alongside (a handful, in parallel).
    const pages = await Promise.all(ids.map((a) => ctx.clients.confluence.getPage(a, "storage")));
    const ancestors = pages.map((p) => ({ id: String(p.id), title: p.title, url: pageUrl(ctx, p) }));
    const crumbs = [...ancestors.map((a) => a.title), page.title].join(" › ");
    return { structured: { pageId: id, title: page.title, ancestors }, text: ancestors.length ? crumbs : `"${page.title}" is at the top of its space.` };
  },
});

/** Confluence's rule for a label: one word, lower case, none of :;,.?&[]()#^*@! */
const LABEL = z.string().trim().toLowerCase().regex(/^[^\s:;,.?&[\]()#^*@!]{1,255}$/, "a label is one word without spaces or any of :;,.?&[]()#^*@!");

export const confluenceLabelPage = defineTool({
  name: "confluence_label_page",
  service: "confluence",
  toolset: "confluence-tree",
  scope: "write",
  description: "Add labels to a Confluence page, remove some, or both; answers with the page's labels after the change. Find pages by label with confluence_search (label = \"x\").",
  input: z
    .object({ pageId, add: z.array(LABEL).max(20, "at most 20 labels at once").default([]), remove: z.array(LABEL).max(20, "at most 20 labels at once").default([]) })
    .refine((a) => a.add.length + a.remove.length > 0, "nothing to change: give labels to add or remove"),
  output: z.object({ pageId: z.string(), labels: z.array(z.string()) }),
  annotations: { title: "Label a Confluence page", ...WRITES, idempotentHint: true },
  async run({ pageId: id, add, remove }, ctx) {
    const page = await pageInReach(ctx, id);
    if (add.length > 0) await ctx.clients.confluence.addLabels(id, add);
    for (const label of remove) {
      await ctx.clients.confluence.removeLabel(id, label).catch((err: unknown) => {
        // Removing a label the page does not have leaves it as asked.
        if (!(isUpstreamError(err) && err.kind === "not_found")) throw err;
      });
    }
    const labels = (await ctx.clients.confluence.labels(id)).results.map((l) => l.name);
    return { structured: { pageId: id, labels }, text: `"${page.title}" is labelled ${labels.length ? labels.join(", ") : "with nothing"}.` };
  },
});

export const CONFLUENCE_TREE_TOOLS = [confluenceListSpaces, confluenceGetPageChildren, confluenceGetPageAncestors, confluenceLabelPage];
