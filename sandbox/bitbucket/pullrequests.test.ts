import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { client, REPOS } from "./test-client";

let sandbox: Sandbox;
const { call, getJson, all, someOpenPullRequest } = client(() => sandbox);

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe("Bitbucket sandbox: pull requests", () => {
  beforeEach(() => sandbox.reset());

  it("lists by state", async () => {
    const open = await getJson(`${REPOS}/api-gateway/pullrequests`);
    expect(open.values.length).toBeGreaterThan(0);
    expect(open.values.every((p: any) => p.state === "OPEN")).toBe(true);
    const merged = await getJson(`${REPOS}/api-gateway/pullrequests?state=MERGED`);
    expect(merged.values.every((p: any) => p.state === "MERGED" && p.merge_commit?.hash)).toBe(true);
    const several = await all(`${REPOS}/api-gateway/pullrequests?state=MERGED&state=DECLINED&state=SUPERSEDED&state=OPEN&pagelen=50`);
    expect(several.values.length).toBeGreaterThan(open.size);
    const pr = open.values[0];
    expect(pr).toMatchObject({
      type: "pullrequest",
      source: { branch: { name: expect.any(String) } },
      destination: { branch: { name: "main" } },
    });
    expect(pr.source.commit.hash).toMatch(/^[0-9a-f]{12}$/);
    expect((await call("GET", `${REPOS}/api-gateway/pullrequests?state=BOGUS`)).status).toBe(400);
    const q = await getJson(`${REPOS}/api-gateway/pullrequests?q=${encodeURIComponent('state = "MERGED"')}&pagelen=50`);
    expect(q.size).toBe(merged.size);
  });

  it("serves a pull request, its diff, diffstat and commits", async () => {
    const { slug, pr } = await someOpenPullRequest();
    expect((await getJson(`${REPOS}/${slug}/pullrequests/${pr.id}`)).id).toBe(pr.id);
    const res = await call("GET", `${REPOS}/${slug}/pullrequests/${pr.id}/diff`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("diff --git a/");
    const stat = await getJson(`${REPOS}/${slug}/pullrequests/${pr.id}/diffstat`);
    const added = text.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
    const removed = text.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---")).length;
    expect(stat.values.reduce((n: number, v: any) => n + v.lines_added, 0)).toBe(added);
    expect(stat.values.reduce((n: number, v: any) => n + v.lines_removed, 0)).toBe(removed);
    const commits = await getJson(`${REPOS}/${slug}/pullrequests/${pr.id}/commits`);
    expect(commits.values.length).toBeGreaterThan(0);
  });

  it("serves a pull request's diffstat as Bitbucket does: commit_file sides (null for an added or removed file), paged with pagelen", async () => {
    const { slug, pr } = await someOpenPullRequest();
    const stat = await getJson(`${REPOS}/${slug}/pullrequests/${pr.id}/diffstat`);
    expect(stat).toMatchObject({ pagelen: 500, page: 1, size: stat.values.length });
    expect(stat.next).toBeUndefined();
    for (const v of stat.values) {
      expect(v).toMatchObject({
        type: "diffstat",
        status: expect.stringMatching(/^(added|removed|modified)$/),
        lines_added: expect.any(Number),
        lines_removed: expect.any(Number),
      });
      const side = {
        type: "commit_file",
        path: expect.any(String),
        escaped_path: expect.any(String),
        links: { self: { href: expect.stringContaining(`/2.0/repositories/bridgekeeper/${slug}/src/`) } },
      };
      if (v.status === "added") expect(v.old).toBeNull();
      else expect(v.old).toMatchObject(side);
      if (v.status === "removed") expect(v.new).toBeNull();
      else expect(v.new).toMatchObject(side);
    }
    // One file a page: the same entries, following `next`.
    const paged: unknown[] = [];
    let next: string | undefined = `${REPOS}/${slug}/pullrequests/${pr.id}/diffstat?pagelen=1`;
    while (next) {
      const page = await getJson(next.replace(/^https?:\/\/[^/]+/, ""));
      expect(page.values.length).toBeLessThanOrEqual(1);
      paged.push(...page.values);
      next = page.next;
    }
    expect(paged).toEqual(stat.values);
    expect((await call("GET", `${REPOS}/${slug}/pullrequests/99999/diffstat`)).status).toBe(404);
  });

  it("adds a comment and lists it", async () => {
    const { slug, pr } = await someOpenPullRequest();
    const path = (await getJson(`${REPOS}/${slug}/pullrequests/${pr.id}/diffstat`)).values[0].new.path;
    const res = await call("POST", `${REPOS}/${slug}/pullrequests/${pr.id}/comments`, {
      content: { raw: "Please add a **test**." },
      inline: { path, to: 3 },
    });
    expect(res.status).toBe(201);
    const comment = (await res.json()) as any;
    expect(comment).toMatchObject({
      type: "pullrequest_comment",
      content: { raw: "Please add a **test**.", markup: "markdown" },
      inline: { path, to: 3 },
      user: { nickname: "demo" },
    });
    const { values } = await all(`${REPOS}/${slug}/pullrequests/${pr.id}/comments`);
    expect(values.map((c) => c.id)).toContain(comment.id);
    expect((await call("POST", `${REPOS}/${slug}/pullrequests/${pr.id}/comments`, { content: {} })).status).toBe(400);
  });

  it("approves then unapproves", async () => {
    const { slug, pr } = await someOpenPullRequest();
    const res = await call("POST", `${REPOS}/${slug}/pullrequests/${pr.id}/approve`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: "participant", approved: true, state: "approved", user: { nickname: "demo" } });
    const after = await getJson(`${REPOS}/${slug}/pullrequests/${pr.id}`);
    expect(after.participants.find((p: any) => p.user.nickname === "demo").approved).toBe(true);
    expect((await call("DELETE", `${REPOS}/${slug}/pullrequests/${pr.id}/approve`)).status).toBe(204);
    const again = await getJson(`${REPOS}/${slug}/pullrequests/${pr.id}`);
    expect(again.participants.find((p: any) => p.user.nickname === "demo").approved).toBe(false);
  });

  it("merges an open pull request once", async () => {
    let merged: any = null;
    let slug = "";
    for (let i = 0; !merged; i++) {
      const candidate = await someOpenPullRequest(i);
      const res = await call("POST", `${REPOS}/${candidate.slug}/pullrequests/${candidate.pr.id}/merge`, {
        merge_strategy: "merge_commit",
      });
      if (res.status === 409) continue;
      expect(res.status).toBe(200);
      merged = await res.json();
      slug = candidate.slug;
    }
    expect(merged).toMatchObject({
      state: "MERGED",
      closed_by: { nickname: "demo" },
      merge_commit: { hash: expect.stringMatching(/^[0-9a-f]{12}$/) },
    });
    const main = await getJson(`${REPOS}/${slug}/refs/branches/main`);
    expect(main.target.hash.startsWith(merged.merge_commit.hash)).toBe(true);
    expect(main.target.parents).toHaveLength(2);
    const again = await call("POST", `${REPOS}/${slug}/pullrequests/${merged.id}/merge`);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ type: "error", error: { message: expect.stringContaining("merged") } });
    expect((await getJson(`${REPOS}/${slug}/pullrequests/${merged.id}`)).state).toBe("MERGED");
  });

  it("creates a pull request", async () => {
    const { slug, pr } = await someOpenPullRequest();
    const declined = await call("POST", `${REPOS}/${slug}/pullrequests/${pr.id}/decline`);
    expect(((await declined.json()) as any).state).toBe("DECLINED");
    const missingTitle = await call("POST", `${REPOS}/${slug}/pullrequests`, { source: { branch: { name: pr.source.branch.name } } });
    expect(missingTitle.status).toBe(400);
    expect(((await missingTitle.json()) as any).error.fields).toHaveProperty("title");
    const res = await call("POST", `${REPOS}/${slug}/pullrequests`, {
      title: "Sandbox pull request",
      description: "Opened by the test suite.",
      source: { branch: { name: pr.source.branch.name } },
      destination: { branch: { name: "main" } },
      reviewers: [{ nickname: "alice.nguyen" }],
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as any;
    expect(created).toMatchObject({
      state: "OPEN",
      title: "Sandbox pull request",
      author: { nickname: "demo" },
      reviewers: [{ nickname: "alice.nguyen" }],
    });
    expect(created.id).toBeGreaterThan(pr.id);
    const updated = await call("PUT", `${REPOS}/${slug}/pullrequests/${created.id}`, { title: "Renamed" });
    expect(((await updated.json()) as any).title).toBe("Renamed");
    expect((await call("POST", `${REPOS}/${slug}/pullrequests`, { title: "x", source: { branch: { name: "main" } } })).status).toBe(400);
    expect((await call("POST", `${REPOS}/${slug}/pullrequests`, { title: "x", source: { branch: { name: "nope" } } })).status).toBe(400);
  });
});
