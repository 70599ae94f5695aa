import type { SandboxRequest } from "../core/http";
import { CONTEXT, dcBase, dcWebui, presentDcUser } from "./dc-common";
import { subExpand, tinyui } from "./links";
import { childPages, commentsOf } from "./presenters";
import { viewHtml } from "./render";
import type { Attachment, ConfluenceState, Content, Label, Space, VersionInfo } from "./types";
import { ancestorsOf, currentVersion } from "./types";

/**
 * Confluence Data Center's v1 JSON shapes: content with `expand` honoured and the rest listed in
 * `_expandable`, `version.by` as a DC user (username, userKey), `space.id` numeric, web links
 * relative to the context path, and `_links.base`/`context` on a top-level entity.
 */

type Json = Record<string, unknown>;

/** The `_links` of an entity answered on its own (not inside a listing): DC adds the collection, base and context. */
const topLinks = (req: SandboxRequest, collection: string): Json => ({ collection, base: dcBase(req), context: CONTEXT });

export function presentDcSpace(req: SandboxRequest, state: ConfluenceState, s: Space, expand: Set<string>, top = false): Json {
  const out: Json = { id: s.id, key: s.key, name: s.name };
  const expandable: Record<string, string> = {
    metadata: "",
    icon: "",
    description: "",
    retentionPolicy: "",
    homepage: `/rest/api/content/${s.homepageId}`,
  };
  if (expand.has("icon")) {
    out.icon = { path: `${CONTEXT}/images/logo/default-space-logo-256.png`, width: 48, height: 48, isDefault: false };
    delete expandable.icon;
  }
  if (expand.has("description")) {
    const d: Json = {};
    if (expand.has("description.plain") || !expand.has("description.view"))
      d.plain = { value: s.description, representation: "plain", embeddedContent: [] };
    if (expand.has("description.view")) d.view = { value: `<p>${s.description}</p>`, representation: "view", embeddedContent: [] };
    out.description = d;
    delete expandable.description;
  }
  if (expand.has("homepage")) {
    const home = state.content.get(s.homepageId);
    if (home) out.homepage = presentDcContent(req, state, home, subExpand(expand, "homepage"));
    delete expandable.homepage;
  }
  out.type = "global";
  out._links = {
    webui: `/display/${s.key}`,
    self: `${dcBase(req)}/rest/api/space/${s.key}`,
    ...(top ? topLinks(req, "/rest/api/space") : {}),
  };
  out._expandable = expandable;
  return out;
}

/** A version as DC gives it: its `self` link is on the experimental API, where DC lists versions. */
export function presentDcVersion(req: SandboxRequest, state: ConfluenceState, c: Content, v: VersionInfo): Json {
  return {
    by: presentDcUser(req, state, v.by),
    when: v.when,
    message: v.message,
    number: v.number,
    minorEdit: v.minorEdit,
    hidden: false,
    _links: { self: `${dcBase(req)}/rest/experimental/content/${c.id}/version/${v.number}` },
    _expandable: { content: `/rest/api/content/${c.id}` },
  };
}

export const presentDcLabel = (l: Label): Json => ({ prefix: l.prefix, name: l.name, id: l.id });

function presentBody(c: Content, body: string, expand: Set<string>): Json {
  const out: Json = {};
  const expandable: Record<string, string> = {};
  const reps: Record<string, () => string> = {
    editor: () => body,
    view: () => viewHtml(body),
    export_view: () => viewHtml(body),
    styled_view: () => viewHtml(body),
    storage: () => body,
    anonymous_export_view: () => viewHtml(body),
  };
  for (const [name, render] of Object.entries(reps)) {
    if (expand.has(name)) out[name] = { value: render(), representation: name, _expandable: { content: `/rest/api/content/${c.id}` } };
    else expandable[name] = "";
  }
  out._expandable = expandable;
  return out;
}

/** The content as of a version (title, body, version): the current one, or an older one DC reads with `status=historical&version=N`. */
export interface AtVersion {
  title: string;
  body: string;
  version: VersionInfo;
}

export function presentDcContent(
  req: SandboxRequest,
  state: ConfluenceState,
  c: Content,
  expand: Set<string>,
  options: { top?: boolean; at?: AtVersion } = {},
): Json {
  const version = options.at?.version ?? currentVersion(c);
  const historical = version.number !== currentVersion(c).number;
  const out: Json = { id: c.id, type: c.type, status: historical ? "historical" : c.status, title: options.at?.title ?? c.title };
  const expandable: Record<string, string> = {
    childTypes: "",
    container: c.type === "comment" && c.containerId ? `/rest/api/content/${c.containerId}` : `/rest/api/space/${c.spaceKey}`,
    metadata: "",
    operations: "",
    children: `/rest/api/content/${c.id}/child`,
    restrictions: `/rest/api/content/${c.id}/restriction/byOperation`,
    history: `/rest/api/content/${c.id}/history`,
    ancestors: "",
    body: "",
    version: "",
    descendants: `/rest/api/content/${c.id}/descendant`,
    space: `/rest/api/space/${c.spaceKey}`,
  };
  const done = (key: string) => delete expandable[key];
  const space = state.spaceByKey.get(c.spaceKey);
  if (expand.has("space") && space) {
    out.space = presentDcSpace(req, state, space, subExpand(expand, "space"));
    done("space");
  }
  if (expand.has("history")) {
    out.history = {
      latest: !historical,
      createdBy: presentDcUser(req, state, c.authorId),
      createdDate: c.createdAt,
      _links: { self: `${dcBase(req)}/rest/api/content/${c.id}/history` },
      _expandable: { lastUpdated: "", previousVersion: "", contributors: "", nextVersion: "" },
    };
    done("history");
  }
  if (expand.has("version")) {
    out.version = presentDcVersion(req, state, c, version);
    done("version");
  }
  if (expand.has("ancestors")) {
    out.ancestors = ancestorsOf(state, c).map((a) => presentDcContent(req, state, a, new Set()));
    done("ancestors");
  }
  if (expand.has("container")) {
    const parent = c.containerId ? state.content.get(c.containerId) : undefined;
    out.container = parent ? presentDcContent(req, state, parent, new Set()) : space ? presentDcSpace(req, state, space, new Set()) : {};
    done("container");
  }
  if (expand.has("children")) {
    const children: Json = {};
    for (const kind of ["page", "comment"] as const) {
      if (!expand.has(`children.${kind}`)) continue;
      const items = kind === "page" ? childPages(state, c) : commentsOf(state, c, false);
      const results = items.slice(0, 25).map((x) => presentDcContent(req, state, x, subExpand(expand, `children.${kind}`)));
      children[kind] = { results, start: 0, limit: 25, size: results.length, _links: {} };
    }
    children._links = {};
    children._expandable = { attachment: `/rest/api/content/${c.id}/child/attachment`, comment: "", page: "" };
    out.children = children;
    done("children");
  }
  if (expand.has("body")) {
    out.body = presentBody(c, options.at?.body ?? c.body, subExpand(expand, "body"));
    done("body");
  }
  if (expand.has("metadata")) {
    out.metadata = expand.has("metadata.labels")
      ? { labels: { results: c.labels.map(presentDcLabel), start: 0, limit: 200, size: c.labels.length, _links: {} }, _expandable: {} }
      : { _expandable: { currentuser: "", properties: "", frontend: "", editorHtml: "", labels: "" } };
    done("metadata");
  }
  if (c.type === "page") out.extensions = { position: c.position };
  if (c.type === "comment") out.extensions = commentExtensions(req, state, c, expand);
  out._links = {
    webui: dcWebui(state, c),
    edit: `/pages/resumedraft.action?draftId=${c.id}`,
    tinyui: tinyui(c.id),
    self: `${dcBase(req)}/rest/api/content/${c.id}`,
    ...(options.top ? topLinks(req, "/rest/api/content") : {}),
  };
  out._expandable = expandable;
  return out;
}

/** A comment's location, and (expanded) an inline one's anchor and resolution, as DC's `extensions` give them. */
function commentExtensions(req: SandboxRequest, state: ConfluenceState, c: Content, expand: Set<string>): Json {
  if (!c.inline) return { location: "footer", _expandable: { resolution: "" } };
  const out: Json = { location: "inline" };
  const expandable: Record<string, string> = {};
  if (expand.has("extensions.inlineProperties"))
    out.inlineProperties = { markerRef: c.inline.markerRef, originalSelection: c.inline.selection };
  else expandable.inlineProperties = "";
  if (expand.has("extensions.resolution"))
    out.resolution = {
      status: c.inline.resolution,
      lastModifier: presentDcUser(req, state, currentVersion(c).by),
      lastModifiedDate: currentVersion(c).when,
    };
  else expandable.resolution = "";
  out._expandable = expandable;
  return out;
}

/** Attachment versions the DC flavour keeps apart from the Cloud model (which has one version per file). */
const attachmentVersions = new WeakMap<Attachment, VersionInfo[]>();

export function attachmentHistory(a: Attachment): VersionInfo[] {
  let versions = attachmentVersions.get(a);
  if (!versions) {
    versions = [{ number: 1, when: a.createdAt, by: a.authorId, message: a.comment, minorEdit: false }];
    attachmentVersions.set(a, versions);
  }
  return versions;
}

export const dcDownloadLink = (a: Attachment) => {
  const v = attachmentHistory(a).at(-1)!;
  return `/download/attachments/${a.pageId}/${encodeURIComponent(a.title)}?version=${v.number}&modificationDate=${Date.parse(v.when)}&api=v2`;
};

export function presentDcAttachment(req: SandboxRequest, state: ConfluenceState, a: Attachment, expand: Set<string>): Json {
  const versions = attachmentHistory(a);
  const latest = versions.at(-1)!;
  const page = state.content.get(a.pageId);
  const out: Json = { id: a.id, type: "attachment", status: "current", title: a.title };
  if (expand.has("version"))
    out.version = {
      by: presentDcUser(req, state, latest.by),
      when: latest.when,
      message: latest.message,
      number: latest.number,
      minorEdit: latest.minorEdit,
      hidden: false,
      _links: { self: `${dcBase(req)}/rest/experimental/content/${a.id}/version/${latest.number}` },
      _expandable: { content: `/rest/api/content/${a.id}` },
    };
  if (expand.has("container") && page) out.container = presentDcContent(req, state, page, new Set());
  out.metadata = { comment: a.comment, mediaType: a.mediaType, _expandable: { currentuser: "", properties: "", frontend: "", labels: "" } };
  out.extensions = { mediaType: a.mediaType, fileSize: a.data.length, comment: a.comment };
  out._links = {
    webui: `/pages/viewpageattachments.action?pageId=${a.pageId}&preview=${encodeURIComponent(`/${a.pageId}/${a.id.slice(3)}/${a.title}`)}`,
    download: dcDownloadLink(a),
    self: `${dcBase(req)}/rest/api/content/${a.id}`,
  };
  out._expandable = {
    childTypes: "",
    operations: "",
    children: `/rest/api/content/${a.id}/child`,
    restrictions: `/rest/api/content/${a.id}/restriction/byOperation`,
    history: `/rest/api/content/${a.id}/history`,
    ancestors: "",
    body: "",
    descendants: `/rest/api/content/${a.id}/descendant`,
    space: `/rest/api/space/${page?.spaceKey ?? ""}`,
    ...(expand.has("version") ? {} : { version: "" }),
    ...(expand.has("container") ? {} : { container: `/rest/api/content/${a.pageId}` }),
  };
  return out;
}
