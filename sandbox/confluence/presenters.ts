import { actorId } from "./access";
import type { SandboxRequest } from "../core/http";
import { editui, friendlyDate, subExpand, tinyui, webui, wikiBase } from "./links";
import { toAdf, viewHtml } from "./render";
import type { ConfluenceState, Content, Label, Space, User, VersionInfo } from "./types";
import { ancestorsOf, currentVersion } from "./types";

/** v1 (`/wiki/rest/api`) JSON shapes, with `expand` honoured and the rest listed in `_expandable`. */

type Json = Record<string, unknown>;

export function presentUser(req: SandboxRequest, state: ConfluenceState, accountId: string): Json {
  const u: User = state.userById.get(accountId) ?? { accountId, displayName: "Unknown user", email: "" };
  return {
    type: "known",
    accountId: u.accountId,
    accountType: "atlassian",
    email: u.accountId === actorId(req, state) ? u.email : "",
    publicName: u.displayName,
    profilePicture: { path: `/wiki/aa-avatar/${u.accountId}`, width: 48, height: 48, isDefault: false },
    displayName: u.displayName,
    isExternalCollaborator: false,
    _expandable: { operations: "", personalSpace: "" },
    _links: { self: `${wikiBase(req)}/rest/api/user?accountId=${encodeURIComponent(u.accountId)}` },
  };
}

export function presentSpace(req: SandboxRequest, state: ConfluenceState, s: Space, expand: Set<string>): Json {
  const out: Json = { id: s.id, key: s.key, name: s.name };
  const expandable: Record<string, string> = {
    settings: `/rest/api/space/${s.key}/settings`,
    metadata: "",
    operations: "",
    lookAndFeel: `/rest/api/settings/lookandfeel?spaceKey=${s.key}`,
    identifiers: "",
    permissions: "",
    roles: "",
    theme: `/rest/api/space/${s.key}/theme`,
    history: "",
    homepage: `/rest/api/content/${s.homepageId}`,
  };
  if (expand.has("icon")) out.icon = { path: "/images/logo/default-space-logo.svg", width: 48, height: 48, isDefault: false };
  else expandable.icon = "";
  if (expand.has("description")) {
    const d: Json = {};
    if (expand.has("description.plain") || !expand.has("description.view"))
      d.plain = { value: s.description, representation: "plain", embeddedValue: [] };
    if (expand.has("description.view")) d.view = { value: `<p>${s.description}</p>`, representation: "view", embeddedValue: [] };
    out.description = d;
  } else {
    expandable.description = "";
  }
  if (expand.has("homepage")) {
    const home = state.content.get(s.homepageId);
    if (home) out.homepage = presentContent(req, state, home, subExpand(expand, "homepage"));
    delete expandable.homepage;
  }
  if (expand.has("history")) {
    out.history = { createdDate: s.createdAt, createdBy: presentUser(req, state, s.authorId) };
    delete expandable.history;
  }
  out.type = "global";
  out.status = "current";
  out._expandable = expandable;
  out._links = { webui: `/spaces/${s.key}`, self: `${wikiBase(req)}/rest/api/space/${s.key}` };
  return out;
}

export function presentVersion(req: SandboxRequest, state: ConfluenceState, c: Content, v: VersionInfo): Json {
  return {
    by: presentUser(req, state, v.by),
    when: v.when,
    friendlyWhen: friendlyDate(v.when),
    message: v.message,
    number: v.number,
    minorEdit: v.minorEdit,
    contentTypeModified: false,
    _expandable: { collaborators: "", content: `/rest/api/content/${c.id}` },
    _links: { self: `${wikiBase(req)}/rest/api/content/${c.id}/version/${v.number}` },
  };
}

export function presentLabel(l: Label): Json {
  return { prefix: l.prefix, name: l.name, id: l.id, label: l.name };
}

export function labelList(req: SandboxRequest, c: Content, start: number, limit: number): Json {
  const results = c.labels.slice(start, start + limit).map(presentLabel);
  const out: Json = {
    results,
    start,
    limit,
    size: results.length,
    _links: { self: `${wikiBase(req)}/rest/api/content/${c.id}/label`, base: wikiBase(req), context: "/wiki" },
  };
  if (start + limit < c.labels.length) (out._links as Json).next = `/rest/api/content/${c.id}/label?limit=${limit}&start=${start + limit}`;
  return out;
}

/** The pages directly under `c` (comments: the replies), in position order. */
export function childPages(state: ConfluenceState, c: Content): Content[] {
  const ids = state.children.get(c.id) ?? [];
  const out: Content[] = [];
  for (const id of ids) {
    const child = state.content.get(id);
    if (child && child.status === "current") out.push(child);
  }
  return out;
}

/** Comments on `c` of that location (`any`: both): top-level ones only unless `all`. */
export function commentsOf(state: ConfluenceState, c: Content, all: boolean, location: "footer" | "inline" | "any" = "footer"): Content[] {
  const out: Content[] = [];
  for (const id of state.comments.get(c.id) ?? []) {
    const comment = state.content.get(id);
    const where = comment?.inline ? "inline" : "footer";
    if (comment && comment.status === "current" && (all || comment.parentId === null) && (location === "any" || location === where))
      out.push(comment);
  }
  return out;
}

function presentBody(c: Content, expand: Set<string>): Json {
  const body: Json = {};
  const expandable: Record<string, string> = {};
  const self = `/rest/api/content/${c.id}`;
  const reps: Record<string, () => string> = {
    storage: () => c.body,
    view: () => viewHtml(c.body),
    export_view: () => viewHtml(c.body),
    styled_view: () => viewHtml(c.body),
    editor: () => c.body,
    atlas_doc_format: () => JSON.stringify(toAdf(c.body)),
  };
  for (const [name, render] of Object.entries(reps)) {
    if (expand.has(name)) body[name] = { value: render(), representation: name, embeddedContent: [], _expandable: { content: self } };
    else expandable[name] = "";
  }
  body._expandable = expandable;
  return body;
}

const CONTENT_EXPANDABLE = [
  "childTypes",
  "container",
  "metadata",
  "operations",
  "schedulePublishDate",
  "children",
  "restrictions",
  "history",
  "ancestors",
  "body",
  "version",
  "descendants",
  "space",
] as const;

/** What was not expanded, with the path to fetch it where Confluence gives one. */
function contentExpandable(c: Content, done: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of CONTENT_EXPANDABLE) {
    if (done.has(key)) continue;
    switch (key) {
      case "container":
        out[key] = c.type === "comment" && c.containerId ? `/rest/api/content/${c.containerId}` : `/rest/api/space/${c.spaceKey}`;
        break;
      case "children":
      case "history":
      case "descendants":
        out[key] = `/rest/api/content/${c.id}/${key === "children" ? "child" : key === "descendants" ? "descendant" : "history"}`;
        break;
      case "restrictions":
        out[key] = `/rest/api/content/${c.id}/restriction/byOperation`;
        break;
      case "space":
        out[key] = `/rest/api/space/${c.spaceKey}`;
        break;
      default:
        out[key] = "";
    }
  }
  return out;
}

export function presentContent(req: SandboxRequest, state: ConfluenceState, c: Content, expand: Set<string>): Json {
  const base = wikiBase(req);
  const out: Json = { id: c.id, type: c.type, status: c.status, title: c.title };
  const done = new Set<string>();
  const expanded = (key: string) => {
    done.add(key);
    return true;
  };
  const space = state.spaceByKey.get(c.spaceKey);
  if (expand.has("space") && space && expanded("space")) out.space = presentSpace(req, state, space, subExpand(expand, "space"));
  if (expand.has("history") && expanded("history")) {
    const history: Json = { latest: true, createdBy: presentUser(req, state, c.authorId), createdDate: c.createdAt };
    if (expand.has("history.lastUpdated")) history.lastUpdated = presentVersion(req, state, c, currentVersion(c));
    if (expand.has("history.contributors"))
      history.contributors = {
        publishers: { users: [...new Set(c.versions.map((v) => v.by))].map((id) => presentUser(req, state, id)), userKeys: [] },
      };
    history._expandable = { lastUpdated: "", previousVersion: "", contributors: "", nextVersion: "" };
    history._links = { self: `${base}/rest/api/content/${c.id}/history` };
    out.history = history;
  }
  if (expand.has("version") && expanded("version")) out.version = presentVersion(req, state, c, currentVersion(c));
  if (expand.has("ancestors") && expanded("ancestors"))
    out.ancestors = ancestorsOf(state, c).map((a) => presentContent(req, state, a, new Set()));
  if (expand.has("container") && expanded("container")) {
    const parent = c.containerId ? state.content.get(c.containerId) : undefined;
    out.container = parent ? presentContent(req, state, parent, new Set()) : space ? presentSpace(req, state, space, new Set()) : {};
  }
  if (expand.has("children") && expanded("children")) {
    const children: Json = {};
    const childExpandable: Record<string, string> = {
      attachment: `/rest/api/content/${c.id}/child/attachment`,
      comment: `/rest/api/content/${c.id}/child/comment`,
      page: `/rest/api/content/${c.id}/child/page`,
    };
    for (const kind of ["page", "comment"] as const) {
      if (!expand.has(`children.${kind}`)) continue;
      const items = kind === "page" ? childPages(state, c) : commentsOf(state, c, false);
      const inner = subExpand(expand, `children.${kind}`);
      const results = items.slice(0, 25).map((x) => presentContent(req, state, x, inner));
      children[kind] = {
        results,
        start: 0,
        limit: 25,
        size: results.length,
        _links: { self: `${base}/rest/api/content/${c.id}/child/${kind}` },
      };
      delete childExpandable[kind];
    }
    children._expandable = childExpandable;
    children._links = { self: `${base}/rest/api/content/${c.id}/child` };
    out.children = children;
  }
  if (expand.has("body") && expanded("body")) out.body = presentBody(c, subExpand(expand, "body"));
  if (expand.has("metadata") && expanded("metadata")) {
    const metadata: Json = {};
    if (expand.has("metadata.labels"))
      metadata.labels = {
        results: c.labels.map(presentLabel),
        start: 0,
        limit: 200,
        size: c.labels.length,
        _links: { self: `${base}/rest/api/content/${c.id}/label` },
      };
    metadata._expandable = {
      currentuser: "",
      comments: "",
      simple: "",
      properties: "",
      frontend: "",
      likes: "",
      ...(expand.has("metadata.labels") ? {} : { labels: "" }),
    };
    out.metadata = metadata;
  }
  if (c.type === "page") out.extensions = { position: c.position };
  if (c.type === "comment") {
    out.extensions = c.inline
      ? {
          location: "inline",
          inlineProperties: { markerRef: c.inline.markerRef, originalSelection: c.inline.selection },
          resolution: { status: c.inline.resolution },
        }
      : { location: "footer", _expandable: { resolution: "" } };
  }
  out.macroRenderedOutput = {};
  out._expandable = contentExpandable(c, done);
  out._links = { self: `${base}/rest/api/content/${c.id}`, tinyui: tinyui(c.id), editui: editui(c.id), webui: webui(state, c) };
  return out;
}
