import type { UpstreamCall } from "./http";
import type { JiraIssue, JiraSprint, StartAtPage } from "./jira.client";
import { paginateStartAt } from "./paginate";

/** Jira Software's Agile REST 1.0: the same paths and shapes on Data Center as on Cloud (its issues' users made Cloud-shaped by `call`). */
export function createAgileCalls(call: <T>(c: UpstreamCall) => Promise<T>) {
  const A = "/rest/agile/1.0";
  return {
    boards: (projectKeyOrId?: string, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { values: { id: number; name: string; type: string }[] }>({
          path: `${A}/board`,
          query: { startAt, maxResults: 50, projectKeyOrId },
        });
        return { ...page, items: page.values };
      }, maxItems),

    board: (boardId: number) =>
      call<{ id: number; name: string; type: string; location?: { projectKey?: string } }>({ path: `${A}/board/${boardId}` }),

    boardIssuesPage: (boardId: number, options: { jql?: string | undefined; startAt: number; maxResults: number; fields: string[] }) =>
      call<StartAtPage & { issues: JiraIssue[] }>({
        path: `${A}/board/${boardId}/issue`,
        query: { jql: options.jql, startAt: options.startAt, maxResults: options.maxResults, fields: options.fields.join(",") },
      }),

    sprints: (boardId: number, state?: "future" | "active" | "closed", maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { values: { id: number; name: string; state: string }[] }>({
          path: `${A}/board/${boardId}/sprint`,
          query: { startAt, maxResults: 50, state },
        });
        return { ...page, items: page.values };
      }, maxItems),

    sprint: (sprintId: number) => call<JiraSprint>({ path: `${A}/sprint/${sprintId}` }),

    createSprint: (sprint: { originBoardId: number; name: string; goal?: string; startDate?: string; endDate?: string }) =>
      call<JiraSprint>({ method: "POST", path: `${A}/sprint`, body: sprint }),

    updateSprint: (
      sprintId: number,
      change: { name?: string; goal?: string; startDate?: string; endDate?: string; state?: "active" | "closed" },
    ) => call<JiraSprint>({ method: "POST", path: `${A}/sprint/${sprintId}`, body: change }),

    moveToSprint: (sprintId: number, issues: string[]) =>
      call<void>({ method: "POST", path: `${A}/sprint/${sprintId}/issue`, body: { issues } }),

    moveToBacklog: (issues: string[]) => call<void>({ method: "POST", path: `${A}/backlog/issue`, body: { issues } }),

    sprintIssues: (sprintId: number, maxItems?: number) =>
      paginateStartAt(async (startAt) => {
        const page = await call<StartAtPage & { issues: JiraIssue[] }>({
          path: `${A}/sprint/${sprintId}/issue`,
          query: { startAt, maxResults: 50 },
        });
        return { ...page, items: page.issues };
      }, maxItems),
  };
}
