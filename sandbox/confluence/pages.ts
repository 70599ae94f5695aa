import { escapeHtml, facts, htmlReply, notFoundPage } from "../core/html";
import type { Router } from "../core/http";
import { friendlyDate, tinyuiId, webui } from "./links";
import { currentVersion, type ConfluenceState } from "./types";

/**
 * Confluence's web pages as plain public HTML: a page or blog post at its `_links.webui` address
 * (under /wiki), its `tinyui` short link and /wiki/pages/viewpage.action?pageId=ID, and a space's
 * home (`/wiki/spaces/KEY`). Only current pages and blog posts are shown; drafts, trashed content
 * and comments are not found (a comment's webui is its page's address).
 */
export function confluencePages(router: Router, state: () => ConfluenceState): void {
  const page = (id: string | undefined) => contentPage(state(), id ?? "");
  router.get("/wiki/spaces/:space/pages/:id", (req) => page(req.params.id));
  router.get("/wiki/spaces/:space/pages/:id/*slug", (req) => page(req.params.id));
  router.get("/wiki/spaces/:space/blog/:year/:month/:day/:id/*slug", (req) => page(req.params.id));
  router.get("/wiki/pages/viewpage.action", (req) => page(req.query.get("pageId") ?? ""));
  router.get("/wiki/x/:code", (req) => page(tinyuiId(req.params.code ?? "") ?? ""));
  router.get("/wiki/spaces/:space", (req) => {
    const s = state();
    const space = s.spaceByKey.get(req.params.space ?? "");
    if (!space) return notFoundPage(`Space ${req.params.space ?? ""} does not exist.`);
    const home = s.content.get(space.homepageId);
    const link = home?.status === "current" ? `<p><a href="${escapeHtml(`/wiki${webui(s, home)}`)}">${escapeHtml(home.title)}</a></p>` : "";
    return htmlReply(
      space.name,
      facts([
        ["Key", space.key],
        ["Description", space.description],
      ]) + link,
    );
  });
}

function contentPage(s: ConfluenceState, id: string) {
  const c = s.content.get(id);
  if (!c || c.status !== "current" || (c.type !== "page" && c.type !== "blogpost")) return notFoundPage(`Page ${id} does not exist.`);
  const space = s.spaceByKey.get(c.spaceKey);
  const version = currentVersion(c);
  const editor = s.userById.get(version.by)?.displayName;
  return htmlReply(
    c.title,
    facts([
      ["Space", space ? `${space.name} (${space.key})` : c.spaceKey],
      ["Type", c.type === "blogpost" ? "Blog post" : "Page"],
      ["Last updated", `${friendlyDate(version.when)}${editor ? ` by ${editor}` : ""}`],
    ]) + `<div class="body">${safeStorageHtml(c.body)}</div>`,
  );
}

const ALLOWED_TAGS = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "strong",
  "em",
  "b",
  "i",
  "u",
  "s",
  "sub",
  "sup",
  "code",
  "pre",
  "br",
  "hr",
  "blockquote",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
]);

/**
 * Storage-format XHTML reduced to a fixed set of plain tags without any attribute: scripts and
 * styles are dropped with their content, code macros become <pre> blocks, every other tag (links,
 * macros, mentions) is removed leaving its text, and a stray `<` or `>` is escaped.
 */
export function safeStorageHtml(storage: string): string {
  return storage
    .replace(/<ac:parameter\b[\s\S]*?<\/ac:parameter>/g, "")
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, code: string) => `<pre>${escapeHtml(code)}</pre>`)
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<(\/?)([a-zA-Z][\w:-]*)[^>]*>|[<>]/g, (match: string, slash: string | undefined, name: string | undefined) => {
      if (name === undefined) return match === "<" ? "&lt;" : "&gt;";
      const tag = name.toLowerCase();
      return ALLOWED_TAGS.has(tag) ? `<${slash ?? ""}${tag}>` : "";
    });
}
