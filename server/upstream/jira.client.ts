import type { TargetProvider, UpstreamCall, UpstreamHttp } from "./http";
import { paginateStartAt, paginateToken } from "./paginate";

const enc = encodeURIComponent;

export interface JiraUser {
  accountId: string;
  displayName: string;
  emailAddress?: string;
  active?: boolean;
}

export interface JiraIssue {
  id: string;
  key: string;
  self?: string;
  fields: Record<string, unknown>;
  transitions?: { id: string; name: string }[];
}

export interface JiraSearchPage {
  issues: JiraIssue[];
  nextPageToken?: string | null;
  isLast?: boolean;
}

interface StartAtPage {
  startAt?: number;
  maxResults?: number;
  total?: number;
  isLast?: boolean;
}

/** Jira Cloud REST v3 and Jira Software Agile 1.0, on the Atlassian instance URL. */
export function createJiraClient(http: UpstreamHttp, target: TargetProvider) {
  const call = async <T>(c: UpstreamCall): Promise<T> => (await http.request<T>("jira", await target(), c)).data;

  return {
    myself: (timeoutMs?: number) => call<JiraUser>({ path: "/rest/api/3/myself", timeoutMs }),

    /** Users whose name or email matches `query` (Jira's /user/search; assignable ones of an issue or project with /user/assignable/search). */
    searchUsers: (query: string, options: { maxResults?: number; assignableTo?: { issueKey?: string; project?: string } } = {}) =>
      call<(JiraUser & { emailAddress?: string; active?: boolean })[]>({
        path: options.assignableTo ? "/rest/api/3/user/assignable/search" : "/rest/api/3/user/search",
        query: { query, maxResults: options.maxResults ?? 20, issueKey: options.assignableTo?.issueKey, project: options.assignableTo?.project },
      }),
    serverInfo: () => call<{ baseUrl: string; version: string; deploymentType: string }>({ path: "/rest/api/3/serverInfo" }),

    /** One page of the enhanced JQL search (the old /search is gone from the cloud). */
    searchJql: (params: { jql: string; fields?: string[]; maxResults?: number; nextPageToken?: string }) =>
      call<JiraSearchPage>({
        method: "POST",
        path: "/rest/api/3/search/jql",
        body: { jql: params.jql, fields: params.fields ?? ["summary", "status", "assignee", "priority", "issuetype", "updated"], maxResults: params.maxResults ?? 50, nextPageToken: params.nextPageToken },
      }),

    /** Every issue matching `jql`, page after page. */
    searchAll(jql: string, fields?: string[], maxItems?: number) {
      return paginateToken(async (token) => {
        const page = await this.searchJql({ jql, fields, maxResults: 100, nextPageToken: token });
        return { items: page.issues, nextPageToken: page.nextPageToken, isLast: page.isLast };
      }, maxItems);
    },

    getIssue: (key: string, options: { fields?: string[]; expand?: string[] } = {}) =>
      call<JiraIssue>({ path: `/rest/api/3/issue/${enc(key)}`, query: { fields: options.fields?.join(","), expand: options.expand?.join(",") } }),

    createIssue: (fields: Record<string, unknown>) => call<{ id: string; key: string; self: string }>({ method: "POST", path: "/rest/api/3/issue", body: { fields } }),

    updateIssue: (key: string, change: { fields?: Record<string, unknown>; update?: Record<string, unknown> }) =>
      call<void>({ method: "PUT", path: `/rest/api/3/issue/${enc(key)}`, body: change }),

    getTransitions: (key: string) => call<{ transitions: { id: string; name: string; to: { name: string } }[] }>({ path: `/rest/api/3/issue/${enc(key)}/transitions` }),

    transitionIssue: (key: string, transitionId: string, change: { fields?: Record<string, unknown>; update?: Record<string, unknown> } = {}) =>
      call<void>({ method: "POST", path: `/rest/api/3/issue/${enc(key)}/transitions`, body: { transition: { id: transitionId }, ...change } }),

    /** Every comment of an issue (offset pages). */
    comments: (key: string, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { comments: Record<string, unknown>[] }>({ path: `/rest/api/3/issue/${enc(key)}/comment`, query: { startAt, maxResults: 100 } });
        return { ...page, items: page.comments };
      }, maxItems),

    /** `body` is an Atlassian Document Format document. */
    addComment: (key: string, body: unknown) => call<{ id: string }>({ method: "POST", path: `/rest/api/3/issue/${enc(key)}/comment`, body: { body } }),

    addWorklog: (key: string, worklog: { timeSpentSeconds: number; started?: string; comment?: unknown }) =>
      call<{ id: string }>({ method: "POST", path: `/rest/api/3/issue/${enc(key)}/worklog`, body: worklog }),

    projects: (maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { values: { id: string; key: string; name: string }[] }>({ path: "/rest/api/3/project/search", query: { startAt, maxResults: 50 } });
        return { ...page, items: page.values };
      }, maxItems),

    boards: (projectKeyOrId?: string, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { values: { id: number; name: string; type: string }[] }>({ path: "/rest/agile/1.0/board", query: { startAt, maxResults: 50, projectKeyOrId } });
        return { ...page, items: page.values };
      }, maxItems),

    board: (boardId: number) => call<{ id: number; name: string; type: string; location?: { projectKey?: string } }>({ path: `/rest/agile/1.0/board/${boardId}` }),

    sprints: (boardId: number, state?: "future" | "active" | "closed", maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { values: { id: number; name: string; state: string }[] }>({ path: `/rest/agile/1.0/board/${boardId}/sprint`, query: { startAt, maxResults: 50, state } });
        return { ...page, items: page.values };
      }, maxItems),

    sprintIssues: (sprintId: number, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { issues: JiraIssue[] }>({ path: `/rest/agile/1.0/sprint/${sprintId}/issue`, query: { startAt, maxResults: 50 } });
        return { ...page, items: page.issues };
      }, maxItems),
  };
}

export type JiraClient = ReturnType<typeof createJiraClient>;
