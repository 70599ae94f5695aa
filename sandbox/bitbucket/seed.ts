import { Rng, SEED_EPOCH } from "../core/random";
import { DEFAULT_CREDENTIALS, type SandboxCredentials } from "../credentials";
import { displayName, PEOPLE, PROJECTS, REPOS, WORKSPACE, type CatalogRepo } from "./catalog";
import { baseTree, REVIEW_COMMENTS, topic, TOPIC_COUNT, type ChangeTopic } from "./content";
import { castIds, joinPeople } from "./people";
import type { BitbucketState, Comment, Commit, FileOp, Participant, PullRequest, PullRequestState, Repo, User } from "./model";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const uuidOf = (rng: Rng): string =>
  `{${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-${rng.pick(["8", "9", "a", "b"])}${rng.hex(3)}-${rng.hex(12)}}`;

const FOLLOW_UPS = ["Address review comments", "Add tests", "Fix lint", "Rename variables for clarity", "Update docs"];

function editOps(rng: Rng, files: string[], t: ChangeTopic, changelog = true): FileOp[] {
  const code = files.filter((p) => /\.(ts|js|py|go)$/.test(p) && !/test/.test(p));
  const ops: FileOp[] = changelog ? [{ kind: "insert", path: "CHANGELOG.md", after: 6, lines: [`- ${t.message}.`] }] : [];
  for (let i = rng.int(1, 2); i > 0; i--) {
    const path = rng.pick(code);
    const marker = path.endsWith(".py") ? "#" : "//";
    if (rng.chance(0.55)) ops.push({ kind: "insert", path, after: rng.int(2, 30), lines: [`${marker} ${t.note}`] });
    else
      ops.push({
        kind: "tweak",
        path: code.find((p) => p.includes("config")) ?? path,
        line: rng.int(0, 40),
        delta: rng.int(1, 9) * (rng.chance(0.3) ? -1 : 1),
      });
  }
  if (rng.chance(0.15)) ops.push({ kind: "insert", path: "README.md", after: rng.int(20, 26), lines: [`- ${t.note}`] });
  if (rng.chance(0.1)) {
    const doc = `docs/${t.branch.split("/")[1] ?? "notes"}.md`;
    if (!files.includes(doc)) {
      files.push(doc);
      ops.push({ kind: "add", path: doc, content: `# ${t.message}\n\n${t.note}\n\nSee CHANGELOG.md for the release this shipped in.\n` });
    }
  }
  return ops;
}

interface RepoSeed {
  rng: Rng;
  state: BitbucketState;
  repo: Repo;
  files: string[];
  clock: number;
}

function commit(ctx: RepoSeed, parents: string[], author: User, message: string, ops: FileOp[], hours: [number, number]): Commit {
  ctx.clock += ctx.rng.int(hours[0], hours[1]) * HOUR + ctx.rng.int(0, 59) * 60_000;
  const c: Commit = { hash: ctx.rng.hex(40), message, author, date: ctx.clock, parents, ops };
  ctx.repo.commits.set(c.hash, c);
  return c;
}

/** A branch of 1-`max` commits on top of `from`. */
function branchCommits(ctx: RepoSeed, from: string, author: User, t: ChangeTopic, max: number): Commit[] {
  const out: Commit[] = [];
  let parent = from;
  for (let i = ctx.rng.int(1, max); i > 0; i--) {
    const message = out.length === 0 ? t.message : ctx.rng.pick(FOLLOW_UPS);
    const c = commit(ctx, [parent], author, message, editOps(ctx.rng, ctx.files, t, out.length === 0), [1, 20]);
    out.push(c);
    parent = c.hash;
  }
  return out;
}

function addPullRequest(
  ctx: RepoSeed,
  state: PullRequestState,
  author: User,
  t: ChangeTopic,
  branch: Commit[],
  destHash: string,
): PullRequest {
  const { rng, repo } = ctx;
  const first = branch[0]!;
  const tip = branch[branch.length - 1]!;
  const createdOn = first.date + rng.int(1, 4) * HOUR;
  // Drawn here in the order the object literal used to draw them, so the seed stays as it was.
  const closeSourceBranch = state !== "OPEN" || rng.chance(0.6);
  const taskCount = state === "OPEN" ? rng.int(0, 2) : 0;
  const pr: PullRequest = {
    id: repo.nextPrId++,
    title: t.message,
    description: `${t.note}\n\nChanges:\n\n${branch.map((c) => `* ${c.message}`).join("\n")}`,
    state,
    author,
    source: { branch: t.branch, hash: tip.hash },
    destination: { branch: repo.mainbranch, hash: destHash },
    mergeCommit: null,
    closedBy: null,
    closedOn: null,
    reason: "",
    createdOn,
    updatedOn: Math.max(createdOn, tip.date),
    closeSourceBranch,
    participants: new Map(),
    comments: [],
    commentsById: new Map(),
    conflict: false,
    tasks: [],
    edits: [],
  };
  const others = ctx.state.users.filter((u) => u !== author);
  const approveChance = state === "MERGED" ? 0.85 : state === "OPEN" ? 0.4 : 0.1;
  for (const user of rng.sample(others, rng.int(1, 3))) {
    const approved = rng.chance(approveChance);
    const changes = !approved && rng.chance(0.15);
    const p: Participant = {
      user,
      role: "REVIEWER",
      approved,
      state: approved ? "approved" : changes ? "changes_requested" : null,
      participatedOn: null,
    };
    if (approved || changes) p.participatedOn = createdOn + rng.int(1, 30) * HOUR;
    pr.participants.set(user.nickname, p);
  }
  const paths = [...new Set(branch.flatMap((c) => c.ops.map((op) => op.path)))];
  const commenters = [author, ...[...pr.participants.values()].map((p) => p.user)];
  for (let i = rng.int(0, 4); i > 0; i--) {
    const user = rng.pick(commenters);
    const at = createdOn + rng.int(1, 48) * HOUR;
    const previous = pr.comments[pr.comments.length - 1];
    const c: Comment = {
      id: (ctx.state.nextCommentId += rng.int(1, 40)),
      user,
      raw: rng.pick(REVIEW_COMMENTS).replace("{r}", "request"),
      createdOn: at,
      updatedOn: at,
      inline: rng.chance(0.4) ? { path: rng.pick(paths), from: null, to: rng.int(1, 20) } : null,
      parentId: previous && rng.chance(0.25) ? previous.id : null,
      deleted: false,
      resolution: null,
    };
    pr.comments.push(c);
    pr.commentsById.set(c.id, c);
    if (!pr.participants.has(user.nickname) && user !== author) {
      pr.participants.set(user.nickname, { user, role: "PARTICIPANT", approved: false, state: null, participatedOn: at });
    }
    pr.updatedOn = Math.max(pr.updatedOn, at);
  }
  addTasks(ctx.state, pr, taskCount);
  repo.pullRequests.set(pr.id, pr);
  return pr;
}

const TASKS = [
  "Add a test for the failure path",
  "Update the README",
  "Rename the config key as discussed",
  "Check the wording of the error message",
  "Remove the debug logging",
];

/** Open tasks by the first reviewer (no random draws: the rest of the seed stays as it was); the first one on the first comment, when there is one. */
function addTasks(state: BitbucketState, pr: PullRequest, count: number): void {
  const creator = [...pr.participants.values()][0]?.user ?? pr.author;
  for (let i = 0; i < count; i++) {
    const on = pr.createdOn + (i + 1) * 2 * HOUR;
    pr.tasks.push({
      id: state.nextTaskId++,
      raw: TASKS[(pr.id + i) % TASKS.length]!,
      state: "UNRESOLVED",
      creator,
      createdOn: on,
      updatedOn: on,
      resolvedBy: null,
      resolvedOn: null,
      commentId: i === 0 ? (pr.comments.find((c) => c.parentId === null)?.id ?? null) : null,
      pending: false,
    });
  }
}

function seedRepo(rng: Rng, state: BitbucketState, cat: CatalogRepo, index: number): Repo {
  const repo: Repo = {
    slug: cat.slug,
    name: cat.slug,
    uuid: uuidOf(rng),
    description: cat.description,
    language: cat.language,
    isPrivate: !["marketing-site", "docs-portal", "design-system"].includes(cat.slug),
    projectKey: cat.project,
    createdOn: 0,
    updatedOn: 0,
    size: rng.int(180_000, 24_000_000),
    hasIssues: rng.chance(0.3),
    hasWiki: rng.chance(0.2),
    mainbranch: "main",
    branches: new Map(),
    commits: new Map(),
    pullRequests: new Map(),
    nextPrId: 1,
    trees: new Map(),
    diffs: new Map(),
  };
  const tree = baseTree({ ...cat, name: displayName(cat.slug), port: 3000 + index * 10 });
  const ctx: RepoSeed = { rng, state, repo, files: Object.keys(tree), clock: 0 };
  const people = state.users;
  const root = commit(
    ctx,
    [],
    rng.pick(people),
    "Initial commit",
    Object.entries(tree).map(([path, content]) => ({ kind: "add", path, content })),
    [0, 0],
  );
  let main = root.hash;
  const mainLine = [root.hash];
  let topicCursor = rng.int(0, TOPIC_COUNT - 1);
  const kept: [string, string][] = [];

  // Main-line history up to a target size; a step adds at most 4 commits and the live branches at
  // most 12, so a repository ends with 20-60 commits.
  for (const target = rng.int(20, 44); repo.commits.size < target;) {
    const author = rng.pick(people);
    const t = topic(topicCursor++, cat.resource);
    const roll = rng.next();
    if (roll < 0.24) {
      const branch = branchCommits(ctx, main, author, t, 3);
      const pr = addPullRequest(ctx, "MERGED", author, t, branch, main);
      const closer = rng.pick(people.filter((u) => u !== author));
      const tip = branch[branch.length - 1]!;
      const merge = commit(
        ctx,
        [main, tip.hash],
        closer,
        `Merged in ${t.branch} (pull request #${pr.id})\n\n${t.message}`,
        branch.flatMap((c) => c.ops),
        [1, 30],
      );
      Object.assign(pr, { mergeCommit: merge.hash, closedBy: closer, closedOn: merge.date, updatedOn: Math.max(pr.updatedOn, merge.date) });
      main = merge.hash;
    } else if (roll < 0.32) {
      const branch = branchCommits(ctx, main, author, t, 2);
      const state = rng.chance(0.3) ? "SUPERSEDED" : "DECLINED";
      const pr = addPullRequest(ctx, state, author, t, branch, main);
      Object.assign(pr, {
        closedBy: rng.pick(people),
        reason: state === "DECLINED" ? "Not needed any more." : "",
        updatedOn: pr.updatedOn + 2 * HOUR,
        closedOn: pr.updatedOn + 2 * HOUR,
      });
      if (kept.length === 0 && rng.chance(0.4)) kept.push([t.branch, branch[branch.length - 1]!.hash]);
    } else {
      main = commit(ctx, [main], author, t.message, editOps(rng, ctx.files, t), [2, 72]).hash;
    }
    mainLine.push(main);
  }
  repo.branches.set(repo.mainbranch, main);
  for (const [name, hash] of kept) repo.branches.set(name, hash);
  if (rng.chance(0.3)) repo.branches.set(`release/1.${rng.int(2, 9)}`, mainLine[Math.max(0, mainLine.length - rng.int(3, 8))]!);

  for (let live = rng.int(1, 3), i = 0; i < live && repo.branches.size < 6; i++) {
    const author = rng.pick(people);
    const t = topic(topicCursor++, cat.resource);
    if (repo.branches.has(t.branch)) continue;
    const from = mainLine[Math.max(0, mainLine.length - 1 - rng.int(0, 5))]!;
    const branch = branchCommits(ctx, from, author, t, 4);
    repo.branches.set(t.branch, branch[branch.length - 1]!.hash);
    if (i === 0 || rng.chance(0.7)) {
      const pr = addPullRequest(ctx, "OPEN", author, t, branch, main);
      pr.conflict = rng.chance(0.15);
    }
  }

  // Shift the relative clock so the newest activity lands just before the seed epoch.
  const newest = Math.max(ctx.clock, ...[...repo.pullRequests.values()].map((p) => p.updatedOn));
  const shift = SEED_EPOCH - rng.int(2, 20 * 24) * HOUR - newest;
  for (const c of repo.commits.values()) c.date += shift;
  for (const pr of repo.pullRequests.values()) {
    pr.createdOn += shift;
    pr.updatedOn += shift;
    if (pr.closedOn !== null) pr.closedOn += shift;
    for (const t of pr.tasks) {
      t.createdOn += shift;
      t.updatedOn += shift;
    }
    for (const p of pr.participants.values()) if (p.participatedOn !== null) p.participatedOn += shift;
    for (const c of pr.comments) {
      c.createdOn += shift;
      c.updatedOn += shift;
    }
  }
  repo.createdOn = root.date - rng.int(1, 30) * DAY;
  repo.updatedOn = newest + shift;
  return repo;
}

/** The repository holding the one large open pull request (for answer-size figures: a diff of 500+ lines). */
export const LARGE_PR_REPO = "config-service";

/**
 * One large open pull request in config-service: a schema validator and its test table, about
 * 560 diff lines. Seeded after every repository, from an Rng of its own, so the rest of the
 * seed stays exactly as it was.
 */
function addLargePullRequest(state: BitbucketState): void {
  const repo = state.reposBySlug.get(LARGE_PR_REPO)!;
  const rng = new Rng(0x1a76e);
  const main = repo.branches.get(repo.mainbranch)!;
  const author = state.users[1]!;
  const keys = Array.from({ length: 60 }, (_, i) => `setting_${String(i + 1).padStart(2, "0")}`);
  const validator = [
    "package schema",
    "",
    "// Validate checks every setting against its declared type, range and owner.",
    "// A setting that fails is reported with the rule it broke, never silently dropped.",
    "",
    'import "fmt"',
    "",
    "type Rule struct {",
    "\tKey     string",
    "\tKind    string",
    "\tMin     int",
    "\tMax     int",
    "\tOwner   string",
    "}",
    "",
    "var Rules = []Rule{",
    ...keys.map(
      (k, i) =>
        `\t{Key: "${k}", Kind: "${["int", "duration", "bool", "string"][i % 4]}", Min: ${i}, Max: ${(i + 1) * 100}, Owner: "team-${(i % 5) + 1}"},`,
    ),
    "}",
    "",
    ...keys.flatMap((k, i) => [
      `// check_${k} enforces the bounds of ${k}.`,
      `func check_${k}(v int) error {`,
      `\tif v < ${i} || v > ${(i + 1) * 100} {`,
      `\t\treturn fmt.Errorf("${k}: %d is outside ${i}..${(i + 1) * 100}", v)`,
      "\t}",
      "\treturn nil",
      "}",
      "",
    ]),
  ];
  const table = [
    "package schema",
    "",
    "var cases = []struct {",
    "\tkey string",
    "\tin  int",
    "\tok  bool",
    "}{",
    ...keys.flatMap((k, i) => [`\t{"${k}", ${i}, true},`, `\t{"${k}", ${(i + 1) * 100 + 1}, false},`]),
    "}",
    "",
  ];
  const ops: FileOp[] = [
    { kind: "add", path: "internal/schema/validate.go", content: `${validator.join("\n")}\n` },
    { kind: "add", path: "internal/schema/validate_cases_test.go", content: `${table.join("\n")}\n` },
  ];
  const tip = [...repo.commits.values()].reduce((a, b) => (a.date > b.date ? a : b));
  const c: Commit = {
    hash: rng.hex(40),
    message: "Validate every setting against its schema",
    author,
    date: tip.date + HOUR,
    parents: [main],
    ops,
  };
  repo.commits.set(c.hash, c);
  const t = {
    message: c.message,
    branch: "feature/schema-validation",
    note: "Every setting is checked against its type, range and owner before it is served.",
  };
  repo.branches.set(t.branch, c.hash);
  const ctx: RepoSeed = { rng, state, repo, files: [], clock: c.date };
  addPullRequest(ctx, "OPEN", author, t, [c], main);
}

export function seedBitbucket(rng: Rng, accounts: SandboxCredentials = DEFAULT_CREDENTIALS): BitbucketState {
  const createdOn = (days: number) => SEED_EPOCH - days * DAY - rng.int(0, 1439) * 60_000;
  const me: User = {
    uuid: uuidOf(rng),
    accountId: DEFAULT_CREDENTIALS.atlassian.accountId,
    nickname: DEFAULT_CREDENTIALS.bitbucket.username,
    displayName: DEFAULT_CREDENTIALS.atlassian.displayName,
    createdOn: createdOn(1400),
  };
  const users: User[] = [
    me,
    // Ids drawn whoever it is (the rest of the data is unchanged); a linkable person keeps their fixed ones.
    ...PEOPLE.map(([nickname, displayName]) => ({
      ...castIds(accounts.people, nickname, { uuid: uuidOf(rng), accountId: `5d${rng.hex(22)}` }),
      nickname,
      displayName,
      createdOn: createdOn(rng.int(400, 1300)),
    })),
  ];
  const usersByKey = new Map<string, User>();
  for (const u of users) for (const key of [u.nickname, u.accountId, u.uuid]) usersByKey.set(key, u);
  const projects = PROJECTS.map(([key, name, description]) => {
    const created = createdOn(rng.int(900, 1200));
    return { key, uuid: uuidOf(rng), name, description, isPrivate: true, createdOn: created, updatedOn: created + rng.int(10, 800) * DAY };
  });
  const state: BitbucketState = {
    workspace: { ...WORKSPACE, uuid: uuidOf(rng), createdOn: createdOn(1500) },
    me,
    users,
    usersByKey,
    projects,
    projectsByKey: new Map(projects.map((p) => [p.key, p])),
    repos: [],
    reposBySlug: new Map(),
    nextCommentId: 480_000_000 + rng.int(0, 9_999_999),
    nextTaskId: 31_000_001,
    rng,
  };
  REPOS.forEach((cat, i) => {
    const repo = seedRepo(rng, state, cat, i);
    state.repos.push(repo);
    state.reposBySlug.set(repo.slug, repo);
  });
  addLargePullRequest(state);
  joinPeople(state, accounts.people);
  return state;
}
