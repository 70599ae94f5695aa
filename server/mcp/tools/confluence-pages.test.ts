import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { markdownToStorage } from "./markdown/markdown-to-storage";
import { closeToolTest, putPolicy } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

const PAGE = [
  "## Runbook",
  "",
  "Restart the **gateway** with `kubectl`, then check [the dashboard](https://grafana.example/d/1).",
  "",
  "- first step",
  "- second step",
  "",
  "```bash",
  "kubectl rollout restart deploy/gateway",
  "```",
  "",
  "| Service | Owner |",
  "| --- | --- |",
  "| gateway | Platform |",
].join("\n");

describe("Markdown to Confluence storage", () => {
  it("writes code as the code macro, raw HTML as text, and self-closes what XHTML needs", () => {
    expect(markdownToStorage("```ts\nconst a = 1; // ]]> inside\n```")).toBe(
      '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">ts</ac:parameter><ac:plain-text-body><![CDATA[const a = 1; // ]]]]><![CDATA[> inside]]></ac:plain-text-body></ac:structured-macro>',
    );
    expect(markdownToStorage("<script>alert(1)</script>")).not.toContain("<script>");
    expect(markdownToStorage("a  \nb\n\n---")).toBe("<p>a<br />b</p>\n<hr />");
    expect(markdownToStorage("![diagram](https://x.example/d.png)")).toBe(
      '<p><ac:image ac:alt="diagram"><ri:url ri:value="https://x.example/d.png" /></ac:image></p>',
    );
  });
});

/** Confluence page tools through a real MCP client against the sandbox over HTTP. */
describe("Confluence page tools", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  let spaceKey: string;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    // Every toolset: comments (confluence-comments) are not in the default set.
    const set = await putPolicy(rig, rig.client.clientId);
    if (set.status !== 200) throw new Error(`policy: ${set.status}`);
    client = await mcpClient(rig, await rig.token("read write"), "confluence-pages-test");
    const auth = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
    spaceKey = (
      (await (await fetch(`${rig.sandbox.url}/wiki/api/v2/spaces?limit=1`, { headers: { authorization: auth } })).json()) as {
        results: { key: string }[];
      }
    ).results[0]!.key;
  });
  afterAll(() => closeToolTest(rig, client));
  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const normalise = (md: string) =>
    md
      .replace(/[ \t]+$/gm, "")
      .replace(/\n{3,}/g, "\n\n")
      .trim();

  it("creates a page from Markdown and reads the same Markdown back; updates by version; a stale version is a conflict naming the current one", async () => {
    const created = await call("confluence_create_page", { spaceKey, title: "Gateway runbook", body: PAGE });
    expect(created.isError).toBe(false);
    expect(created.data).toMatchObject({ title: "Gateway runbook", version: 1 });
    const id = created.data.id as unknown as string;
    const read = await call("confluence_get_page", { pageId: id });
    expect(normalise(read.data.body as unknown as string)).toBe(PAGE);

    const updated = await call("confluence_update_page", {
      pageId: id,
      version: 1,
      body: `${PAGE}\n\nUpdated by a tool.`,
      message: "note added",
    });
    expect(updated.isError).toBe(false);
    expect(updated.data.version).toBe(2);
    expect(normalise((await call("confluence_get_page", { pageId: id })).data.body as unknown as string)).toBe(
      `${PAGE}\n\nUpdated by a tool.`,
    );

    const stale = await call("confluence_update_page", { pageId: id, version: 1, title: "Renamed" });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/Version 1 is stale: page \d+ is at version 2\. Read it again/);
    const renamed = await call("confluence_update_page", { pageId: id, version: 2, title: "Renamed" });
    expect(renamed.data).toMatchObject({ title: "Renamed", version: 3 });
    expect(normalise((await call("confluence_get_page", { pageId: id })).data.body as unknown as string)).toBe(
      `${PAGE}\n\nUpdated by a tool.`,
    );

    const comment = await call("confluence_add_comment", { pageId: id, body: "Reviewed: **fine**." });
    expect(comment.isError).toBe(false);
    expect(comment.data.pageId).toBe(id);
  });

  it("keeps macros Markdown cannot express: read as markers, written back verbatim around an edit", async () => {
    const auth = {
      authorization: `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`,
      "content-type": "application/json",
    };
    const created = await call("confluence_create_page", { spaceKey, title: "Status with macros", body: "placeholder" });
    const id = created.data.id as unknown as string;
    const chart =
      '<ac:structured-macro ac:name="jira" ac:macro-id="7f1"><ac:parameter ac:name="jqlQuery">project = BK</ac:parameter><ac:parameter ac:name="columns">key,summary</ac:parameter></ac:structured-macro>';
    const status =
      '<ac:structured-macro ac:name="status"><ac:parameter ac:name="colour">Green</ac:parameter><ac:parameter ac:name="title">ON TRACK</ac:parameter></ac:structured-macro>';
    const storage = `<h2>Open work</h2>${chart}<p>Release: ${status}</p><p>Owner: <ac:link><ri:user ri:account-id="abc" /></ac:link></p>`;
    const put = await fetch(`${rig.sandbox.url}/wiki/api/v2/pages/${id}`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({
        id,
        status: "current",
        title: "Status with macros",
        version: { number: 2 },
        body: { representation: "storage", value: storage },
      }),
    });
    expect(put.status).toBe(200);

    const read = await call("confluence_get_page", { pageId: id });
    const markdown = read.data.body as unknown as string;
    expect(markdown).toContain("[macro: jira]");
    expect(markdown).toContain("Release: [macro: status]");
    const updated = await call("confluence_update_page", {
      pageId: id,
      version: 2,
      body: `${markdown.replace("Open work", "Open work this week")}\n\nChecked on Monday.`,
    });
    expect(updated.isError).toBe(false);

    const stored = (await (await fetch(`${rig.sandbox.url}/wiki/api/v2/pages/${id}?body-format=storage`, { headers: auth })).json()) as {
      body: { storage: { value: string } };
    };
    expect(stored.body.storage.value).toContain(chart);
    expect(stored.body.storage.value).toContain(`Release: ${status}`);
    expect(stored.body.storage.value).toContain("Open work this week");
    expect(stored.body.storage.value).toContain("Checked on Monday.");
  });

  it("bad arguments and missing things are tool errors that say what to do", async () => {
    const nothing = await call("confluence_update_page", { pageId: "1", version: 1 });
    expect(nothing.text).toMatch(/nothing to change/);
    const space = await call("confluence_create_page", { spaceKey: "NOSUCHSPACE", title: "x", body: "y" });
    expect(space.isError).toBe(true);
    expect(space.text).toMatch(/There is no Confluence space NOSUCHSPACE/);
    const missing = await call("confluence_add_comment", { pageId: "999999999", body: "hi" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/found nothing there \(404\)/);
  });
});
