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

describe("Bitbucket sandbox: pull request activity, tasks and resolved comments", () => {
  beforeEach(() => sandbox.reset());

  it("lists the activity newest first: opening, approvals, comments and edits", async () => {
    const { slug, pr } = await someOpenPullRequest();
    const base = `${REPOS}/${slug}/pullrequests/${pr.id}`;
    const before = await all(`${base}/activity?pagelen=2`);
    const last = before.values.at(-1);
    expect(last.update).toMatchObject({
      state: "OPEN",
      author: { nickname: pr.author.nickname },
      source: { branch: { name: pr.source.branch.name } },
    });
    expect(last.pull_request).toMatchObject({ type: "pullrequest", id: pr.id });
    const dates = before.values.map((e: any) =>
      Date.parse((e.update ?? e.approval ?? e.changes_requested ?? e.comment).date ?? e.comment.created_on),
    );
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(before.values.filter((e: any) => e.comment).length).toBe((await all(`${base}/comments`)).values.length);

    expect((await call("POST", `${base}/approve`)).status).toBe(200);
    expect((await call("PUT", base, { title: "Renamed for the activity" })).status).toBe(200);
    const after = (await getJson(`${base}/activity`)).values;
    expect(after[0].update).toMatchObject({
      state: "OPEN",
      title: "Renamed for the activity",
      author: { nickname: "demo" },
      changes: { title: { old: pr.title, new: "Renamed for the activity" } },
    });
    expect(after[1].approval).toMatchObject({ user: { nickname: "demo" }, pullrequest: { id: pr.id } });
    // Paged like every Bitbucket list, through absolute next links.
    const paged = await all(`${base}/activity?pagelen=2`);
    expect(paged.pages[0].next).toContain("page=2");
    expect(paged.values).toEqual(after);

    const merged = (await getJson(`${REPOS}/${slug}/pullrequests?state=MERGED`)).values[0];
    const closed = (await getJson(`${REPOS}/${slug}/pullrequests/${merged.id}/activity`)).values;
    expect(closed[0].update ?? closed.find((e: any) => e.update?.state === "MERGED")?.update).toBeDefined();
    expect(closed.some((e: any) => e.update?.state === "MERGED")).toBe(true);
    expect((await call("GET", `${REPOS}/${slug}/pullrequests/99999/activity`)).status).toBe(404);
  });

  it("lists, creates, resolves and deletes tasks; task_count counts the unresolved ones", async () => {
    const { slug, pr } = await someOpenPullRequest();
    const base = `${REPOS}/${slug}/pullrequests/${pr.id}`;
    const seeded = (await all(`${base}/tasks`)).values;
    expect(seeded.filter((t: any) => t.state === "UNRESOLVED")).toHaveLength(pr.task_count);

    const comment = (await (await call("POST", `${base}/comments`, { content: { raw: "Needs a test." } })).json()) as any;
    const res = await call("POST", `${base}/tasks`, { content: { raw: "Add the **test**" }, comment: { id: comment.id } });
    expect(res.status).toBe(201);
    const task = (await res.json()) as any;
    expect(task).toMatchObject({
      state: "UNRESOLVED",
      content: { raw: "Add the **test**", markup: "markdown" },
      creator: { nickname: "demo" },
      comment: { id: comment.id },
      resolved_on: null,
      pending: false,
    });
    expect(res.headers.get("location")).toBe(task.links.self.href);
    expect((await getJson(base)).task_count).toBe(pr.task_count + 1);

    const resolved = (await (await call("PUT", `${base}/tasks/${task.id}`, { state: "RESOLVED" })).json()) as any;
    expect(resolved).toMatchObject({ state: "RESOLVED", resolved_by: { nickname: "demo" }, resolved_on: expect.any(String) });
    expect((await getJson(base)).task_count).toBe(pr.task_count);
    expect((await getJson(`${base}/tasks/${task.id}`)).state).toBe("RESOLVED");
    const reopened = (await (await call("PUT", `${base}/tasks/${task.id}`, { state: "UNRESOLVED" })).json()) as any;
    expect(reopened).toMatchObject({ state: "UNRESOLVED", resolved_by: null });

    const bad = await call("PUT", `${base}/tasks/${task.id}`, { state: "DONE" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.fields).toHaveProperty("state");
    expect((await call("POST", `${base}/tasks`, { content: { raw: "" } })).status).toBe(400);
    expect((await call("POST", `${base}/tasks`, { content: { raw: "x" }, comment: { id: 1 } })).status).toBe(400);
    expect((await call("PUT", `${base}/tasks/1`, { state: "RESOLVED" })).status).toBe(404);
    expect((await call("DELETE", `${base}/tasks/${task.id}`)).status).toBe(204);
    expect((await call("GET", `${base}/tasks/${task.id}`)).status).toBe(404);
    expect((await getJson(base)).task_count).toBe(pr.task_count);
  });

  it("resolves a comment thread and reopens it", async () => {
    const { slug, pr } = await someOpenPullRequest();
    const base = `${REPOS}/${slug}/pullrequests/${pr.id}`;
    const top = (await (await call("POST", `${base}/comments`, { content: { raw: "Top" } })).json()) as any;
    const reply = (await (await call("POST", `${base}/comments`, { content: { raw: "Reply" }, parent: { id: top.id } })).json()) as any;
    const res = await call("POST", `${base}/comments/${top.id}/resolve`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: "comment_resolution", user: { nickname: "demo" }, created_on: expect.any(String) });
    expect((await getJson(`${base}/comments/${top.id}`)).resolution).toMatchObject({ type: "comment_resolution" });
    expect((await call("POST", `${base}/comments/${top.id}/resolve`)).status).toBe(409);
    expect((await call("POST", `${base}/comments/${reply.id}/resolve`)).status).toBe(400);
    expect((await call("DELETE", `${base}/comments/${top.id}/resolve`)).status).toBe(204);
    expect((await getJson(`${base}/comments/${top.id}`)).resolution).toBeUndefined();
    expect((await call("DELETE", `${base}/comments/${top.id}/resolve`)).status).toBe(409);
    expect((await call("POST", `${base}/comments/1/resolve`)).status).toBe(404);
  });
});
