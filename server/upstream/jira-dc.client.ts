import { UpstreamError } from "./errors";
import { attachmentForm, bulkCreated } from "./jira-shared";
import type { TargetProvider, UpstreamCall, UpstreamHttp } from "./http";
import type { JiraClient } from "./jira.client";
import { dataCenterIssueBody, offsetOfToken, offsetToken, wikiBody, withAccountIds } from "./jira-dc-shapes";
import { createAgileCalls } from "./jira-dc-agile";
import { paginateStartAt, paginateToken } from "./paginate";
import type {
  JiraAttachment,
  JiraBulkCreated,
  JiraComment,
  JiraFieldMeta,
  JiraIssue,
  JiraRemoteLink,
  JiraSearchPage,
  JiraUser,
  JiraVersion,
  JiraWorklog,
  StartAtPage,
} from "./jira.client";

const enc = encodeURIComponent;
const V2 = "/rest/api/2";
const DEFAULT_SEARCH_FIELDS = ["summary", "status", "assignee", "priority", "issuetype", "updated"];

/**
 * Jira Data Center: REST v2 and Jira Software Agile 1.0 on the instance's base URL (its context
 * path included), answering in the Cloud shapes of jira.client.ts (jira-dc-shapes.ts says what
 * changes). Paths and shapes after the Jira Server/DC REST reference (docs.atlassian.com/software/
 * jira/docs/api/REST/), checked against pycontribs/jira's non-cloud branches and jira.js's server API.
 */
export function createJiraDataCenterClient(http: UpstreamHttp, target: TargetProvider): JiraClient {
  const call = async <T>(c: UpstreamCall): Promise<T> => withAccountIds((await http.request<T>("jira", await target(), c)).data);
  const agile = createAgileCalls(call);

  return {
    myself: (timeoutMs?: number) => call<JiraUser>({ path: `${V2}/myself`, timeoutMs }),

    /** Data Center lists every project the account may browse in one answer (it has no paged project search). */
    async projectCount(timeoutMs?: number): Promise<number | null> {
      return (await call<unknown[]>({ path: `${V2}/project`, timeoutMs })).length;
    },

    /** Users whose username, name or email starts with `query` (Data Center takes `username=`, not the cloud's `query=`). */
    searchUsers: (query: string, options: { maxResults?: number; assignableTo?: { issueKey?: string; project?: string } } = {}) =>
      call<(JiraUser & { emailAddress?: string; active?: boolean })[]>({
        path: options.assignableTo ? `${V2}/user/assignable/search` : `${V2}/user/search`,
        query: {
          username: query,
          maxResults: options.maxResults ?? 20,
          issueKey: options.assignableTo?.issueKey,
          project: options.assignableTo?.project,
        },
      }),
    serverInfo: () => call<{ baseUrl: string; version: string; deploymentType: string }>({ path: `${V2}/serverInfo` }),

    /**
     * One page of `/rest/api/2/search` (offset pages with a total), in the Cloud signature: the
     * returned `nextPageToken` carries the next offset. It is the offset after the issues received,
     * not after those asked for: an instance may cap a page below `maxResults` (its
     * `jira.search.views.default.max`), and says so in the page's own `maxResults`.
     */
    async searchJql(params: { jql: string; fields?: string[]; maxResults?: number; nextPageToken?: string }): Promise<JiraSearchPage> {
      const startAt = offsetOfToken(params.nextPageToken);
      const page = await call<StartAtPage & { issues?: JiraIssue[] }>({
        method: "POST",
        path: `${V2}/search`,
        body: { jql: params.jql, startAt, maxResults: params.maxResults ?? 50, fields: params.fields ?? DEFAULT_SEARCH_FIELDS },
      });
      const issues = page.issues ?? [];
      const next = startAt + issues.length;
      const isLast = issues.length === 0 || typeof page.total !== "number" || next >= page.total;
      return { issues, isLast, nextPageToken: isLast ? null : offsetToken(next) };
    },

    searchAll(jql: string, fields?: string[], maxItems?: number) {
      return paginateToken(async (token) => {
        const page = await this.searchJql({ jql, fields, maxResults: 100, nextPageToken: token });
        return { items: page.issues, nextPageToken: page.nextPageToken, isLast: page.isLast };
      }, maxItems);
    },

    getIssue: (key: string, options: { fields?: string[]; expand?: string[] } = {}) =>
      call<JiraIssue>({ path: `${V2}/issue/${enc(key)}`, query: { fields: options.fields?.join(","), expand: options.expand?.join(",") } }),

    createIssue: (fields: Record<string, unknown>) =>
      call<{ id: string; key: string; self: string }>({ method: "POST", path: `${V2}/issue`, body: dataCenterIssueBody({ fields }) }),

    updateIssue: (key: string, change: { fields?: Record<string, unknown>; update?: Record<string, unknown> }) =>
      call<void>({ method: "PUT", path: `${V2}/issue/${enc(key)}`, body: dataCenterIssueBody(change) }),

    getTransitions: (key: string) =>
      call<{ transitions: { id: string; name: string; to: { name: string } }[] }>({ path: `${V2}/issue/${enc(key)}/transitions` }),

    transitionIssue: (
      key: string,
      transitionId: string,
      change: { fields?: Record<string, unknown>; update?: Record<string, unknown> } = {},
    ) =>
      call<void>({
        method: "POST",
        path: `${V2}/issue/${enc(key)}/transitions`,
        body: { transition: { id: transitionId }, ...dataCenterIssueBody(change) },
      }),

    /** Every comment of an issue, oldest first (offset pages). */
    comments: (key: string, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { comments: Record<string, unknown>[] }>({
          path: `${V2}/issue/${enc(key)}/comment`,
          query: { startAt, maxResults: 100 },
        });
        return { ...page, items: page.comments };
      }, maxItems),

    /** `body` is the tool's rich text: its wiki markup is sent. */
    addComment: (key: string, body: unknown) =>
      call<{ id: string }>({ method: "POST", path: `${V2}/issue/${enc(key)}/comment`, body: wikiBody({ body }) }),

    addWorklog: (key: string, worklog: { timeSpentSeconds: number; started?: string; comment?: unknown }) =>
      call<JiraWorklog>({ method: "POST", path: `${V2}/issue/${enc(key)}/worklog`, body: wikiBody(worklog) }),

    worklogsPage: (key: string, startAt: number, maxResults: number) =>
      call<StartAtPage & { worklogs: JiraWorklog[] }>({ path: `${V2}/issue/${enc(key)}/worklog`, query: { startAt, maxResults } }),

    /**
     * One page of an issue's comments, newest first, as the Cloud client gives it. Data Center
     * pages them oldest first and has no `orderBy`: the total comes first, then the oldest-first
     * range that holds this page, reversed.
     */
    async commentsPage(key: string, startAt: number, maxResults: number) {
      const path = `${V2}/issue/${enc(key)}/comment`;
      const probe = await call<StartAtPage & { comments: JiraComment[] }>({ path, query: { startAt: 0, maxResults: 1 } });
      const total = typeof probe.total === "number" ? probe.total : probe.comments.length;
      const end = Math.max(0, total - startAt);
      const from = Math.max(0, end - maxResults);
      const range: JiraComment[] = [];
      for (let at = from; at < end;) {
        const page = await call<StartAtPage & { comments: JiraComment[] }>({ path, query: { startAt: at, maxResults: end - at } });
        if (page.comments.length === 0) break;
        range.push(...page.comments.slice(0, end - at));
        at += page.comments.length;
      }
      return { startAt, maxResults, total, comments: range.reverse() } satisfies StartAtPage & { comments: JiraComment[] };
    },

    comment: (key: string, id: string) => call<JiraComment>({ path: `${V2}/issue/${enc(key)}/comment/${enc(id)}` }),

    editComment: (key: string, id: string, body: unknown) =>
      call<JiraComment>({ method: "PUT", path: `${V2}/issue/${enc(key)}/comment/${enc(id)}`, body: wikiBody({ body }) }),

    deleteComment: (key: string, id: string) => call<void>({ method: "DELETE", path: `${V2}/issue/${enc(key)}/comment/${enc(id)}` }),

    deleteIssue: (key: string, deleteSubtasks: boolean) =>
      call<void>({ method: "DELETE", path: `${V2}/issue/${enc(key)}`, query: { deleteSubtasks: String(deleteSubtasks) } }),

    /** `accountId` is the username on Data Center, which assigns by `name`; null unassigns. */
    assignIssue: (key: string, accountId: string | null) =>
      call<void>({ method: "PUT", path: `${V2}/issue/${enc(key)}/assignee`, body: { name: accountId } }),

    project: (key: string) =>
      call<{
        id: string;
        key: string;
        name: string;
        description?: string;
        lead?: JiraUser;
        issueTypes?: { id: string; name: string; subtask?: boolean }[];
        components?: { id: string; name: string }[];
        versions?: { id: string; name: string; released?: boolean; releaseDate?: string }[];
      }>({ path: `${V2}/project/${enc(key)}` }),

    projectComponents: (key: string) =>
      call<{ id: string; name: string; description?: string }[]>({ path: `${V2}/project/${enc(key)}/components` }),
    projectVersions: (key: string) =>
      call<{ id: string; name: string; released?: boolean; archived?: boolean; releaseDate?: string }[]>({
        path: `${V2}/project/${enc(key)}/versions`,
      }),

    fields: () =>
      call<
        { id: string; name: string; custom: boolean; clauseNames?: string[]; schema?: { type?: string; items?: string; custom?: string } }[]
      >({ path: `${V2}/field` }),

    linkTypes: () =>
      call<{ issueLinkTypes: { id: string; name: string; inward: string; outward: string }[] }>({ path: `${V2}/issueLinkType` }),

    linkIssues: (type: string, inwardKey: string, outwardKey: string) =>
      call<void>({
        method: "POST",
        path: `${V2}/issueLink`,
        body: { type: { name: type }, inwardIssue: { key: inwardKey }, outwardIssue: { key: outwardKey } },
      }),

    watchers: (key: string) =>
      call<{ isWatching?: boolean; watchCount?: number; watchers: JiraUser[] }>({ path: `${V2}/issue/${enc(key)}/watchers` }),

    /** Data Center takes the username as a JSON string body. */
    addWatcher: (key: string, accountId: string) =>
      call<void>({ method: "POST", path: `${V2}/issue/${enc(key)}/watchers`, body: accountId }),

    removeWatcher: (key: string, accountId: string) =>
      call<void>({ method: "DELETE", path: `${V2}/issue/${enc(key)}/watchers`, query: { username: accountId } }),

    remoteLinks: (key: string) => call<JiraRemoteLink[]>({ path: `${V2}/issue/${enc(key)}/remotelink` }),

    addRemoteLink: (key: string, link: { object: { url: string; title: string; summary?: string }; relationship?: string }) =>
      call<{ id: number; self: string }>({ method: "POST", path: `${V2}/issue/${enc(key)}/remotelink`, body: link }),

    createVersion: (version: {
      projectId: number;
      name: string;
      description?: string;
      releaseDate?: string;
      startDate?: string;
      released?: boolean;
    }) => call<JiraVersion>({ method: "POST", path: `${V2}/version`, body: version }),

    /** Every issue type one can create in a project: Jira 8.4+'s paged `{startAt, maxResults, total, isLast, values}`, read to the end. */
    async createMetaIssueTypes(projectKey: string) {
      const issueTypes: { id: string; name: string; subtask?: boolean }[] = [];
      for (let page = 0; page < 20; page++) {
        const got = await call<StartAtPage & { values?: { id: string; name: string; subtask?: boolean }[] }>({
          path: `${V2}/issue/createmeta/${enc(projectKey)}/issuetypes`,
          query: { startAt: issueTypes.length, maxResults: 200 },
        });
        const values = got.values ?? [];
        issueTypes.push(...values);
        if (values.length === 0 || got.isLast !== false || (typeof got.total === "number" && issueTypes.length >= got.total)) break;
      }
      return { startAt: 0, maxResults: issueTypes.length, total: issueTypes.length, isLast: true, issueTypes };
    },

    /** One page of the create screen's fields (`values` on Data Center, `fields` in the Cloud shape). */
    async createMetaFields(projectKey: string, issueTypeId: string, startAt: number, maxResults: number) {
      const { values, ...page } = await call<StartAtPage & { values?: JiraFieldMeta[] }>({
        path: `${V2}/issue/createmeta/${enc(projectKey)}/issuetypes/${enc(issueTypeId)}`,
        query: { startAt, maxResults },
      });
      return { ...page, fields: values ?? [] };
    },

    editMeta: (key: string) =>
      call<{ fields: Record<string, Omit<JiraFieldMeta, "fieldId">> }>({ path: `${V2}/issue/${enc(key)}/editmeta` }),

    /** As the Cloud client's: 201 when any was created, 400 with the same body when none was. */
    async createIssues(issueUpdates: { fields: Record<string, unknown> }[]): Promise<JiraBulkCreated> {
      const res = await http.request<JiraBulkCreated & { errorMessages?: unknown }>("jira", await target(), {
        method: "POST",
        path: `${V2}/issue/bulk`,
        body: { issueUpdates: issueUpdates.map((u) => dataCenterIssueBody(u)) },
        answerStatuses: [400],
      });
      return bulkCreated(res);
    },

    /** Uploads one file (multipart/form-data, part "file"); Jira asks for `X-Atlassian-Token: no-check` on it. */
    addAttachment: (key: string, file: { filename: string; mimeType: string; data: Uint8Array }) => {
      const form = attachmentForm(file);
      return call<JiraAttachment[]>({
        method: "POST",
        path: `${V2}/issue/${enc(key)}/attachments`,
        form,
        headers: { "X-Atlassian-Token": "no-check" },
      });
    },

    attachment: (id: string) => call<JiraAttachment>({ path: `${V2}/attachment/${enc(id)}` }),

    /**
     * The first `maxBytes` of an attachment as UTF-8 text. Data Center serves the bytes from the
     * `content` URL of the attachment's JSON (`…/secure/attachment/{id}/{filename}`), which must be
     * on the base URL (resolveUrl refuses any other); a server ignoring the Range sends it whole.
     */
    async attachmentText(id: string, maxBytes: number): Promise<string> {
      const meta = await call<JiraAttachment>({ path: `${V2}/attachment/${enc(id)}` });
      if (typeof meta.content !== "string" || meta.content === "")
        throw new UpstreamError("jira", "invalid_response", "Jira sent an attachment without a content URL");
      const text = await call<string>({ path: meta.content, accept: "text", headers: { range: `bytes=0-${maxBytes - 1}` } });
      const bytes = Buffer.from(text, "utf8");
      return bytes.length > maxBytes ? bytes.subarray(0, maxBytes).toString("utf8") : text;
    },

    async *projects(maxItems = 10_000) {
      const list = await call<{ id: string; key: string; name: string }[]>({ path: `${V2}/project` });
      yield* list.slice(0, maxItems);
    },

    ...agile,
  };
}
