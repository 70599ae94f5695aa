import { SERVICE_CALLER, type Caller } from "../identity/caller";
import { adfToWiki, wikiToAdf } from "./adf";
import {
  categoryById,
  categoryOf,
  ISSUE_TYPES,
  issueTypeById,
  linkTypeById,
  priorityById,
  resolutionById,
  statusById,
  type IssueTypeDef,
  type StatusDef,
} from "./catalog";
import { presentDataCenterUser } from "./dc-users";
import type { Adf, Comment, Project, RichText, Sprint, User, Worklog } from "./model";
import { formatDuration, jiraTime } from "./util";
import type { JiraState } from "./model";

/** How a response is rendered: which API version (ADF bodies in v3, wiki strings in v2), the origin, and for whom. */
export interface View {
  state: JiraState;
  origin: string;
  version: 2 | 3;
  /** `${origin}/rest/api/${version}` */
  base: string;
  /** Who asks: what they may browse, and who their writes are by (access.ts). */
  caller: Caller;
  /** The Data Center flavour (its state says so): users by username and key, written rich text kept as wiki markup. */
  dataCenter: boolean;
}

export const makeView = (state: JiraState, origin: string, version: 2 | 3, caller: Caller = SERVICE_CALLER): View => ({
  state,
  origin,
  version,
  base: `${origin}/rest/api/${version}`,
  caller,
  dataCenter: state.dataCenter !== undefined,
});

/** A rich-text body in the view's format: ADF (v3) or wiki markup (v2), whichever way it is stored. */
export const body = (v: View, d: RichText | null): Adf | string | null =>
  v.version === 3 ? (typeof d === "string" ? wikiToAdf(d) : d) : adfToWiki(d);

const avatarUrls = (origin: string, kind: string, id: string) => ({
  "48x48": `${origin}/secure/${kind}avatar?size=large&${kind === "user" ? "ownerId" : "pid"}=${id}`,
  "24x24": `${origin}/secure/${kind}avatar?size=small&${kind === "user" ? "ownerId" : "pid"}=${id}`,
  "16x16": `${origin}/secure/${kind}avatar?size=xsmall&${kind === "user" ? "ownerId" : "pid"}=${id}`,
  "32x32": `${origin}/secure/${kind}avatar?size=medium&${kind === "user" ? "ownerId" : "pid"}=${id}`,
});

export function presentUser(v: View, u: User | undefined | null) {
  if (!u) return null;
  if (v.dataCenter) return presentDataCenterUser(v, u);
  return {
    self: `${v.base}/user?accountId=${encodeURIComponent(u.accountId)}`,
    accountId: u.accountId,
    emailAddress: u.emailAddress,
    avatarUrls: avatarUrls(v.origin, "user", u.accountId),
    displayName: u.displayName,
    active: u.active,
    timeZone: u.timeZone,
    accountType: "atlassian",
  };
}

export const userById = (v: View, id: string | null) => (id ? presentUser(v, v.state.usersById.get(id)) : null);

export function presentProjectRef(v: View, p: Project) {
  return {
    self: `${v.base}/project/${p.id}`,
    id: p.id,
    key: p.key,
    name: p.name,
    projectTypeKey: "software",
    simplified: false,
    avatarUrls: avatarUrls(v.origin, "project", p.id),
  };
}

export function presentProject(v: View, p: Project, full = false) {
  const ref = {
    expand: "description,lead,issueTypes,url,projectKeys,permissions,insight",
    ...presentProjectRef(v, p),
    style: "classic",
    isPrivate: false,
    properties: {},
  };
  if (!full) return ref;
  return {
    ...ref,
    description: p.description,
    lead: userById(v, p.leadAccountId),
    components: p.components.map((c) => presentComponent(v, c)),
    issueTypes: ISSUE_TYPES.map((t) => presentIssueType(v, t)),
    assigneeType: "UNASSIGNED",
    versions: p.versions.map((ver) => presentVersion(v, ver, p.id)),
    roles: {},
    projectKeys: [p.key],
  };
}

export const presentComponent = (v: View, c: Project["components"][number]) => ({
  self: `${v.base}/component/${c.id}`,
  id: c.id,
  name: c.name,
  description: c.description,
});

export const presentVersion = (v: View, ver: Project["versions"][number], projectId: string) => ({
  self: `${v.base}/version/${ver.id}`,
  id: ver.id,
  description: ver.description,
  name: ver.name,
  archived: false,
  released: ver.released,
  ...(ver.releaseDate ? { releaseDate: ver.releaseDate } : {}),
  projectId: Number(projectId),
});

export const presentIssueType = (v: View, t: IssueTypeDef) => ({
  self: `${v.base}/issuetype/${t.id}`,
  id: t.id,
  description: t.description,
  iconUrl: `${v.origin}/rest/api/2/universal_avatar/view/type/issuetype/avatar/${t.avatarId}?size=medium`,
  name: t.name,
  untranslatedName: t.name,
  subtask: t.subtask,
  avatarId: t.avatarId,
  hierarchyLevel: t.hierarchyLevel,
});

export const presentIssueTypeById = (v: View, id: string) => presentIssueType(v, issueTypeById.get(id)!);

export function presentStatusCategory(v: View, id: number) {
  const c = categoryById.get(id)!;
  return { self: `${v.base}/statuscategory/${c.id}`, id: c.id, key: c.key, colorName: c.colorName, name: c.name };
}

export function presentStatus(v: View, s: StatusDef) {
  return {
    self: `${v.base}/status/${s.id}`,
    description: s.description,
    iconUrl: `${v.origin}/`,
    name: s.name,
    untranslatedName: s.name,
    id: s.id,
    statusCategory: presentStatusCategory(v, s.categoryId),
  };
}
export const presentStatusById = (v: View, id: string) => presentStatus(v, statusById.get(id)!);

export function presentPriority(v: View, id: string, full = false) {
  const p = priorityById.get(id)!;
  const ref = { self: `${v.base}/priority/${p.id}`, iconUrl: `${v.origin}/images/icons/priorities/${p.icon}.svg`, name: p.name, id: p.id };
  return full ? { ...ref, statusColor: p.color, description: p.description, isDefault: p.id === "3" } : ref;
}

export function presentResolution(v: View, id: string | null) {
  const r = id ? resolutionById.get(id) : undefined;
  return r ? { self: `${v.base}/resolution/${r.id}`, id: r.id, description: r.description, name: r.name } : null;
}

export function presentLinkType(v: View, id: string) {
  const t = linkTypeById.get(id)!;
  return { id: t.id, name: t.name, inward: t.inward, outward: t.outward, self: `${v.base}/issueLinkType/${t.id}` };
}

export function presentComment(v: View, issueId: string, c: Comment) {
  return {
    self: `${v.base}/issue/${issueId}/comment/${c.id}`,
    id: c.id,
    author: userById(v, c.authorId),
    body: body(v, c.body),
    updateAuthor: userById(v, c.updateAuthorId),
    created: jiraTime(c.created),
    updated: jiraTime(c.updated),
    jsdPublic: true,
  };
}

export function presentWorklog(v: View, issueId: string, w: Worklog) {
  return {
    self: `${v.base}/issue/${issueId}/worklog/${w.id}`,
    author: userById(v, w.authorId),
    updateAuthor: userById(v, w.authorId),
    ...(w.comment ? { comment: body(v, w.comment) } : {}),
    created: jiraTime(w.created),
    updated: jiraTime(w.updated),
    started: jiraTime(w.started),
    timeSpent: formatDuration(w.timeSpentSeconds),
    timeSpentSeconds: w.timeSpentSeconds,
    id: w.id,
    issueId,
  };
}

/** The sprint as the Sprint custom field shows it on an issue. */
export function sprintField(s: Sprint) {
  return {
    id: s.id,
    name: s.name,
    state: s.state,
    boardId: s.boardId,
    goal: s.goal,
    ...(s.startDate !== undefined ? { startDate: jiraIso(s.startDate) } : {}),
    ...(s.endDate !== undefined ? { endDate: jiraIso(s.endDate) } : {}),
    ...(s.completeDate !== undefined ? { completeDate: jiraIso(s.completeDate) } : {}),
  };
}

/** Agile dates are plain ISO-8601 with a Z. */
export const jiraIso = (ms: number) => new Date(ms).toISOString();

export { categoryOf };
