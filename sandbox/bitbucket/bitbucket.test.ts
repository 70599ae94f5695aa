import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { AUTH, client, REPOS } from "./test-client";

let sandbox: Sandbox;
const { call, getJson, all } = client(() => sandbox);

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe("Bitbucket sandbox: account and workspace", () => {
  it("returns the authenticated user", async () => {
    const user = await getJson("/2.0/user");
    expect(user).toMatchObject({ type: "user", username: "demo", nickname: "demo", account_status: "active" });
    expect(user.uuid).toMatch(/^\{[0-9a-f-]{36}\}$/);
    expect(user.links.self.href).toContain(`${sandbox.url}/2.0/users/`);
  });

  it("lists the workspace, its members and projects", async () => {
    const perms = await getJson("/2.0/user/permissions/workspaces");
    expect(perms.values[0]).toMatchObject({
      type: "workspace_membership",
      permission: "owner",
      workspace: { slug: "bridgekeeper", name: "Bridgekeeper" },
    });
    expect((await getJson("/2.0/workspaces")).values[0].slug).toBe("bridgekeeper");
    expect(await getJson("/2.0/workspaces/bridgekeeper")).toMatchObject({ type: "workspace", slug: "bridgekeeper" });
    const members = await getJson("/2.0/workspaces/bridgekeeper/members");
    expect(members.size).toBeGreaterThanOrEqual(4);
    expect(members.values.every((m: any) => m.type === "workspace_membership" && m.user.type === "user")).toBe(true);
    const projects = await getJson("/2.0/workspaces/bridgekeeper/projects");
    expect(projects.values.map((p: any) => p.key)).toEqual(["PLAT", "WEB", "DATA"]);
  });
});

describe("Bitbucket sandbox: repositories", () => {
  it("paginates the 30 repositories through next links", async () => {
    const { values, pages } = await all(`${REPOS}?pagelen=7`);
    expect(new Set(values.map((r) => r.slug)).size).toBe(30);
    expect(values).toHaveLength(30);
    expect(pages).toHaveLength(5);
    for (const p of pages) expect(p).toMatchObject({ size: 30, pagelen: 7 });
    expect(pages[0].next).toMatch(new RegExp(`^${sandbox.url}${REPOS}\\?.*page=2`));
    expect(pages[1].previous).toContain("page=1");
    expect(pages[4].next).toBeUndefined();
    const repo = values[0];
    expect(repo).toMatchObject({
      type: "repository",
      scm: "git",
      mainbranch: { name: "main", type: "branch" },
      workspace: { slug: "bridgekeeper" },
    });
    expect(repo.full_name).toBe(`bridgekeeper/${repo.slug}`);
  });

  it("filters with q and sorts", async () => {
    const api = await getJson(`${REPOS}?q=${encodeURIComponent('name ~ "api"')}&pagelen=100`);
    expect(api.values.map((r: any) => r.slug)).toEqual(expect.arrayContaining(["api-gateway", "payments-api"]));
    expect(api.values.every((r: any) => r.name.includes("api"))).toBe(true);
    const data = await getJson(`${REPOS}?q=${encodeURIComponent('project.key = "DATA"')}&pagelen=100`);
    expect(data.size).toBe(10);
    const combined = await getJson(`${REPOS}?q=${encodeURIComponent('project.key = "PLAT" AND language = "go"')}`);
    expect(combined.values.every((r: any) => r.project.key === "PLAT" && r.language === "go")).toBe(true);
    const sorted = await getJson(`${REPOS}?sort=-updated_on&pagelen=30`);
    const dates = sorted.values.map((r: any) => r.updated_on);
    expect(dates).toEqual([...dates].sort().reverse());
    const bad = await call("GET", `${REPOS}?q=${encodeURIComponent("nope = 1")}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: "error", error: { message: expect.stringContaining("nope") } });
  });

  it("gets one repository", async () => {
    const repo = await getJson(`${REPOS}/api-gateway`);
    expect(repo).toMatchObject({
      slug: "api-gateway",
      language: "typescript",
      project: { key: "PLAT", type: "project" },
      is_private: true,
    });
    expect(repo.links.clone.map((c: any) => c.name)).toEqual(["https", "ssh"]);
  });
});

describe("Bitbucket sandbox: branches, commits, source", () => {
  it("paginates branches and gets one", async () => {
    const first = await getJson(`${REPOS}/auth-service/refs/branches?pagelen=1`);
    const { values } = await all(`${REPOS}/auth-service/refs/branches?pagelen=1`);
    expect(values).toHaveLength(first.size);
    expect(first.size).toBeGreaterThanOrEqual(2);
    expect(values[0]).toMatchObject({ type: "branch", name: "main", target: { type: "commit" } });
    const main = await getJson(`${REPOS}/auth-service/refs/branches/main`);
    expect(main.target.hash).toMatch(/^[0-9a-f]{40}$/);
    const filtered = await getJson(`${REPOS}/auth-service/refs/branches?q=${encodeURIComponent('name ~ "mai"')}`);
    expect(filtered.values.map((b: any) => b.name)).toEqual(["main"]);
  });

  it("paginates commits newest first and gets one", async () => {
    const page1 = await getJson(`${REPOS}/api-gateway/commits/main?pagelen=5`);
    expect(page1.values).toHaveLength(5);
    expect(page1.size).toBeUndefined();
    const page2 = await getJson(page1.next);
    const hashes = [...page1.values, ...page2.values].map((c: any) => c.hash);
    expect(new Set(hashes).size).toBe(10);
    const dates = [...page1.values, ...page2.values].map((c: any) => c.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const c = page1.values[0];
    expect(c).toMatchObject({
      type: "commit",
      author: { type: "author", user: { type: "user" } },
      repository: { full_name: "bridgekeeper/api-gateway" },
    });
    expect(c.author.raw).toMatch(/^.+ <.+@.+>$/);
    const one = await getJson(`${REPOS}/api-gateway/commit/${c.hash}`);
    expect(one.hash).toBe(c.hash);
    expect(one.parents[0].hash).toMatch(/^[0-9a-f]{40}$/);
    const total = (await all(`${REPOS}/api-gateway/commits?pagelen=100`)).values.length;
    expect(total).toBeGreaterThanOrEqual(20);
    expect(total).toBeLessThanOrEqual(60);
  });

  it("serves a commit's diff and diffstat", async () => {
    const [c] = (await getJson(`${REPOS}/billing-service/commits/main?pagelen=1`)).values;
    const res = await call("GET", `${REPOS}/billing-service/diff/${c.hash}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/^diff --git a\//);
    const stat = await getJson(`${REPOS}/billing-service/diffstat/${c.hash}`);
    expect(stat.values.length).toBe(text.split("diff --git").length - 1);
    expect(stat.values[0]).toMatchObject({ type: "diffstat", status: expect.stringMatching(/added|modified|removed/) });
  });

  it("lists directories and serves raw files", async () => {
    const root = await getJson(`${REPOS}/api-gateway/src`);
    const byPath = new Map(root.values.map((e: any) => [e.path, e]));
    expect(byPath.get("README.md")).toMatchObject({ type: "commit_file", commit: { type: "commit" } });
    expect(byPath.get("src")).toMatchObject({ type: "commit_directory" });
    const src = await getJson(`${REPOS}/api-gateway/src/main/src/`);
    expect(src.values.every((e: any) => e.path.startsWith("src/"))).toBe(true);
    const raw = await call("GET", `${REPOS}/api-gateway/src/main/README.md`);
    expect(raw.status).toBe(200);
    expect(await raw.text()).toMatch(/^# API Gateway\n/);
    const meta = await getJson(`${REPOS}/api-gateway/src/main/package.json?format=meta`);
    expect(meta).toMatchObject({ type: "commit_file", path: "package.json", size: expect.any(Number) });
    const missing = await call("GET", `${REPOS}/api-gateway/src/main/nope.txt`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: "error", error: { message: expect.any(String) } });
  });

  it("creates a branch", async () => {
    sandbox.reset();
    const main = await getJson(`${REPOS}/rate-limiter/refs/branches/main`);
    const created = await call("POST", `${REPOS}/rate-limiter/refs/branches`, {
      name: "feature/sandbox-test",
      target: { hash: main.target.hash },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: "feature/sandbox-test", target: { hash: main.target.hash } });
    expect((await getJson(`${REPOS}/rate-limiter/refs/branches/feature/sandbox-test`)).name).toBe("feature/sandbox-test");
    expect(
      (await call("POST", `${REPOS}/rate-limiter/refs/branches`, { name: "feature/sandbox-test", target: { hash: main.target.hash } }))
        .status,
    ).toBe(400);
    expect((await call("POST", `${REPOS}/rate-limiter/refs/branches`, { name: "x" })).status).toBe(400);
  });
});

describe("Bitbucket sandbox: code search, errors, determinism", () => {
  it("searches code with a repo qualifier", async () => {
    const res = await getJson(
      `/2.0/workspaces/bridgekeeper/search/code?search_query=${encodeURIComponent("repo:api-gateway healthCheck")}`,
    );
    expect(res).toMatchObject({ query_substituted: false, page: 1 });
    expect(res.size).toBeGreaterThan(0);
    for (const v of res.values) {
      expect(v.type).toBe("code_search_result");
      expect(v.file.commit.repository.full_name).toBe("bridgekeeper/api-gateway");
      expect(v.file.type).toBe("commit_file");
    }
    const segments = res.values.flatMap((v: any) => v.content_matches.flatMap((m: any) => m.lines.flatMap((l: any) => l.segments)));
    expect(segments.some((s: any) => s.match === true && s.text.toLowerCase() === "healthcheck")).toBe(true);
    const py = await getJson(`/2.0/workspaces/bridgekeeper/search/code?search_query=${encodeURIComponent("lang:python settings")}`);
    expect(py.size).toBeGreaterThan(0);
    expect(py.values.every((v: any) => v.file.path.endsWith(".py"))).toBe(true);
  });

  it("answers 404 and 401 with Bitbucket's error shape", async () => {
    for (const path of [
      `${REPOS}/nope`,
      `${REPOS}/api-gateway/pullrequests/9999`,
      `${REPOS}/api-gateway/commit/deadbeef`,
      "/2.0/workspaces/other",
    ]) {
      const res = await call("GET", path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ type: "error", error: { message: expect.any(String) } });
    }
    const unauthorised = await fetch(`${sandbox.url}/2.0/user`, {
      headers: { authorization: `Basic ${Buffer.from("demo:wrong").toString("base64")}` },
    });
    expect(unauthorised.status).toBe(401);
    expect(await unauthorised.json()).toMatchObject({ type: "error" });
  });

  it("is deterministic for a seed", async () => {
    sandbox.reset();
    const other = await startSandbox({ seed: 20_260_105 });
    const different = await startSandbox({ seed: 7 });
    try {
      const snapshot = async (url: string) => {
        const paths = [
          `${REPOS}?pagelen=30`,
          `${REPOS}/ml-models/commits/main`,
          `${REPOS}/ml-models/pullrequests?state=MERGED`,
          `${REPOS}/ml-models/diff/main`,
        ];
        const out: string[] = [];
        for (const p of paths) {
          const res = await fetch(`${url}${p}`, { headers: { authorization: AUTH } });
          const text = (await res.text()).replaceAll(new URL(url).host, "HOST");
          out.push(createHash("sha256").update(text).digest("hex"));
        }
        return out;
      };
      const [a, b, c] = await Promise.all([snapshot(sandbox.url), snapshot(other.url), snapshot(different.url)]);
      expect(a).toEqual(b);
      expect(a[1]).not.toEqual(c[1]);
    } finally {
      await other.close();
      await different.close();
    }
  });
});
