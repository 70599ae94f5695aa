import { describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { mcpRigForFile, type McpRig } from "../mcp.test-rig";
import { checkArguments, runTool, toolDefinition } from "./call-tool";
import { TOOLS, toolByName } from "./catalogue";
import { cqlFieldsOf } from "./confluence-common";
import { OPEN_POLICY } from "../../../contract/policy";
import type { ToolContext } from "./tool";
import { clearSandboxFaults, sandboxFault } from "./tool-test-kit";

/**
 * The first six tools against the sandbox over HTTP (issue 10 item 9): real seeded data, compact
 * answers, paging, and every failure a tool result with `isError` and a sentence, never a throw.
 */
describe("MCP tools", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r), { upstream: { maxAttempts: 1, breaker: { consecutiveFailures: 50, halfOpenAfterMs: 1_000 } } });

  const context = async (): Promise<ToolContext> => {
    const c = await rig.t.container.mcp.toolAvailability.context();
    return {
      clients: rig.t.container.upstream.targets.clients,
      cursors: rig.t.container.mcp.cursors,
      atlassianUrl: c.atlassianUrl,
      confluenceUrl: c.confluenceUrl,
      deployments: c.deployments,
      bitbucketWorkspace: c.bitbucketWorkspace,
      policy: OPEN_POLICY,
    };
  };
  const call = async (name: string, args: unknown): Promise<CallToolResult & { structuredContent?: any }> => {
    const spec = toolByName(name)!;
    const checked = checkArguments(spec, args);
    return checked.ok ? runTool(spec, checked.args, await context()) : checked.refusal;
  };
  const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
  const fault = (spec: Record<string, unknown>) => sandboxFault(rig, spec);
  const clearFaults = () => clearSandboxFaults(rig);

  it("every tool has a definition with object schemas, annotations and a description", () => {
    expect(TOOLS.map((t) => t.name)).toEqual([...TOOLS.map((t) => t.name)].sort());
    for (const tool of TOOLS) {
      const def = toolDefinition(tool);
      expect(def).toBe(toolDefinition(tool)); // computed once
      expect(def.inputSchema.type).toBe("object");
      expect(def.outputSchema?.type).toBe("object");
      // Every hint MCP would not assume is stated; none is restated (openWorldHint: true is the default).
      expect(def.annotations?.readOnlyHint).toBe(tool.scope === "read");
      expect(def.annotations).not.toHaveProperty("openWorldHint");
      expect(def.annotations).not.toHaveProperty("title");
      // Only a writing tool may destroy; the destructive ones are few and named.
      if (tool.scope === "read") expect(def.annotations).not.toHaveProperty("destructiveHint");
      else
        expect(def.annotations?.destructiveHint).toBe(
          [
            "bitbucket_decline_pull_request",
            "bitbucket_merge_pull_request",
            "confluence_delete_page",
            "jira_delete_comment",
            "jira_delete_issue",
          ].includes(tool.name),
        );
      expect(JSON.stringify(def.inputSchema)).not.toContain("$schema");
      // Compact: no safe-integer bounds anywhere, no restated property lists in output schemas.
      expect(JSON.stringify(def)).not.toContain(String(Number.MAX_SAFE_INTEGER));
      // (The `required` keyword is a list; a property named "required", as a field's flag, is data.)
      expect(JSON.stringify(def.outputSchema)).not.toMatch(/"required":\[|"additionalProperties":false/);
    }
  });

  it("the compacted output schema still accepts every answer and says each field's type", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const ajv = new Ajv2020({ strict: false });
    const result = await call("jira_get_issue", { issueKey: "BK-1", include: ["transitions", "changelog"] });
    expect(result.isError).toBeFalsy();
    expect(
      ajv.validate(toolDefinition(toolByName("jira_get_issue")!).outputSchema!, result.structuredContent),
      JSON.stringify(ajv.errors),
    ).toBe(true);
    const schema = toolDefinition(toolByName("jira_get_issue")!).outputSchema as { properties: Record<string, { type: unknown }> };
    // Null fields are left out of the answer, so no property schema needs a null branch.
    expect(schema.properties.status!.type).toBe("string");
    expect(ajv.validate(schema, { ...result.structuredContent, status: 7 })).toBe(false);
    const hasNull = (v: unknown): boolean => v === null || (typeof v === "object" && Object.values(v as object).some(hasNull));
    expect(hasNull(result.structuredContent)).toBe(false);
  });

  it("jira_search: 20 compact issues with links, and the cursor gives the next 20", async () => {
    const first = await call("jira_search", { jql: "project = BK ORDER BY key ASC", maxResults: 20 });
    expect(first.isError).toBeFalsy();
    const issues = first.structuredContent.issues as { key: string; summary: string; status: string; url: string }[];
    expect(issues).toHaveLength(20);
    expect(issues[0]).toMatchObject({
      key: expect.stringMatching(/^BK-\d+$/),
      status: expect.any(String),
      url: `${rig.sandbox.url}/browse/${issues[0]!.key}`,
    });
    expect(text(first).length).toBeLessThanOrEqual(6000);
    expect(text(first)).not.toContain("avatarUrls");
    const second = await call("jira_search", {
      jql: "project = BK ORDER BY key ASC",
      maxResults: 20,
      cursor: first.structuredContent.nextCursor,
    });
    const next = (second.structuredContent.issues as { key: string }[]).map((i) => i.key);
    expect(next).toHaveLength(20);
    expect(next.some((k) => issues.some((i) => i.key === k))).toBe(false);

    // The cursor is bound to its query: another JQL, or an edited cursor, is a tool error saying what to do.
    const elsewhere = await call("jira_search", { jql: "project = OPS ORDER BY key ASC", cursor: first.structuredContent.nextCursor });
    expect(elsewhere.isError).toBe(true);
    expect(text(elsewhere)).toMatch(/cursor is not a nextCursor this server gave for this query.*Call again without cursor/);
    const cursor = first.structuredContent.nextCursor as string;
    const edited = await call("jira_search", { jql: "project = BK ORDER BY key ASC", cursor: `${cursor.slice(0, 5)}x${cursor.slice(6)}` });
    expect(edited.isError).toBe(true);
  });

  it("jira_search: an unknown JQL field is named with the field it most likely meant", async () => {
    const typo = await call("jira_search", { jql: "project = BK AND sprintt = 1" });
    expect(typo.isError).toBe(true);
    expect(text(typo)).toBe("JQL: field 'sprintt' does not exist; did you mean 'sprint'? Fix the JQL and search again.");
    const far = await call("jira_search", { jql: "qqqqqqqq = 1" });
    expect(text(far)).toMatch(
      /^JQL: field 'qqqqqqqq' does not exist \(jira_search_fields finds field names, where it is offered\)\. Fix the JQL/,
    );
  });

  it("confluence_search: an unknown CQL field is named with the field it most likely meant", async () => {
    expect(
      cqlFieldsOf('spacee = ENG AND (title ~ "a = b" OR lastmodified >= now("-4w")) AND label not in (x) AND type!=page ORDER BY created'),
    ).toEqual(["spacee", "title", "lastmodified", "label", "type"]);
    const typo = await call("confluence_search", { cql: 'spacee = ENG AND text ~ "deploy"' });
    expect(typo.isError).toBe(true);
    expect(text(typo)).toBe("CQL: field 'spacee' does not exist; did you mean 'space'? Fix the CQL and search again.");
    const far = await call("confluence_search", { cql: "zzzzzz = 1" });
    expect(text(far)).toBe(
      "CQL: field 'zzzzzz' does not exist. Fields include space, title, text, label, type, ancestor, lastmodified. Fix the CQL and search again.",
    );
    // A query CQL cannot parse for another reason keeps Confluence's own words.
    const broken = await call("confluence_search", { cql: 'space = ENG AND (title ~ "x"' });
    expect(broken.isError).toBe(true);
    expect(text(broken)).toMatch(/^Confluence refused the request as invalid \(400\)/);
  });

  it("paged tools of each service give sealed cursors that open only for the same query", async () => {
    const confluence = await call("confluence_search", { cql: "type = page", limit: 2 });
    expect(confluence.structuredContent.nextCursor).toMatch(/^[\w-]+\.[\w-]{22}$/);
    const page2 = await call("confluence_search", { cql: "type = page", limit: 2, cursor: confluence.structuredContent.nextCursor });
    expect(page2.isError).toBeFalsy();
    expect(page2.structuredContent.results[0].id).not.toBe(confluence.structuredContent.results[0].id);
    expect(
      (await call("confluence_search", { cql: "type = blogpost", limit: 2, cursor: confluence.structuredContent.nextCursor })).isError,
    ).toBe(true);

    const repos = await call("bitbucket_list_repositories", { maxResults: 5 });
    const repos2 = await call("bitbucket_list_repositories", { maxResults: 5, cursor: repos.structuredContent.nextCursor });
    expect(repos2.isError).toBeFalsy();
    expect(repos2.structuredContent.repositories[0].slug).not.toBe(repos.structuredContent.repositories[0].slug);
    expect(
      (await call("bitbucket_list_repositories", { maxResults: 5, nameContains: "api", cursor: repos.structuredContent.nextCursor }))
        .isError,
    ).toBe(true);
  });

  it("jira_search: extra fields come as short text; no match says so", async () => {
    const res = await call("jira_search", { jql: "project = BK ORDER BY key ASC", maxResults: 2, fields: ["labels", "duedate"] });
    expect(Object.keys(res.structuredContent.issues[0].fields)).toEqual(["labels", "duedate"]);
    const none = await call("jira_search", { jql: 'project = BK AND summary ~ "zzzz-no-such-thing"' });
    expect(none.isError).toBeFalsy();
    expect(text(none)).toMatch(/^No issues match/);
  });

  it("jira_get_issue: the description as Markdown, comments, links", async () => {
    const res = await call("jira_get_issue", { issueKey: "bk-1", comments: 2 });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ key: "BK-1", url: `${rig.sandbox.url}/browse/BK-1` });
    expect(res.structuredContent.description).toMatch(/^## /m);
    expect(res.structuredContent.comments.length).toBeLessThanOrEqual(2);
    expect(text(res)).toMatch(/^# BK-1: /);
    expect(text(res)).not.toContain('"type":"doc"');
  });

  it("confluence_search and confluence_get_page: results with ids, a page as Markdown", async () => {
    const found = await call("confluence_search", { cql: 'type = page AND text ~ "deployment"', limit: 3 });
    expect(found.isError).toBeFalsy();
    const results = found.structuredContent.results as { id: string; url: string }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.url).toMatch(new RegExp(`^${rig.sandbox.url}/wiki/`));
    expect(found.structuredContent.nextCursor).toEqual(expect.any(String));
    const more = await call("confluence_search", {
      cql: 'type = page AND text ~ "deployment"',
      limit: 3,
      cursor: found.structuredContent.nextCursor,
    });
    expect(more.structuredContent.results.length).toBeGreaterThan(0);
    expect((more.structuredContent.results as { id: string }[]).some((r) => results.some((x) => x.id === r.id))).toBe(false);
    const page = await call("confluence_get_page", { pageId: results[0]!.id });
    expect(page.isError).toBeFalsy();
    expect(page.structuredContent.body).toMatch(/^#{1,2} /m);
    expect(page.structuredContent.body).not.toMatch(/<\/?(p|h1|table|ac:)/);
  });

  it("bitbucket_list_repositories and bitbucket_get_pull_request", async () => {
    const repos = await call("bitbucket_list_repositories", { maxResults: 10 });
    expect(repos.isError).toBeFalsy();
    expect(repos.structuredContent).toMatchObject({ workspace: "bridgekeeper", total: 30 });
    expect(repos.structuredContent.repositories).toHaveLength(10);
    const page2 = await call("bitbucket_list_repositories", { maxResults: 10, cursor: repos.structuredContent.nextCursor });
    expect(page2.structuredContent.repositories[0].slug).not.toBe(repos.structuredContent.repositories[0].slug);
    const filtered = await call("bitbucket_list_repositories", { nameContains: "gateway" });
    expect(filtered.structuredContent.repositories.map((r: { slug: string }) => r.slug)).toContain("api-gateway");

    const prs = (await (
      await fetch(`${rig.sandbox.url}/2.0/repositories/bridgekeeper/api-gateway/pullrequests`, {
        headers: { authorization: `Basic ${Buffer.from("demo:sandbox-app-password").toString("base64")}` },
      })
    ).json()) as { values: { id: number }[] };
    const pr = await call("bitbucket_get_pull_request", { repository: "api-gateway", pullRequestId: prs.values[0]!.id });
    expect(pr.isError).toBeFalsy();
    expect(pr.structuredContent).toMatchObject({
      id: prs.values[0]!.id,
      state: expect.any(String),
      source: expect.any(String),
      destination: "main",
    });
    expect(pr.structuredContent.files.length).toBeGreaterThan(0);
    expect(text(pr)).toMatch(/^# PR #\d+: /);
  });

  it("bad arguments are a tool error naming each field", async () => {
    const res = await call("jira_search", { jql: "", maxResults: 500, fields: ["bad field!"] });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/jql/);
    expect(text(res)).toMatch(/maxResults/);
    expect(text(res)).toMatch(/fields\.0/);
    expect((await call("jira_get_issue", { issueKey: "not a key" })).isError).toBe(true);
    expect((await call("bitbucket_get_pull_request", { repository: "../etc", pullRequestId: 1 })).isError).toBe(true);
  });

  it.each([
    [{ path: "/rest/api/3/issue/", status: 401 }, /credentials \(401\)/],
    [{ path: "/rest/api/3/issue/", status: 403 }, /denied access \(403\)/],
    [{ path: "/rest/api/3/issue/", status: 410 }, /no longer offers this API \(410/],
    [{ path: "/rest/api/3/issue/", status: 429, retryAfter: 1 }, /rate limiting requests \(429\); wait 1 s/],
    [{ path: "/rest/api/3/issue/", status: 500 }, /internal error \(500\)/],
  ])("upstream %o is a tool error with a sentence", async (spec, sentence) => {
    await fault({ ...spec, times: 1 });
    try {
      const res = await call("jira_get_issue", { issueKey: "BK-2" });
      expect(res.isError).toBe(true);
      expect(text(res)).toMatch(sentence);
    } finally {
      await clearFaults();
    }
  });

  it("a missing issue, a timeout and an integration switched off are tool errors too", async () => {
    const missing = await call("jira_get_issue", { issueKey: "BK-999999" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/404/);
    await fault({ path: "/2.0/repositories/bridgekeeper/api-gateway/pullrequests/", hang: true, times: 1 });
    try {
      const slow = await call("bitbucket_get_pull_request", { repository: "api-gateway", pullRequestId: 1, includeFiles: false });
      expect(slow.isError).toBe(true);
      expect(text(slow)).toMatch(/did not answer in time/);
    } finally {
      await clearFaults();
    }
    await rig.admin.post("/api/admin/bitbucket-config", { workspace: "bridgekeeper", username: "demo", appPassword: "", isActive: false });
    try {
      const off = await call("bitbucket_list_repositories", {});
      expect(off.isError).toBe(true);
      expect(text(off)).toMatch(/inactive/);
    } finally {
      await rig.admin.post("/api/admin/bitbucket-config", { workspace: "bridgekeeper", username: "demo", appPassword: "", isActive: true });
    }
  }, 30_000);
});
