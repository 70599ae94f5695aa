import type { TargetProvider, UpstreamCall, UpstreamHttp } from "./http";
import { attachmentForm, bulkCreated } from "./jira-shared";
import { paginateStartAt, paginateToken } from "./paginate";
import type {
  JiraUser,
  JiraIssue,
  JiraSearchPage,
  JiraComment,
  JiraWorklog,
  JiraRemoteLink,
  JiraVersion,
  JiraFieldMeta,
  JiraBulkCreated,
  JiraAttachment,
  JiraSprint,
  StartAtPage,
} from "./jira.client";

const enc = encodeURIComponent;

/** Jira Cloud REST v3 and Jira Software Agile 1.0, on the Atlassian instance URL. */
export function createJiraCloudClient(http: UpstreamHttp, target: TargetProvider) {
  const call = async <T>(c: UpstreamCall): Promise<T> => (await http.request<T>("jira", await target(), c)).data;

  return {
    myself: (timeoutMs?: number) => call<JiraUser>({ path: "/rest/api/3/myself", timeoutMs }),

    /** How many projects the account can see: a one-item page's `total` (null if Jira sends none and there are more). */
    async projectCount(timeoutMs?: number): Promise<number | null> {
      const page = await call<StartAtPage & { values?: unknown[] }>({
        path: "/rest/api/3/project/search",
        query: { maxResults: 1 },
        timeoutMs,
      });
      return page.total ?? (page.isLast ? (page.values?.length ?? 0) : null);
    },

    /** Users whose name or email matches `query` (Jira's /user/search; assignable ones of an issue or project with /user/assignable/search). */
    searchUsers: (query: string, options: { maxResults?: number; assignableTo?: { issueKey?: string; project?: string } } = {}) =>
      call<(JiraUser & { emailAddress?: string; active?: boolean })[]>({
        path: options.assignableTo ? "/rest/api/3/user/assignable/search" : "/rest/api/3/user/search",
        query: {
          query,
          maxResults: options.maxResults ?? 20,
          issueKey: options.assignableTo?.issueKey,
          project: options.assignableTo?.project,
        },
      }),
    serverInfo: () => call<{ baseUrl: string; version: string; deploymentType: string }>({ path: "/rest/api/3/serverInfo" }),

    /** One page of the enhanced JQL search (the old /search is gone from the cloud). */
    searchJql: (params: { jql: string; fields?: string[]; maxResults?: number; nextPageToken?: string }) =>
      call<JiraSearchPage>({
        method: "POST",
        path: "/rest/api/3/search/jql",
        body: {
          jql: params.jql,
          fields: params.fields ?? ["summary", "status", "assignee", "priority", "issuetype", "updated"],
          maxResults: params.maxResults ?? 50,
          nextPageToken: params.nextPageToken,
        },
      }),

    /** Every issue matching `jql`, page after page. */
    searchAll(jql: string, fields?: string[], maxItems?: number) {
      return paginateToken(async (token) => {
        const page = await this.searchJql({ jql, fields, maxResults: 100, nextPageToken: token });
        return { items: page.issues, nextPageToken: page.nextPageToken, isLast: page.isLast };
      }, maxItems);
    },

    getIssue: (key: string, options: { fields?: string[]; expand?: string[] } = {}) =>
      call<JiraIssue>({
        path: `/rest/api/3/issue/${enc(key)}`,
        query: { fields: options.fields?.join(","), expand: options.expand?.join(",") },
      }),

    createIssue: (fields: Record<string, unknown>) =>
      call<{ id: string; key: string; self: string }>({ method: "POST", path: "/rest/api/3/issue", body: { fields } }),

    updateIssue: (key: string, change: { fields?: Record<string, unknown>; update?: Record<string, unknown> }) =>
      call<void>({ method: "PUT", path: `/rest/api/3/issue/${enc(key)}`, body: change }),

    getTransitions: (key: string) =>
      call<{ transitions: { id: string; name: string; to: { name: string } }[] }>({ path: `/rest/api/3/issue/${enc(key)}/transitions` }),

    transitionIssue: (
      key: string,
      transitionId: string,
      change: { fields?: Record<string, unknown>; update?: Record<string, unknown> } = {},
    ) =>
      call<void>({
        method: "POST",
        path: `/rest/api/3/issue/${enc(key)}/transitions`,
        body: { transition: { id: transitionId }, ...change },
      }),

    /** Every comment of an issue (offset pages). */
    comments: (key: string, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { comments: Record<string, unknown>[] }>({
          path: `/rest/api/3/issue/${enc(key)}/comment`,
          query: { startAt, maxResults: 100 },
        });
        return { ...page, items: page.comments };
      }, maxItems),

    /** `body` is an Atlassian Document Format document. */
    addComment: (key: string, body: unknown) =>
      call<{ id: string }>({ method: "POST", path: `/rest/api/3/issue/${enc(key)}/comment`, body: { body } }),

    addWorklog: (key: string, worklog: { timeSpentSeconds: number; started?: string; comment?: unknown }) =>
      call<JiraWorklog>({ method: "POST", path: `/rest/api/3/issue/${enc(key)}/worklog`, body: worklog }),

    /** One page of an issue's work log (oldest first). */
    worklogsPage: (key: string, startAt: number, maxResults: number) =>
      call<StartAtPage & { worklogs: JiraWorklog[] }>({ path: `/rest/api/3/issue/${enc(key)}/worklog`, query: { startAt, maxResults } }),

    /** One page of an issue's comments, newest first. */
    commentsPage: (key: string, startAt: number, maxResults: number) =>
      call<StartAtPage & { comments: JiraComment[] }>({
        path: `/rest/api/3/issue/${enc(key)}/comment`,
        query: { startAt, maxResults, orderBy: "-created" },
      }),

    /** One comment, read through its issue: Jira answers 404 when the comment is not that issue's. */
    comment: (key: string, id: string) => call<JiraComment>({ path: `/rest/api/3/issue/${enc(key)}/comment/${enc(id)}` }),

    /** `body` is an Atlassian Document Format document. */
    editComment: (key: string, id: string, body: unknown) =>
      call<JiraComment>({ method: "PUT", path: `/rest/api/3/issue/${enc(key)}/comment/${enc(id)}`, body: { body } }),

    deleteComment: (key: string, id: string) => call<void>({ method: "DELETE", path: `/rest/api/3/issue/${enc(key)}/comment/${enc(id)}` }),

    deleteIssue: (key: string, deleteSubtasks: boolean) =>
      call<void>({ method: "DELETE", path: `/rest/api/3/issue/${enc(key)}`, query: { deleteSubtasks: String(deleteSubtasks) } }),

    /** null unassigns. */
    assignIssue: (key: string, accountId: string | null) =>
      call<void>({ method: "PUT", path: `/rest/api/3/issue/${enc(key)}/assignee`, body: { accountId } }),

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
      }>({
        path: `/rest/api/3/project/${enc(key)}`,
      }),

    projectComponents: (key: string) =>
      call<{ id: string; name: string; description?: string }[]>({ path: `/rest/api/3/project/${enc(key)}/components` }),
    projectVersions: (key: string) =>
      call<{ id: string; name: string; released?: boolean; archived?: boolean; releaseDate?: string }[]>({
        path: `/rest/api/3/project/${enc(key)}/versions`,
      }),

    fields: () =>
      call<
        { id: string; name: string; custom: boolean; clauseNames?: string[]; schema?: { type?: string; items?: string; custom?: string } }[]
      >({ path: "/rest/api/3/field" }),

    linkTypes: () =>
      call<{ issueLinkTypes: { id: string; name: string; inward: string; outward: string }[] }>({ path: "/rest/api/3/issueLinkType" }),

    /** A link "outward <type's outward reading> inward", in Jira's naming: Blocks with outward BK-1 and inward BK-2 is "BK-1 blocks BK-2". */
    linkIssues: (type: string, inwardKey: string, outwardKey: string) =>
      call<void>({
        method: "POST",
        path: "/rest/api/3/issueLink",
        body: { type: { name: type }, inwardIssue: { key: inwardKey }, outwardIssue: { key: outwardKey } },
      }),

    watchers: (key: string) =>
      call<{ isWatching?: boolean; watchCount?: number; watchers: JiraUser[] }>({ path: `/rest/api/3/issue/${enc(key)}/watchers` }),

    /** Jira takes the accountId as a JSON string body. */
    addWatcher: (key: string, accountId: string) =>
      call<void>({ method: "POST", path: `/rest/api/3/issue/${enc(key)}/watchers`, body: accountId }),

    removeWatcher: (key: string, accountId: string) =>
      call<void>({ method: "DELETE", path: `/rest/api/3/issue/${enc(key)}/watchers`, query: { accountId } }),

    remoteLinks: (key: string) => call<JiraRemoteLink[]>({ path: `/rest/api/3/issue/${enc(key)}/remotelink` }),

    addRemoteLink: (key: string, link: { object: { url: string; title: string; summary?: string }; relationship?: string }) =>
      call<{ id: number; self: string }>({ method: "POST", path: `/rest/api/3/issue/${enc(key)}/remotelink`, body: link }),

    createVersion: (version: {
      projectId: number;
      name: string;
      description?: string;
      releaseDate?: string;
      startDate?: string;
      released?: boolean;
    }) => call<JiraVersion>({ method: "POST", path: "/rest/api/3/version", body: version }),

    /** The issue types one can create in a project (id and name). */
    createMetaIssueTypes: (projectKey: string) =>
      call<StartAtPage & { issueTypes: { id: string; name: string; subtask?: boolean }[] }>({
        path: `/rest/api/3/issue/createmeta/${enc(projectKey)}/issuetypes`,
        query: { maxResults: 200 },
      }),

    /** One page of the create screen's fields of a project's issue type. */
    createMetaFields: (projectKey: string, issueTypeId: string, startAt: number, maxResults: number) =>
      call<StartAtPage & { fields: JiraFieldMeta[] }>({
        path: `/rest/api/3/issue/createmeta/${enc(projectKey)}/issuetypes/${enc(issueTypeId)}`,
        query: { startAt, maxResults },
      }),

    /** The fields an issue's edit screen offers, by field id. */
    editMeta: (key: string) =>
      call<{ fields: Record<string, Omit<JiraFieldMeta, "fieldId">> }>({ path: `/rest/api/3/issue/${enc(key)}/editmeta` }),

    /**
     * Up to 50 creates in one call; each succeeds or fails alone. Jira answers 201 when any was
     * created and 400 when none was, both with `issues` and per-item `errors`.
     */
    async createIssues(issueUpdates: { fields: Record<string, unknown> }[]): Promise<JiraBulkCreated> {
      const res = await http.request<JiraBulkCreated & { errorMessages?: unknown }>("jira", await target(), {
        method: "POST",
        path: "/rest/api/3/issue/bulk",
        body: { issueUpdates },
        answerStatuses: [400],
      });
      return bulkCreated(res);
    },

    /** Uploads one file (multipart/form-data, part "file"); Jira asks for `X-Atlassian-Token: no-check` on it. */
    addAttachment: (key: string, file: { filename: string; mimeType: string; data: Uint8Array }) => {
      const form = attachmentForm(file);
      return call<JiraAttachment[]>({
        method: "POST",
        path: `/rest/api/3/issue/${enc(key)}/attachments`,
        form,
        headers: { "X-Atlassian-Token": "no-check" },
      });
    },

    attachment: (id: string) => call<JiraAttachment>({ path: `/rest/api/3/attachment/${enc(id)}` }),

    /** The first `maxBytes` of an attachment's content as UTF-8 text (a Range request; no redirect to follow). */
    attachmentText: (id: string, maxBytes: number) =>
      call<string>({
        path: `/rest/api/3/attachment/content/${enc(id)}`,
        query: { redirect: false },
        accept: "text",
        headers: { range: `bytes=0-${maxBytes - 1}` },
      }),

    projects: (maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { values: { id: string; key: string; name: string }[] }>({
          path: "/rest/api/3/project/search",
          query: { startAt, maxResults: 50 },
        });
        return { ...page, items: page.values };
      }, maxItems),

    boards: (projectKeyOrId?: string, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { values: { id: number; name: string; type: string }[] }>({
          path: "/rest/agile/1.0/board",
          query: { startAt, maxResults: 50, projectKeyOrId },
        });
        return { ...page, items: page.values };
      }, maxItems),

    board: (boardId: number) =>
      call<{ id: number; name: string; type: string; location?: { projectKey?: string } }>({ path: `/rest/agile/1.0/board/${boardId}` }),

    /** One page of a board's issues (its filter's, narrowed by `jql` when given), in the board's order unless the JQL orders them. */
    boardIssuesPage: (boardId: number, options: { jql?: string | undefined; startAt: number; maxResults: number; fields: string[] }) =>
      call<StartAtPage & { issues: JiraIssue[] }>({
        path: `/rest/agile/1.0/board/${boardId}/issue`,
        query: { jql: options.jql, startAt: options.startAt, maxResults: options.maxResults, fields: options.fields.join(",") },
      }),

    sprints: (boardId: number, state?: "future" | "active" | "closed", maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { values: { id: number; name: string; state: string }[] }>({
          path: `/rest/agile/1.0/board/${boardId}/sprint`,
          query: { startAt, maxResults: 50, state },
        });
        return { ...page, items: page.values };
      }, maxItems),

    sprint: (sprintId: number) => call<JiraSprint>({ path: `/rest/agile/1.0/sprint/${sprintId}` }),

    createSprint: (sprint: { originBoardId: number; name: string; goal?: string; startDate?: string; endDate?: string }) =>
      call<JiraSprint>({ method: "POST", path: "/rest/agile/1.0/sprint", body: sprint }),

    /** A partial update (Agile POST): only the fields given change; `state` active starts the sprint, closed completes it. */
    updateSprint: (
      sprintId: number,
      change: { name?: string; goal?: string; startDate?: string; endDate?: string; state?: "active" | "closed" },
    ) => call<JiraSprint>({ method: "POST", path: `/rest/agile/1.0/sprint/${sprintId}`, body: change }),

    /** Up to 50 issues (keys or ids) into a sprint; their sub-tasks follow. */
    moveToSprint: (sprintId: number, issues: string[]) =>
      call<void>({ method: "POST", path: `/rest/agile/1.0/sprint/${sprintId}/issue`, body: { issues } }),

    /** Up to 50 issues out of their sprints, to the backlog. */
    moveToBacklog: (issues: string[]) => call<void>({ method: "POST", path: "/rest/agile/1.0/backlog/issue", body: { issues } }),

    sprintIssues: (sprintId: number, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { issues: JiraIssue[] }>({
          path: `/rest/agile/1.0/sprint/${sprintId}/issue`,
          query: { startAt, maxResults: 50 },
        });
        return { ...page, items: page.issues };
      }, maxItems),
  };
}
