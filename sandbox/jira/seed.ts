import { SEED_EPOCH, type Rng } from "../core/random";
import { DEFAULT_CREDENTIALS, type SandboxCredentials } from "../credentials";
import { personByEmail } from "../identity/people";
import { bulletList, codeBlock, doc, heading, paragraph, text } from "./adf";
import {
  STATUS_DONE,
  STATUS_IN_PROGRESS,
  STATUS_IN_REVIEW,
  STATUS_TODO,
  TYPE_BUG,
  TYPE_EPIC,
  TYPE_STORY,
  TYPE_SUBTASK,
  TYPE_TASK,
} from "./catalog";
import type { Adf, Board, Issue, IssueLink, JiraState, Project, Sprint, User } from "./model";
import * as T from "./seed-text";
import { indexIssue, indexLink } from "./store";

const DAY = 86_400_000;
export const ISSUE_COUNT = 500;
const SPRINT_DAYS = 14;
const CLOSED_SPRINTS = 6;
const FUTURE_SPRINTS = 2;

/** The service account, then the seeded people; a linkable person (same email) keeps their fixed account id. */
function seedUsers(rng: Rng, accounts: SandboxCredentials): User[] {
  const me = accounts.atlassian;
  const users: User[] = [
    { accountId: me.accountId, displayName: me.displayName, emailAddress: me.email, timeZone: "Europe/Paris", active: true },
  ];
  for (const [name, timeZone] of T.PEOPLE) {
    const id = rng.hex(32);
    const uuid = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
    const emailAddress = `${name
      .toLowerCase()
      .normalize("NFD")
      .replace(/[^a-z ]/g, "")
      .replace(" ", ".")}@bridgekeeper.test`;
    users.push({
      accountId: personByEmail(accounts.people, emailAddress)?.accountId ?? `712020:${uuid}`,
      displayName: name,
      emailAddress,
      timeZone,
      active: true,
    });
  }
  return users;
}

function seedProjects(users: User[]): Project[] {
  let componentId = 10000;
  let versionId = 10000;
  return T.PROJECT_TEXT.map((p, i) => ({
    id: String(10000 + i),
    key: p.key,
    name: p.name,
    description: p.description,
    leadAccountId: users[i + 1]!.accountId,
    components: p.components.map((name) => ({ id: String(componentId++), name, description: `${name} work in ${p.name}.` })),
    versions: [1, 2, 3, 4].map((minor) => {
      const released = minor <= 2;
      return {
        id: String(versionId++),
        name: `v1.${minor}.0`,
        description: `Release 1.${minor}`,
        released,
        releaseDate: new Date(SEED_EPOCH + (minor - 2.5) * 30 * DAY).toISOString().slice(0, 10),
      };
    }),
    nextIssueNumber: 1,
  }));
}

function seedSprints(projects: Project[]): { boards: Board[]; sprints: Sprint[] } {
  const boards: Board[] = [];
  const sprints: Sprint[] = [];
  const activeStart = SEED_EPOCH - 6 * DAY;
  projects.forEach((p, i) => {
    const board: Board = { id: i + 1, name: `${p.key} board`, type: "scrum", projectId: p.id, filterId: 10000 + i };
    boards.push(board);
    for (let n = 1; n <= CLOSED_SPRINTS + 1 + FUTURE_SPRINTS; n++) {
      const offset = n - (CLOSED_SPRINTS + 1);
      const start = activeStart + offset * SPRINT_DAYS * DAY;
      const state = offset < 0 ? "closed" : offset === 0 ? "active" : "future";
      const sprint: Sprint = {
        id: sprints.length + 1,
        name: `${p.key} Sprint ${n}`,
        state,
        boardId: board.id,
        goal: n % 3 === 0 ? "" : `Ship ${T.PROJECT_TEXT[i]!.epics[n % T.PROJECT_TEXT[i]!.epics.length]} milestone ${n}`,
        createdDate: start - 3 * DAY,
      };
      if (state !== "future") {
        sprint.startDate = start;
        sprint.endDate = start + SPRINT_DAYS * DAY;
      }
      if (state === "closed") sprint.completeDate = start + SPRINT_DAYS * DAY + 2 * 3600_000;
      sprints.push(sprint);
    }
  });
  return { boards, sprints };
}

function describe(rng: Rng, typeId: string, subject: string): Adf | null {
  if (typeId === TYPE_SUBTASK && rng.chance(0.5)) return null;
  const context = paragraph(text(`${rng.pick(T.CONTEXT_SENTENCES)} This concerns `), text(subject, [{ type: "strong" }]), text("."));
  if (typeId === TYPE_BUG) {
    return doc(
      heading(2, "Steps to reproduce"),
      {
        type: "orderedList",
        content: ["Sign in as an admin", `Open ${subject}`, "Wait for the request to finish"].map((s) => ({
          type: "listItem",
          content: [paragraph(text(s))],
        })),
      },
      heading(2, "Actual result"),
      codeBlock("text", rng.pick(T.STACK_LINES)),
      context,
    );
  }
  return doc(heading(2, "Context"), context, heading(2, "Acceptance criteria"), bulletList(rng.sample(T.CRITERIA, rng.int(2, 4))));
}

function summaryFor(rng: Rng, typeId: string, p: T.ProjectText, subject: string, parent?: Issue): string {
  switch (typeId) {
    case TYPE_EPIC:
      return rng.pick(p.epics);
    case TYPE_STORY:
      return `${rng.pick(T.STORY_VERBS)} ${subject}`;
    case TYPE_TASK:
      return `${rng.pick(T.TASK_VERBS)} ${subject}`;
    case TYPE_BUG:
      return rng
        .pick(T.BUG_PATTERNS)
        .replace("{n}", String(rng.int(2, 30)))
        .replace("{s}", subject)
        .replace(/^the /, "The ");
    default:
      return `${rng.pick(T.SUBTASK_VERBS)}${parent ? ` for ${parent.key}` : ""}`;
  }
}

function pickStatus(rng: Rng, ageDays: number): string {
  const pDone = ageDays > 60 ? 0.75 : ageDays > 14 ? 0.45 : 0.12;
  if (rng.chance(pDone)) return STATUS_DONE;
  const r = rng.next();
  return r < 0.5 ? STATUS_TODO : r < 0.8 ? STATUS_IN_PROGRESS : STATUS_IN_REVIEW;
}

function pickType(rng: Rng, epics: number, standard: number): string {
  const r = rng.next();
  if (r < 0.04 || epics === 0) return TYPE_EPIC;
  if (r < 0.81 || standard === 0) return r < 0.39 ? TYPE_STORY : r < 0.61 ? TYPE_TASK : TYPE_BUG;
  return TYPE_SUBTASK;
}

function placeInSprints(rng: Rng, issue: Issue, sprints: Sprint[]): number[] {
  const closed = sprints.filter((s) => s.state === "closed");
  const active = sprints.find((s) => s.state === "active")!;
  const future = sprints.filter((s) => s.state === "future");
  if (issue.statusId === STATUS_DONE) {
    const at = issue.resolutionDate ?? issue.updated;
    const home = [...closed, active].find((s) => at >= s.startDate! && at < s.endDate! + 2 * DAY);
    if (!home || rng.chance(0.15)) return [];
    const before = closed[closed.indexOf(home) - 1];
    return before && issue.created < before.endDate! && rng.chance(0.2) ? [before.id, home.id] : [home.id];
  }
  if (issue.statusId !== STATUS_TODO) return rng.chance(0.25) && closed.length ? [closed[closed.length - 1]!.id, active.id] : [active.id];
  const r = rng.next();
  if (r < 0.3) return [active.id];
  if (r < 0.55) return [future[0]!.id];
  if (r < 0.65) return [future[1]!.id];
  return [];
}

export function seedJira(rng: Rng, accounts: SandboxCredentials = DEFAULT_CREDENTIALS): JiraState {
  const users = seedUsers(rng, accounts);
  const projects = seedProjects(users);
  const { boards, sprints } = seedSprints(projects);
  const state: JiraState = {
    users,
    usersById: new Map(users.map((u) => [u.accountId, u])),
    projects,
    projectsByKey: new Map(projects.map((p) => [p.key, p])),
    projectsById: new Map(projects.map((p) => [p.id, p])),
    issues: [],
    issuesById: new Map(),
    issuesByKey: new Map(),
    children: new Map(),
    links: [],
    linksByIssue: new Map(),
    boards,
    sprints,
    sprintsById: new Map(sprints.map((s) => [s.id, s])),
    next: {
      issue: 10000,
      comment: 10000,
      worklog: 10000,
      link: 10000,
      sprint: sprints.length + 1,
      history: 10000,
      remoteLink: 10000,
      attachment: 10000,
    },
    attachments: new Map(),
    // The one wall-clock read: it sets where the sandbox clock starts, not any seeded value.
    startedAt: Date.now(),
    generation: 0,
    responseCache: new Map(),
  };
  const createdTimes = Array.from({ length: ISSUE_COUNT }, () => SEED_EPOCH - rng.int(60, 180 * 24 * 60) * 60_000).sort((a, b) => a - b);
  const byProject = new Map<string, { epics: Issue[]; standard: Issue[] }>(projects.map((p) => [p.id, { epics: [], standard: [] }]));

  for (const created of createdTimes) {
    const pi = rng.int(0, projects.length - 1);
    const project = projects[pi]!;
    const words = T.PROJECT_TEXT[pi]!;
    const pools = byProject.get(project.id)!;
    const typeId = pickType(rng, pools.epics.length, pools.standard.length);
    const parent =
      typeId === TYPE_SUBTASK
        ? rng.pick(pools.standard.slice(-40))
        : typeId !== TYPE_EPIC && rng.chance(0.6)
          ? rng.pick(pools.epics)
          : undefined;
    const subject = rng.pick(words.subjects);
    const ageDays = (SEED_EPOCH - created) / DAY;
    const statusId = pickStatus(rng, ageDays);
    const updated = Math.min(SEED_EPOCH - 60_000, created + rng.int(0, Math.floor((SEED_EPOCH - created) / 60_000)) * 60_000);
    const done = statusId === STATUS_DONE;
    const assignee = typeId === TYPE_EPIC || rng.chance(0.85) || statusId !== STATUS_TODO ? rng.pick(users) : null;
    const estimate = typeId === TYPE_EPIC ? null : rng.pick([null, 3600, 7200, 14_400, 28_800, 57_600]);
    const issue: Issue = {
      id: String(state.next.issue++),
      key: `${project.key}-${project.nextIssueNumber++}`,
      projectId: project.id,
      typeId,
      summary: summaryFor(rng, typeId, words, subject, parent),
      description: describe(rng, typeId, subject),
      statusId,
      priorityId: rng.pick(["1", "2", "3", "3", "3", "4", "5"]),
      resolutionId: done ? (rng.chance(0.9) ? "10000" : "10001") : null,
      resolutionDate: done ? updated : null,
      statusCategoryChanged: statusId === STATUS_TODO ? created : updated,
      labels: rng.sample(T.LABELS, rng.pick([0, 1, 1, 2, 3])).sort(),
      componentIds: rng.sample(project.components, rng.pick([0, 1, 1, 2])).map((c) => c.id),
      fixVersionIds: rng.chance(0.4) ? [rng.pick(project.versions).id] : [],
      assigneeId: assignee?.accountId ?? null,
      reporterId: rng.pick(users).accountId,
      creatorId: "",
      created,
      updated,
      dueDate: rng.chance(0.2) ? new Date(created + rng.int(7, 60) * DAY).toISOString().slice(0, 10) : null,
      parentId: parent?.id ?? null,
      storyPoints:
        typeId === TYPE_STORY || (typeId !== TYPE_EPIC && typeId !== TYPE_SUBTASK && rng.chance(0.5))
          ? rng.pick([1, 2, 3, 5, 8, 13])
          : null,
      originalEstimateSeconds: estimate,
      remainingEstimateSeconds: estimate,
      sprintIds: [],
      comments: [],
      worklogs: [],
      histories: [],
      watcherIds: [],
      remoteLinks: [],
    };
    issue.creatorId = issue.reporterId;
    // As in Jira, the reporter watches the issue (no random draw: the rest of the data is unchanged).
    issue.watcherIds = [issue.reporterId];
    const span = Math.max(60_000, updated - created);
    for (let c = rng.int(0, 6); c > 0; c--) {
      const at = created + rng.int(0, span / 60_000) * 60_000;
      const author = rng.pick(users).accountId;
      issue.comments.push({
        id: String(state.next.comment++),
        authorId: author,
        updateAuthorId: author,
        body: doc(paragraph(text(rng.pick(T.COMMENTS)))),
        created: at,
        updated: at,
      });
    }
    issue.comments.sort((a, b) => a.created - b.created || Number(a.id) - Number(b.id));
    for (let w = statusId === STATUS_TODO ? 0 : rng.int(0, 4); w > 0; w--) {
      const at = created + rng.int(0, span / 60_000) * 60_000;
      const seconds = rng.pick([1800, 3600, 5400, 7200, 12_600, 28_800]);
      issue.worklogs.push({
        id: String(state.next.worklog++),
        authorId: issue.assigneeId ?? rng.pick(users).accountId,
        comment: doc(paragraph(text(rng.pick(T.WORKLOG_COMMENTS)))),
        started: at,
        created: at,
        updated: at,
        timeSpentSeconds: seconds,
      });
    }
    issue.worklogs.sort((a, b) => a.started - b.started || Number(a.id) - Number(b.id));
    if (issue.remainingEstimateSeconds !== null)
      issue.remainingEstimateSeconds = Math.max(
        0,
        issue.remainingEstimateSeconds - issue.worklogs.reduce((s, w) => s + w.timeSpentSeconds, 0),
      );
    if (statusId !== STATUS_TODO) {
      issue.histories.push({
        id: String(state.next.history++),
        authorId: issue.assigneeId ?? issue.reporterId,
        created: issue.statusCategoryChanged,
        items: [
          {
            field: "status",
            fieldId: "status",
            from: STATUS_TODO,
            fromString: "To Do",
            to: statusId,
            toString: done ? "Done" : statusId === STATUS_IN_REVIEW ? "In Review" : "In Progress",
          },
        ],
      });
    }
    if (typeId === TYPE_EPIC) pools.epics.push(issue);
    else if (typeId !== TYPE_SUBTASK) {
      pools.standard.push(issue);
      issue.sprintIds = placeInSprints(
        rng,
        issue,
        sprints.filter((s) => s.boardId === pi + 1),
      );
    } else issue.sprintIds = [...(parent?.sprintIds ?? [])];
    indexIssue(state, issue);
  }

  // An epic is only Done when its children are: reopen the others.
  for (const epic of state.issues) {
    if (epic.typeId !== TYPE_EPIC || epic.statusId !== STATUS_DONE) continue;
    const open = (state.children.get(epic.id) ?? []).some((id) => state.issuesById.get(id)!.statusId !== STATUS_DONE);
    if (!open) continue;
    Object.assign(epic, { statusId: STATUS_IN_PROGRESS, resolutionId: null, resolutionDate: null });
    for (const h of epic.histories)
      for (const item of h.items) if (item.field === "status") Object.assign(item, { to: STATUS_IN_PROGRESS, toString: "In Progress" });
  }

  seedAttachments(state);

  for (let n = 0; n < 90; n++) {
    const a = rng.pick(state.issues);
    const b = rng.chance(0.8) ? rng.pick(state.issues.filter((i) => i.projectId === a.projectId)) : rng.pick(state.issues);
    if (a.id === b.id || state.linksByIssue.get(a.id)?.some((l) => l.inwardId === b.id || l.outwardId === b.id)) continue;
    const link: IssueLink = { id: String(state.next.link++), typeId: rng.chance(0.5) ? "10000" : "10003", outwardId: a.id, inwardId: b.id };
    indexLink(state, link);
  }
  // People the seed did not cast join as users with no history (after every draw: the data is unchanged).
  for (const p of accounts.people) {
    if (state.usersById.has(p.accountId)) continue;
    const user: User = { accountId: p.accountId, displayName: p.displayName, emailAddress: p.email, timeZone: "Etc/UTC", active: true };
    state.users.push(user);
    state.usersById.set(user.accountId, user);
  }
  return state;
}

/** Two files on BK-1, a text and an image (no random draws: the rest of the data is unchanged). */
function seedAttachments(state: JiraState): void {
  const issue = state.issuesByKey.get("BK-1");
  if (!issue) return;
  const png = Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f1b0e30000000049454e44ae426082",
    "hex",
  );
  const files: [string, string, Buffer][] = [
    ["release-notes.md", "text/markdown", Buffer.from("# Release notes\n\n- Faster search\n- Fewer timeouts\n", "utf8")],
    ["diagram.png", "image/png", png],
  ];
  for (const [filename, mimeType, data] of files) {
    const id = String(state.next.attachment++);
    state.attachments.set(id, { id, issueId: issue.id, filename, authorId: issue.reporterId, created: issue.created, mimeType, data });
  }
}
