// @pglite-only: sandbox
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { DEFAULT_PEOPLE } from "./people";
import { basic, caller } from "./testkit";

/**
 * Bitbucket as a person, by their Atlassian email and API token: /2.0/user is them (the same
 * account id as in Jira), they list and reach only their repositories (any other is Bitbucket's
 * 404, everything under it too), code search stays inside them, and their pull request work is theirs.
 */

let sandbox: Sandbox;
const { call } = caller(() => sandbox);
const [priya, marcus] = DEFAULT_PEOPLE as [(typeof DEFAULT_PEOPLE)[0], (typeof DEFAULT_PEOPLE)[0]];
const PRIYA = basic(priya.email, priya.apiToken);
const MARCUS = basic(marcus.email, marcus.apiToken);
const SERVICE = basic("demo", "sandbox-app-password");
const REPOS = "/2.0/repositories/bridgekeeper";

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const slugs = async (auth: string) => {
  const page = await call(`${REPOS}?pagelen=100`, { auth });
  expect(page.status).toBe(200);
  expect(page.body.size).toBe(page.body.values.length);
  return (page.body.values as any[]).map((r) => r.slug as string);
};

describe("what each person sees in Bitbucket", () => {
  it("answers /2.0/user with the person: their account id is the one Jira knows", async () => {
    const me = await call("/2.0/user", { auth: PRIYA });
    expect(me.body).toMatchObject({ display_name: "Priya Raman", account_id: priya.accountId, uuid: priya.uuid, nickname: priya.nickname });
    expect((await call("/rest/api/3/myself", { auth: PRIYA })).body.accountId).toBe(me.body.account_id);
    expect((await call("/2.0/user", { auth: SERVICE })).body.nickname).toBe("demo");
  });

  it("lists each person's repositories only (with the size), and the service account every one", async () => {
    const all = await slugs(SERVICE);
    const hers = await slugs(PRIYA);
    const his = await slugs(MARCUS);
    expect(all).toHaveLength(30);
    expect(new Set(hers)).toEqual(new Set(priya.bitbucketRepos));
    expect(new Set(his)).toEqual(new Set(marcus.bitbucketRepos));
    expect(hers.filter((s) => his.includes(s))).toEqual([]);
    expect(hers.length + his.length).toBe(all.length);
  });

  it("answers a repository the person may not see, and everything under it, with Bitbucket's 404", async () => {
    const hidden = "etl-pipelines";
    expect(priya.bitbucketRepos).not.toContain(hidden);
    const repo = await call(`${REPOS}/${hidden}`, { auth: PRIYA });
    expect(repo.status).toBe(404);
    expect(repo.body).toEqual({ type: "error", error: { message: `Repository bridgekeeper/${hidden} not found` } });
    for (const sub of ["/pullrequests", "/pullrequests/1", "/src", "/commits", "/refs/branches", "/diff/main..main"])
      expect((await call(`${REPOS}/${hidden}${sub}`, { auth: PRIYA })).status, sub).toBe(404);
    expect((await call(`${REPOS}/${hidden}/pullrequests`, { auth: MARCUS })).status).toBe(200);
  });

  it("keeps code search inside the person's repositories", async () => {
    const search = async (auth: string) =>
      (await call(`/2.0/workspaces/bridgekeeper/search/code?search_query=${encodeURIComponent("function")}&pagelen=100`, { auth })).body;
    const repoOf = (r: any) => r.file.commit.repository.full_name.split("/")[1] as string;
    const all = await search(SERVICE);
    const hers = await search(PRIYA);
    expect(hers.size).toBeGreaterThan(0);
    expect(hers.size).toBeLessThan(all.size);
    expect(hers.values.every((r: any) => priya.bitbucketRepos.includes(repoOf(r)))).toBe(true);
    expect(all.values.some((r: any) => !priya.bitbucketRepos.includes(repoOf(r)))).toBe(true);
    const named = await call(`/2.0/workspaces/bridgekeeper/search/code?search_query=${encodeURIComponent("function repo:etl-pipelines")}`, {
      auth: PRIYA,
    });
    expect(named.body.size).toBe(0);
  });
});

describe("what a person does in Bitbucket is theirs", () => {
  it("attributes a pull request, its comment and approval to the person", async () => {
    const slug = "api-gateway";
    const open = (await call(`${REPOS}/${slug}/pullrequests?state=OPEN&pagelen=50`, { auth: SERVICE })).body.values[0];
    expect((await call(`${REPOS}/${slug}/pullrequests/${open.id}/decline`, { auth: SERVICE, body: {} })).status).toBe(200);
    const created = await call(`${REPOS}/${slug}/pullrequests`, {
      auth: PRIYA,
      body: {
        title: "Priya's pull request",
        source: { branch: { name: open.source.branch.name } },
        reviewers: [{ nickname: "alice.nguyen" }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.author).toMatchObject({ account_id: priya.accountId, nickname: priya.nickname });

    const comment = await call(`${REPOS}/${slug}/pullrequests/${created.body.id}/comments`, {
      auth: MARCUS,
      body: { content: { raw: "x" } },
    });
    expect(comment.status).toBe(404);
    const mine = await call(`${REPOS}/${slug}/pullrequests/${created.body.id}/comments`, {
      auth: basic(DEFAULT_PEOPLE[2]!.email, DEFAULT_PEOPLE[2]!.apiToken),
      body: { content: { raw: "Elena was here" } },
    });
    expect(mine.status).toBe(201);
    expect(mine.body.user.account_id).toBe(DEFAULT_PEOPLE[2]!.accountId);

    const approval = await call(`${REPOS}/${slug}/pullrequests/${open.id}/approve`, { auth: PRIYA, body: {} });
    expect(approval.status).toBe(400); // declined above: no reviews on a closed pull request
    const other = (await call(`${REPOS}/${slug}/pullrequests?state=OPEN&pagelen=50`, { auth: PRIYA })).body.values.find(
      (p: any) => p.author.account_id !== priya.accountId,
    );
    const approved = await call(`${REPOS}/${slug}/pullrequests/${other.id}/approve`, { auth: PRIYA, body: {} });
    expect(approved.body).toMatchObject({ approved: true, user: { account_id: priya.accountId } });
    const after = (await call(`${REPOS}/${slug}/pullrequests/${other.id}`, { auth: PRIYA })).body;
    expect(after.participants.find((p: any) => p.user.account_id === priya.accountId)).toMatchObject({ approved: true });
    // Someone else's comment cannot be edited by her.
    const edit = await call(`${REPOS}/${slug}/pullrequests/${created.body.id}/comments/${mine.body.id}`, {
      method: "PUT",
      auth: PRIYA,
      body: { content: { raw: "changed" } },
    });
    expect(edit.status).toBe(403);
  });
});
