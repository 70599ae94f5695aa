import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

/** Finding one's way: Confluence spaces and page trees, Bitbucket branches and commits (toolsets switched on per client). */
describe("Confluence tree and Bitbucket history tools", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    expect((await putPolicy(rig, rig.client.clientId)).status).toBe(200);
    client = await mcpClient(rig, await rig.token("read"), "navigation-test");
  });
  afterAll(() => closeToolTest(rig, client));
  const call = (name: string, args: Record<string, unknown> = {}) => client.call(name, args);

  /** A seeded page with a parent (the sandbox's spaces have trees). */
  async function nestedPage(): Promise<{ id: string; title: string }> {
    const found = await call("confluence_search", { cql: "type = page", limit: 50 });
    for (const r of found.data.results as { id: string; title: string }[]) {
      const up = await call("confluence_get_page_ancestors", { pageId: r.id });
      if ((up.data.ancestors as unknown[]).length > 0) return r;
    }
    throw new Error("no nested page in the seed");
  }

  it("lists spaces; a page's parents as a breadcrumb; its parent's children include it", async () => {
    const spaces = await call("confluence_list_spaces");
    expect(spaces.isError).toBe(false);
    expect((spaces.data.spaces as { key: string; url: string }[]).length).toBeGreaterThan(1);
    expect((spaces.data.spaces as { key: string; url: string }[])[0]!.url).toMatch(/\/wiki\/spaces\//);

    const page = await nestedPage();
    const up = await call("confluence_get_page_ancestors", { pageId: page.id });
    const ancestors = up.data.ancestors as { id: string; title: string }[];
    expect(up.text).toBe([...ancestors.map((a) => a.title), page.title].join(" › "));
    const parent = ancestors[ancestors.length - 1]!;
    const down = await call("confluence_get_page_children", { pageId: parent.id });
    expect((down.data.children as { id: string }[]).map((c) => c.id)).toContain(page.id);
    expect(down.text).toContain(`under "${parent.title}"`);

    expect((await call("confluence_get_page_children", { pageId: "99999999" })).isError).toBe(true);
    expect((await call("confluence_get_page_children", { pageId: "abc" })).text).toMatch(/pageId must be a page id/);
  });

  it("labels a page, finds it by the label, removes one; bad labels and no change are refused", async () => {
    const writer = await mcpClient(rig, await rig.token("read write"), "labels-writer");
    try {
      const page = await nestedPage();
      const labelled = await writer.call("confluence_label_page", { pageId: page.id, add: ["Runbook-2027", "ops"] });
      expect(labelled.isError, labelled.text).toBe(false);
      expect(labelled.data.labels).toEqual(expect.arrayContaining(["runbook-2027", "ops"]));
      const found = await call("confluence_search", { cql: 'label = "runbook-2027"' });
      expect((found.data.results as { id: string }[]).map((r) => r.id)).toEqual([page.id]);
      const removed = await writer.call("confluence_label_page", { pageId: page.id, remove: ["ops", "never-there"] });
      expect(removed.data.labels).toContain("runbook-2027");
      expect(removed.data.labels).not.toContain("ops");
      expect((await writer.call("confluence_label_page", { pageId: page.id, add: ["two words"] })).text).toMatch(/a label is one word/);
      expect((await writer.call("confluence_label_page", { pageId: page.id })).text).toMatch(/nothing to change/);
    } finally {
      await writer.close();
    }
  });

  it("lists branches with their tips, and commits of the main branch or a branch", async () => {
    const branches = await call("bitbucket_list_branches", { repository: "config-service" });
    expect(branches.isError).toBe(false);
    const names = (branches.data.branches as { name: string; tip: { hash: string } }[]).map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(["main", "feature/schema-validation"]));

    const main = await call("bitbucket_list_commits", { repository: "config-service", maxResults: 5 });
    expect(main.data.commits).toHaveLength(5);
    expect(main.data.truncated).toBe(true);
    expect((main.data.commits as { hash: string }[])[0]!.hash).toMatch(/^[0-9a-f]{12}$/);
    const feature = await call("bitbucket_list_commits", { repository: "config-service", ref: "feature/schema-validation", maxResults: 1 });
    expect((feature.data.commits as { message: string }[])[0]!.message).toBe("Validate every setting against its schema");
    expect((await call("bitbucket_list_commits", { repository: "config-service", ref: "no-such-branch" })).isError).toBe(true);
    expect((await call("bitbucket_list_commits", { repository: "config-service", ref: "bad ref!" })).text).toMatch(
      /ref must be a branch, tag or commit/,
    );
  });

  it("creates a branch from the main branch or a ref, then opens a pull request from one branch into another; asks for changes", async () => {
    const writer = await mcpClient(rig, await rig.token("read write"), "navigation-writer");
    try {
      const branch = await writer.call("bitbucket_create_branch", { repository: "config-service", name: "release/2027.1" });
      expect(branch.isError, branch.text).toBe(false);
      const mainTip = (
        (await call("bitbucket_list_commits", { repository: "config-service", maxResults: 1 })).data.commits as { hash: string }[]
      )[0]!.hash;
      expect(branch.data.tip).toMatchObject({ hash: mainTip });
      const again = await writer.call("bitbucket_create_branch", { repository: "config-service", name: "release/2027.1" });
      expect(again.isError).toBe(true);
      expect(again.text).toMatch(/already exists/);
      expect((await writer.call("bitbucket_create_branch", { repository: "config-service", name: "bad..name" })).text).toMatch(
        /name must be a branch name/,
      );
      const fromRef = await writer.call("bitbucket_create_branch", {
        repository: "config-service",
        name: "spike/validation",
        from: "feature/schema-validation",
      });
      expect((fromRef.data.tip as { message: string }).message).toBe("Validate every setting against its schema");

      const opened = await writer.call("bitbucket_create_pull_request", {
        repository: "config-service",
        title: "Schema validation for the 2027.1 release",
        source: "feature/schema-validation",
        destination: "release/2027.1",
        description: "Backport of **#11**.",
      });
      expect(opened.isError, opened.text).toBe(false);
      expect(opened.data).toMatchObject({
        title: "Schema validation for the 2027.1 release",
        source: "feature/schema-validation",
        destination: "release/2027.1",
      });
      const read = await call("bitbucket_get_pull_request", {
        repository: "config-service",
        pullRequestId: opened.data.id,
        includeFiles: false,
      });
      expect(read.data).toMatchObject({ state: "OPEN" });
      const duplicate = await writer.call("bitbucket_create_pull_request", {
        repository: "config-service",
        title: "Again",
        source: "feature/schema-validation",
        destination: "release/2027.1",
      });
      expect(duplicate.isError).toBe(true);
      expect(duplicate.text).toMatch(/already exists/);
      expect(
        (
          await writer.call("bitbucket_create_pull_request", {
            repository: "config-service",
            title: "Nothing",
            source: "release/2027.1",
            destination: "main",
          })
        ).text,
      ).toMatch(/no changes/i);

      const large = (
        (await call("bitbucket_list_pull_requests", { repository: "config-service" })).data.pullRequests as { id: number; title: string }[]
      ).find((p) => p.title === "Validate every setting against its schema")!;
      expect((await writer.call("bitbucket_request_changes", { repository: "config-service", pullRequestId: large.id })).data).toEqual({
        changesRequested: true,
      });
      const reviewed = await call("bitbucket_get_pull_request", {
        repository: "config-service",
        pullRequestId: large.id,
        includeFiles: false,
      });
      expect(reviewed.data.reviewers).toEqual(
        expect.arrayContaining([expect.objectContaining({ approved: false, state: "changes_requested" })]),
      );
      expect(
        (await writer.call("bitbucket_request_changes", { repository: "config-service", pullRequestId: large.id, request: false })).data,
      ).toEqual({ changesRequested: false });
      const withdrawn = await call("bitbucket_get_pull_request", {
        repository: "config-service",
        pullRequestId: large.id,
        includeFiles: false,
      });
      expect((withdrawn.data.reviewers as { state: string | null }[]).some((r) => r.state === "changes_requested")).toBe(false);
      // A read token is not offered the writing tools at all.
      expect((await client.client.listTools()).tools.map((t) => t.name)).not.toContain("bitbucket_create_branch");
    } finally {
      await writer.close();
    }
  });

  it("allow-lists hold: spaces are filtered, pages and repositories outside are refused", async () => {
    const spaces = (await call("confluence_list_spaces")).data.spaces as { key: string }[];
    const [inside, outside] = [spaces[0]!.key, spaces[1]!.key];
    const limited = await createClient(rig, { name: "limited-navigation" });
    expect((await putPolicy(rig, limited.clientId, { confluenceSpaces: [inside], bitbucketRepositories: ["api-gateway"] })).status).toBe(
      200,
    );
    const held = await mcpClient(rig, await rig.token("read", limited), "limited-navigation");
    try {
      expect(((await held.call("confluence_list_spaces", {})).data.spaces as { key: string }[]).map((s) => s.key)).toEqual([inside]);
      const elsewhere = (
        (await call("confluence_search", { cql: `space = ${outside} AND type = page`, limit: 1 })).data.results as { id: string }[]
      )[0]!;
      const refused = await held.call("confluence_get_page_children", { pageId: elsewhere.id });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/may not use the Confluence space/);
      expect((await held.call("confluence_get_page_ancestors", { pageId: elsewhere.id })).isError).toBe(true);
      expect((await held.call("bitbucket_list_branches", { repository: "config-service" })).text).toMatch(
        /may not use the Bitbucket repository/,
      );
      expect((await held.call("bitbucket_list_commits", { repository: "api-gateway", maxResults: 1 })).isError).toBe(false);
    } finally {
      await held.close();
    }
  });
});
