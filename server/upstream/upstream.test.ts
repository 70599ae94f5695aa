import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { systemClock } from "../lib/clock";
import { createBitbucketClient } from "./bitbucket.client";
import { createConfluenceClient } from "./confluence.client";
import { UpstreamError } from "./errors";
import { createUpstreamHttp, resolveUrl, type UpstreamOptions, type UpstreamTarget } from "./http";
import { createJiraClient } from "./jira.client";
import { createUpstreamMeter } from "./meter";
import { collect } from "./paginate";

/**
 * The upstream layer and the three clients against the sandbox over real HTTP: the same code path
 * as the real clouds, with the sandbox's fault knobs for the failures.
 */
describe("upstream layer against the sandbox", () => {
  let sandbox: Sandbox;
  const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
  let jiraTarget: UpstreamTarget;
  let confluenceTarget: UpstreamTarget;
  let bitbucketTarget: UpstreamTarget;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const { atlassian, bitbucket } = sandbox.credentials;
    jiraTarget = { baseUrl: sandbox.url, authorization: basic(atlassian.email, atlassian.apiToken) };
    confluenceTarget = { baseUrl: `${sandbox.url}/wiki`, authorization: basic(atlassian.email, atlassian.apiToken) };
    bitbucketTarget = { baseUrl: `${sandbox.url}/2.0`, authorization: basic(bitbucket.username, bitbucket.appPassword) };
  });
  afterAll(() => sandbox.close());
  beforeEach(() => sandbox.reset());

  /** A fresh layer per test, so breaker and meter state never leak between tests. */
  function layer(overrides: Partial<UpstreamOptions> = {}) {
    const meter = createUpstreamMeter({ clock: systemClock, hourlyBudget: { atlassian: 1000, bitbucket: 1000 } });
    const http = createUpstreamHttp({ meter, timeoutMs: 5_000, backoff: { baseMs: 20, maxMs: 100 }, ...overrides });
    return {
      meter,
      http,
      jira: createJiraClient(http, async () => jiraTarget),
      confluence: createConfluenceClient(http, async () => confluenceTarget),
      bitbucket: createBitbucketClient(http, async () => bitbucketTarget),
    };
  }
  const hits = (path: string) => sandbox.requests().filter((r) => r.path === path);

  describe("happy paths and pagination", () => {
    it("Jira: myself, then every issue through nextPageToken pages, none twice", async () => {
      const { jira, meter, http } = layer();
      expect((await jira.myself()).emailAddress).toBe(sandbox.credentials.atlassian.email);
      const issues = await collect(jira.searchAll("project in (BK, OPS, WEB) order by key asc", ["summary"]));
      expect(issues.length).toBe(500);
      expect(new Set(issues.map((i) => i.key)).size).toBe(issues.length);
      expect(hits("/rest/api/3/search/jql").length).toBe(Math.ceil(issues.length / 100));
      expect(meter.health("jira").last?.ok).toBe(true);
      await http.close();
    });

    it("Jira: offset pages (startAt/maxResults/total) of projects and boards", async () => {
      const { jira, http } = layer();
      const projects = await collect(jira.projects());
      expect(projects.length).toBe(3);
      const boards = await collect(jira.boards());
      expect(boards.length).toBeGreaterThanOrEqual(3);
      await http.close();
    });

    it("Confluence: v2 cursor pages of spaces and CQL results through _links.next", async () => {
      const { confluence, http } = layer();
      const spaces = await collect(confluence.spaces());
      expect(spaces.length).toBe(4);
      const pages = await collect(confluence.searchAll("type = page"));
      expect(pages.length).toBeGreaterThanOrEqual(200);
      expect(hits("/wiki/rest/api/search").length).toBeGreaterThan(1);
      await http.close();
    });

    it("Bitbucket: page/next links through all 30 repositories, and the workspace's size", async () => {
      const { bitbucket, http } = layer();
      const repos = await collect(bitbucket.repositories("bridgekeeper", { pageSize: 7 }));
      expect(repos).toHaveLength(30);
      expect(new Set(repos.map((r) => r.slug)).size).toBe(30);
      expect(hits("/2.0/repositories/bridgekeeper").length).toBe(5);
      expect(await bitbucket.repositoryCount("bridgekeeper")).toBe(30);
      await http.close();
    });

    it("counts calls per hour and prefers the upstream's own rate-limit figures", async () => {
      const { jira, meter, http } = layer();
      await jira.myself();
      await jira.myself();
      const usage = meter.usage("atlassian");
      expect(usage.total).toBe(100_000); // the sandbox's X-RateLimit-Limit
      expect(usage.used).toBeGreaterThanOrEqual(2);
      expect(meter.usage("bitbucket")).toEqual({ used: 0, total: 1000 });
      await http.close();
    });
  });

  describe("bodies beyond JSON", () => {
    it("Jira: a multipart upload with Jira's XSRF header, a Range read of its bytes, and the bulk create's 400 read as an answer", async () => {
      const { jira, http } = layer();
      const data = new Uint8Array([0, 1, 2, 13, 10, 45, 45, 255, 104, 105]);
      const [added] = await jira.addAttachment("BK-3", { filename: "raw.bin", mimeType: "application/octet-stream", data });
      expect(added).toMatchObject({ filename: "raw.bin", size: data.length, mimeType: "application/octet-stream" });
      const upload = sandbox.requests().find((r) => r.method === "POST" && r.path === "/rest/api/3/issue/BK-3/attachments");
      expect(upload).toBeDefined();
      const stored = await fetch(`${sandbox.url}/rest/api/3/attachment/content/${added!.id}?redirect=false`, {
        headers: { authorization: jiraTarget.authorization },
      });
      expect(new Uint8Array(await stored.arrayBuffer())).toEqual(data);
      const [text] = await jira.addAttachment("BK-3", {
        filename: "a.txt",
        mimeType: "text/plain",
        data: new TextEncoder().encode("hello world"),
      });
      expect(await jira.attachmentText(String(text!.id), 5)).toBe("hello");

      const none = await jira.createIssues([{ fields: { project: { key: "BK" }, issuetype: { name: "Task" } } }]);
      expect(none).toEqual({
        issues: [],
        errors: [
          expect.objectContaining({
            failedElementNumber: 0,
            elementErrors: expect.objectContaining({ errors: { summary: "You must specify a summary of the issue." } }),
          }),
        ],
      });
      // A 400 without per-item errors is still a failure, with Jira's words.
      await expect(jira.createIssues(Array.from({ length: 51 }, () => ({ fields: {} })))).rejects.toMatchObject({
        kind: "bad_request",
        message: expect.stringMatching(/exceeds the maximum of 50/),
      });
      await http.close();
    });
  });

  describe("failures", () => {
    it("a wrong token is a clear 401 error, not retried", async () => {
      const { jira, meter, http } = layer();
      const bad = createJiraClient(http, async () => ({ ...jiraTarget, authorization: basic("demo@bridgekeeper.test", "wrong") }));
      const err = await bad.myself().catch((e) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err.kind).toBe("unauthorized");
      expect(err.message).toMatch(/Jira refused the credentials \(401\)/);
      expect(hits("/rest/api/3/myself")).toHaveLength(1);
      expect(meter.health("jira").last).toMatchObject({ ok: false });
      void jira;
      await http.close();
    });

    it("429 with Retry-After: waits at least that long before the one retry, then succeeds", async () => {
      const { jira, http } = layer();
      sandbox.faults.add({ path: "/rest/api/3/myself", status: 429, retryAfter: 1, times: 1 });
      expect((await jira.myself()).emailAddress).toBe(sandbox.credentials.atlassian.email);
      // One retry, sent no earlier than Retry-After allowed (the sandbox's clock on both arrivals).
      const [first, second, ...more] = hits("/rest/api/3/myself");
      expect(more).toHaveLength(0);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
      await http.close();
    });

    it("429 with a Retry-After beyond what we wait for fails at once, saying when to retry", async () => {
      const { jira, http } = layer({ maxRetryAfterMs: 10_000 });
      sandbox.faults.add({ path: "/rest/api/3/myself", status: 429, retryAfter: 120 });
      // Waiting the 120 s would outlast the test's own timeout: settling at all is the "at once".
      const err = await jira.myself().catch((e) => e);
      expect(err.kind).toBe("rate_limited");
      expect(err.details.retryAfterSeconds).toBe(120);
      expect(err.message).toContain("retry after 120 s");
      expect(hits("/rest/api/3/myself")).toHaveLength(1);
      await http.close();
    });

    it("a 429 storm stops after the bounded number of attempts", async () => {
      const { bitbucket, http } = layer({ maxAttempts: 3 });
      sandbox.faults.add({ path: "/2.0/user", status: 429, retryAfter: 0 });
      const err = await bitbucket.user().catch((e) => e);
      expect(err.kind).toBe("rate_limited");
      expect(hits("/2.0/user")).toHaveLength(3);
      await http.close();
    });

    it("a 503 is retried for a GET with backoff, never for a POST", async () => {
      const { jira, http } = layer();
      sandbox.faults.add({ path: "/rest/api/3/myself", status: 503, times: 2 });
      await jira.myself();
      expect(hits("/rest/api/3/myself")).toHaveLength(3);
      sandbox.faults.add({ path: "/rest/api/3/issue", method: "POST", status: 503, times: 1 });
      const err = await jira.createIssue({ summary: "x" }).catch((e) => e);
      expect(err.kind).toBe("server_error");
      expect(sandbox.requests().filter((r) => r.method === "POST" && r.path === "/rest/api/3/issue")).toHaveLength(1);
      await http.close();
    });

    it("an upstream that hangs fails with a timeout, within the timeout", async () => {
      const { confluence, http } = layer({ timeoutMs: 400 });
      sandbox.faults.add({ path: "/wiki/api/v2/spaces", hang: true });
      // The sandbox never answers: the call ends only because the layer's deadline aborted it, and
      // the deadline covers the whole call, so nothing is retried after it.
      const started = performance.now();
      const err = await confluence.spacesPage(1).catch((e) => e);
      expect(err.kind).toBe("timeout");
      expect(err.message).toBe("Confluence did not answer within 0.4 s");
      // Not before the deadline (a lower bound holds on any machine, however busy).
      expect(performance.now() - started).toBeGreaterThanOrEqual(390);
      expect(hits("/wiki/api/v2/spaces")).toHaveLength(1);
      await http.close();
    });

    it("a 50 MB response is cut off at the size limit", async () => {
      const { bitbucket, http } = layer({ maxResponseBytes: 1024 * 1024 });
      sandbox.faults.add({ path: "/2.0/user", oversizeBytes: 50 * 1024 * 1024 });
      const err = await bitbucket.user().catch((e) => e);
      expect(err.kind).toBe("too_large");
      expect(err.message).toBe("Bitbucket sent a response larger than 1 MB");
      // Not retried: a body too large is no transient failure.
      expect(hits("/2.0/user")).toHaveLength(1);
      await http.close();
    });

    it("the circuit opens after consecutive outages, fails fast, and closes again after a good call", async () => {
      const { jira, http } = layer({ maxAttempts: 1, breaker: { consecutiveFailures: 2, halfOpenAfterMs: 300 } });
      const fault = sandbox.faults.add({ path: "/rest/api/3/myself", status: 500 });
      for (let i = 0; i < 2; i++) expect((await jira.myself().catch((e) => e)).kind).toBe("server_error");
      const open = await jira.myself().catch((e) => e);
      expect(open.kind).toBe("circuit_open");
      expect(hits("/rest/api/3/myself")).toHaveLength(2); // the third never left
      sandbox.faults.remove(fault);
      await new Promise((r) => setTimeout(r, 350));
      expect((await jira.myself()).accountId).toBeTruthy(); // half-open trial succeeds
      expect((await jira.myself()).accountId).toBeTruthy(); // and the circuit is closed
      await http.close();
    });

    it("an unreachable host is a clear error", async () => {
      const meter = createUpstreamMeter({ clock: systemClock, hourlyBudget: { atlassian: 10, bitbucket: 10 } });
      const http = createUpstreamHttp({ meter, timeoutMs: 2_000, maxAttempts: 2, backoff: { baseMs: 10, maxMs: 20 } });
      const closed = await startSandbox();
      const url = closed.url;
      await closed.close();
      const jira = createJiraClient(http, async () => ({ baseUrl: url, authorization: "Basic eDp5" }));
      const err = await jira.myself().catch((e) => e);
      expect(err.kind).toBe("unreachable");
      expect(err.message).toContain(`Jira could not be reached at ${url}`);
      expect(meter.health("jira").last?.error).toBe(err.message);
      await http.close();
    });

    it("never follows a next link to another host or outside the base path", () => {
      expect(() => resolveUrl("bitbucket", "https://api.bitbucket.org/2.0", "https://evil.example/2.0/repositories?page=2")).toThrow(
        /outside its base URL/,
      );
      expect(() => resolveUrl("bitbucket", "https://api.bitbucket.org/2.0", "https://api.bitbucket.org/internal")).toThrow(
        /outside its base URL/,
      );
      expect(resolveUrl("bitbucket", "https://api.bitbucket.org/2.0", "https://api.bitbucket.org/2.0/repositories/x?page=2")).toEqual({
        origin: "https://api.bitbucket.org",
        path: "/2.0/repositories/x?page=2",
      });
      expect(resolveUrl("confluence", "https://acme.atlassian.net/wiki", "/api/v2/spaces", { limit: 5, keys: ["A", "B"] })).toEqual({
        origin: "https://acme.atlassian.net",
        path: "/wiki/api/v2/spaces?limit=5&keys=A&keys=B",
      });
    });
  });

  describe("multipart bodies", () => {
    it("sends a form (file bytes whole, its boundary in the content type) with the call's extra headers; without Confluence's XSRF header the upload is refused", async () => {
      const { confluence, http } = layer();
      const space = (await confluence.spacesPage(1)).results[0]!;
      const home = (await confluence.spaceDetails(space.key))!.homepageId!;
      const bytes = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) % 256);
      const uploaded = await confluence.uploadAttachment(home, {
        name: "bytes.bin",
        data: bytes,
        mediaType: "application/octet-stream",
        comment: "all 256 values",
      });
      expect(uploaded.results[0]).toMatchObject({
        title: "bytes.bin",
        extensions: { fileSize: 3000, mediaType: "application/octet-stream", comment: "all 256 values" },
      });
      const download = await fetch(`${sandbox.url}/wiki${uploaded.results[0]!._links!.download!}`, {
        headers: { authorization: confluenceTarget.authorization },
      });
      expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
      const form = new FormData();
      form.append("file", new Blob(["x"]), "x.txt");
      await expect(
        http.request("confluence", confluenceTarget, { method: "POST", path: `/rest/api/content/${home}/child/attachment`, form }),
      ).rejects.toMatchObject({ kind: "forbidden", message: expect.stringContaining("XSRF check failed") });
      await http.close();
    });
  });
});
