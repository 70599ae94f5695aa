import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";

/**
 * The Bitbucket Data Center flavour over HTTP: REST 1.0's shapes (pages of start/limit/isLastPage/
 * nextPageStart, `{errors: [...]}`), who sees what, personal projects, versions on pull requests
 * and comments, BLOCKER comments as tasks, and code search.
 */
let sandbox: Sandbox;
const PAT = "Bearer sandbox-dc-pat";
const PRIYA = "Bearer sandbox-dc-pat-priya";
const API = "/rest/api/1.0";
const REPO = `${API}/projects/PLAT/repos/api-gateway`;

async function call(
  method: string,
  path: string,
  body?: unknown,
  authorization = PAT,
): Promise<{ status: number; json: any; text: string; headers: Headers }> {
  const res = await fetch(`${sandbox.dataCenter.bitbucket}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text, headers: res.headers };
}
const get = (path: string, authorization = PAT) => call("GET", path, undefined, authorization);
const openPr = () => {
  const repo = sandbox.state("bitbucket", "datacenter").reposBySlug.get("api-gateway")!;
  return [...repo.pullRequests.values()].find((p) => p.state === "OPEN" && !p.conflict && p.author.nickname !== "demo")!;
};

beforeAll(async () => {
  sandbox = await startSandbox();
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

describe("Bitbucket DC sandbox: the server, projects and repositories", () => {
  it("answers application-properties with DC's version, and names the caller in X-AUSERNAME", async () => {
    const props = await get(`${API}/application-properties`);
    expect(props.json).toEqual({ version: "9.4.2", buildNumber: "9004002", buildDate: expect.any(String), displayName: "Bitbucket" });
    expect(props.headers.get("x-ausername")).toBe("demo");
    expect((await get(`${API}/application-properties`, PRIYA)).headers.get("x-ausername")).toBe("priya.raman");
    expect((await get("/rest/api/latest/application-properties")).status).toBe(200);
    const refused = await get(`${API}/projects`, "Bearer wrong");
    expect(refused.status).toBe(401);
    expect(refused.json.errors[0]).toMatchObject({ message: expect.any(String), exceptionName: expect.stringContaining("Authorisation") });
  });

  it("pages projects and repositories with start/limit/isLastPage/nextPageStart, in DC's shapes", async () => {
    const projects = await get(`${API}/projects`);
    expect(projects.json).toMatchObject({ size: 3, limit: 25, isLastPage: true, start: 0 });
    expect(projects.json.values[0]).toEqual({
      key: "PLAT",
      id: 1,
      name: "Platform",
      description: expect.any(String),
      public: false,
      type: "NORMAL",
      links: { self: [{ href: `${sandbox.dataCenter.bitbucket}/projects/PLAT` }] },
    });
    const page = await get(`${API}/projects/PLAT/repos?limit=4&start=4`);
    expect(page.json).toMatchObject({ size: 4, limit: 4, isLastPage: false, start: 4, nextPageStart: 8 });
    const repo = page.json.values[0];
    expect(repo).toMatchObject({ scmId: "git", state: "AVAILABLE", forkable: true, public: false, project: { key: "PLAT" } });
    expect(repo.links.clone.map((c: any) => c.name)).toEqual(["http", "ssh"]);
    expect((await get(`${API}/projects/PLAT/repos?start=-1`)).status).toBe(400);
    const missing = await get(`${API}/projects/PLAT/repos/web-frontend`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      errors: [
        {
          context: null,
          message: "Repository PLAT/web-frontend does not exist.",
          exceptionName: "com.atlassian.bitbucket.NoSuchEntityException",
        },
      ],
    });
  });

  it("a person sees only their repositories and projects; Priya's personal project only she (and the service account)", async () => {
    const mine = await get(`${API}/repos?limit=100`, PRIYA);
    expect(mine.json.values.map((r: any) => `${r.project.key}/${r.slug}`)).toContain("~PRIYA.RAMAN/oncall-notes");
    expect(mine.json.values.some((r: any) => r.project.key === "DATA")).toBe(false);
    expect((await get(`${API}/projects`, PRIYA)).json.values.map((p: any) => p.key)).toEqual(["PLAT", "WEB"]);
    const personal = await get(`${API}/projects/~priya.raman`, PRIYA);
    expect(personal.json).toMatchObject({ key: "~PRIYA.RAMAN", type: "PERSONAL", owner: { name: "priya.raman" } });
    const marcus = "Bearer sandbox-dc-pat-marcus";
    expect((await get(`${API}/projects/~PRIYA.RAMAN/repos/oncall-notes`, marcus)).status).toBe(404);
    expect((await get(`${API}/projects/DATA/repos/etl-pipelines`, PRIYA)).status).toBe(404);
    expect((await get(`${API}/projects/~PRIYA.RAMAN/repos/oncall-notes`)).status).toBe(200);
  });

  it("branches (with the latest-commit metadata), the default branch both ways, commits until a ref, changes, diffs, files", async () => {
    const branches = await get(`${REPO}/branches?details=true`);
    const main = branches.json.values.find((b: any) => b.displayId === "main");
    expect(main).toMatchObject({ id: "refs/heads/main", type: "BRANCH", isDefault: true });
    expect(main.metadata["com.atlassian.bitbucket.server.bitbucket-branch:latest-commit-metadata"].id).toBe(main.latestCommit);
    expect((await get(`${REPO}/default-branch`)).json).toEqual({ id: "refs/heads/main", displayId: "main", type: "BRANCH" });
    expect((await get(`${REPO}/branches/default`)).json).toMatchObject({ displayId: "main", isDefault: true });
    const commits = await get(`${REPO}/commits?until=main&limit=2`);
    expect(commits.json.values[0]).toMatchObject({
      id: main.latestCommit,
      authorTimestamp: expect.any(Number),
      parents: [{ id: expect.any(String) }],
    });
    const changes = await get(`${REPO}/commits/${main.latestCommit}/changes`);
    expect(changes.json.values[0]).toMatchObject({
      type: expect.stringMatching(/^(ADD|MODIFY|DELETE)$/),
      nodeType: "FILE",
      path: { toString: expect.any(String) },
    });
    const diff = await get(`${REPO}/commits/${main.latestCommit}/diff`);
    expect(diff.json.diffs[0].hunks[0]).toMatchObject({ sourceLine: expect.any(Number), destinationSpan: expect.any(Number) });
    expect(diff.json.diffs[0].hunks[0].segments[0].type).toMatch(/^(ADDED|REMOVED|CONTEXT)$/);
    expect((await get(`${REPO}/commits/0000000000/diff`)).status).toBe(404);
    expect((await get(`${REPO}/browse/README.md?type=true`)).json).toEqual({ type: "FILE" });
    expect((await get(`${REPO}/browse/src?type=true`)).json).toEqual({ type: "DIRECTORY" });
    expect((await get(`${REPO}/browse/README.md?limit=1`)).json).toMatchObject({ lines: [{ text: "# API Gateway" }], isLastPage: false });
    expect((await get(`${REPO}/raw/README.md?at=refs/heads/main`)).text).toMatch(/^# API Gateway\n/);
    const created = await call("POST", `/rest/branch-utils/1.0/projects/PLAT/repos/api-gateway/branches`, {
      name: "x/y",
      startPoint: "main",
    });
    expect(created.json).toMatchObject({ id: "refs/heads/x/y", latestCommit: main.latestCommit });
    expect((await call("POST", `${REPO}/branches`, { name: "x/y", startPoint: "main" })).status).toBe(409);
  });
});

describe("Bitbucket DC sandbox: pull requests", () => {
  it("a pull request's DC shape, and its updates guarded by its version (409 PullRequestOutOfDateException)", async () => {
    const pr = openPr();
    const read = await get(`${REPO}/pull-requests/${pr.id}`);
    expect(read.json).toMatchObject({
      id: pr.id,
      version: 0,
      state: "OPEN",
      open: true,
      fromRef: { id: `refs/heads/${pr.source.branch}`, repository: { slug: "api-gateway" } },
      toRef: { id: "refs/heads/main" },
      author: { role: "AUTHOR", user: { name: pr.author.nickname } },
      properties: { commentCount: expect.any(Number), openTaskCount: expect.any(Number) },
    });
    const update = (version: unknown) =>
      call("PUT", `${REPO}/pull-requests/${pr.id}`, { version, title: "Edited", reviewers: read.json.reviewers });
    expect((await update(undefined)).status).toBe(400);
    const ok = await update(0);
    expect(ok.json).toMatchObject({ title: "Edited", version: 1 });
    const stale = await update(0);
    expect(stale.status).toBe(409);
    expect(stale.json.errors[0]).toMatchObject({
      exceptionName: "com.atlassian.bitbucket.pull.PullRequestOutOfDateException",
      currentVersion: 1,
      expectedVersion: 0,
    });
    expect((await call("POST", `${REPO}/pull-requests/${pr.id}/merge?version=0`)).status).toBe(409);
    expect((await call("POST", `${REPO}/pull-requests/${pr.id}/decline?version=1`)).json).toMatchObject({ state: "DECLINED", version: 2 });
    expect((await get(`${REPO}/pull-requests/${pr.id}.diff`)).text).toMatch(/^diff --git a\//);
  });

  it("comments anchored to a line, replies nested, thread resolution and tasks at the comment's version", async () => {
    const pr = openPr();
    const path = `${REPO}/pull-requests/${pr.id}`;
    const bad = await call("POST", `${path}/comments`, { text: "x", anchor: { path: "a.ts", line: 1, lineType: "MOVED" } });
    expect(bad.status).toBe(400);
    const top = await call("POST", `${path}/comments`, {
      text: "On a line",
      anchor: { path: "src/a.ts", line: 3, lineType: "ADDED", fileType: "TO", diffType: "EFFECTIVE" },
    });
    expect(top.status).toBe(201);
    expect(top.json).toMatchObject({
      version: 0,
      severity: "NORMAL",
      anchor: { path: "src/a.ts", line: 3, lineType: "ADDED", fileType: "TO" },
    });
    const reply = await call("POST", `${path}/comments`, { text: "A reply", parent: { id: top.json.id } });
    const task = await call("POST", `${path}/comments`, { text: "Do it", severity: "BLOCKER", parent: { id: top.json.id } });
    expect(task.json).toMatchObject({ severity: "BLOCKER", state: "OPEN" });
    const thread = await get(`${path}/comments/${top.json.id}`);
    expect(thread.json.comments.map((c: any) => c.id)).toEqual([reply.json.id, task.json.id]);
    const resolve = (version: number) => call("PUT", `${path}/comments/${top.json.id}`, { version, threadResolved: true });
    expect((await resolve(0)).json).toMatchObject({ threadResolved: true, version: 1, threadResolver: { name: "demo" } });
    expect((await resolve(0)).json.errors[0].exceptionName).toBe("com.atlassian.bitbucket.comment.CommentOutOfDateException");
    expect((await call("PUT", `${path}/comments/${reply.json.id}`, { version: 0, threadResolved: true })).status).toBe(400);
    expect((await call("PUT", `${path}/comments/${task.json.id}`, { version: 0, state: "RESOLVED" })).json).toMatchObject({
      state: "RESOLVED",
      resolver: { name: "demo" },
    });
    const blockers = await get(`${path}/blocker-comments?state=RESOLVED`);
    expect(blockers.json.values.map((c: any) => c.id)).toEqual([task.json.id]);
    const activities = await get(`${path}/activities?limit=100`);
    expect(activities.json.values[0]).toMatchObject({ action: "COMMENTED" });
    expect(activities.json.values.at(-1)).toMatchObject({ action: "OPENED" });
  });

  it("review status is the caller's own, never the author's", async () => {
    const pr = openPr();
    const path = `${REPO}/pull-requests/${pr.id}/participants`;
    expect((await call("PUT", `${path}/demo`, { status: "NEEDS_WORK" })).json).toMatchObject({
      status: "NEEDS_WORK",
      approved: false,
      user: { name: "demo" },
    });
    expect((await call("PUT", `${path}/demo`, { status: "MAYBE" })).status).toBe(400);
    expect((await call("PUT", `${path}/${pr.author.nickname}`, { status: "APPROVED" })).status).toBe(400);
    expect((await call("POST", `${REPO}/pull-requests/${pr.id}/approve`)).json).toMatchObject({ status: "APPROVED", approved: true });
  });

  it("code search: DC's request and answer, narrowed to a project, for what the caller may see", async () => {
    const search = (query: string, authorization = PAT) =>
      call(
        "POST",
        "/rest/search/latest/search",
        { query, entities: { code: { start: 0, limit: 5 } }, limits: { primary: 5, secondary: 5 } },
        authorization,
      );
    const found = await search("project:PLAT retry");
    expect(found.json).toMatchObject({
      scope: { type: "PROJECT" },
      code: { category: "primary", start: 0, isLastPage: false, nextStart: 5 },
    });
    const hit = found.json.code.values[0];
    expect(hit).toMatchObject({ repository: { project: { key: "PLAT" } }, file: expect.any(String), hitCount: expect.any(Number) });
    expect(hit.hitContexts.flat().some((l: any) => /<em>retry<\/em>/i.test(l.text))).toBe(true);
    const priya = await search("retry", PRIYA);
    expect(priya.json.code.values.every((v: any) => v.repository.project.key !== "DATA")).toBe(true);
    expect((await search("project:PLAT")).status).toBe(400);
  });
});
