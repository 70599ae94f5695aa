// The tool catalogue (issue 11): how much of a model's context tools/list takes (characters, and
// tokens estimated as characters ÷ 4) for a read-only token and for everything; answer sizes
// against the raw upstream JSON of the same data; and jira_search throughput at concurrency 16
// with a Jira project allow-list in force against without (same server, alternating runs).
import autocannon from "autocannon";
import {
  adminCookie,
  contractModule,
  benchClient,
  benchToken,
  clientToken,
  fmt,
  median,
  requireBuild,
  startSandboxProcess,
  startServer,
} from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const MODERN = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};
const SANDBOX_AUTH = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
const BITBUCKET_AUTH = `Basic ${Buffer.from("demo:sandbox-app-password").toString("base64")}`;

let nextId = 1;
const headers = (token, method, name) => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": MODERN,
  "mcp-method": method,
  ...(name ? { "mcp-name": name } : {}),
});
const rpc = async (server, token, method, params = {}) => {
  const res = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: headers(token, method, params.name),
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: ENVELOPE } }),
  });
  const body = await res.json();
  if (!body.result) throw new Error(`${method}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.result;
};
const raw = async (url, init = {}) =>
  (
    await (
      await fetch(url, {
        ...init,
        headers: { authorization: SANDBOX_AUTH, accept: "application/json", "content-type": "application/json", ...init.headers },
      })
    ).text()
  ).length;
const size = (tools) => {
  const chars = JSON.stringify(tools).length;
  return `${tools.length} tools, ${chars} characters ≈ ${Math.round(chars / 4)} tokens`;
};

/** Storage format of a page of about `words` words: what a real runbook or design page holds. */
function longPage(words) {
  const vocabulary =
    "the gateway retries each request twice before it reports a failure to the caller and records the outcome in the audit log so that operators can see which upstream service was slow during the incident window".split(
      " ",
    );
  let n = 0;
  const sentence = (length) => {
    const out = [];
    for (let i = 0; i < length; i++) out.push(vocabulary[(n++ * 7) % vocabulary.length]);
    return `${out.join(" ")}.`;
  };
  const parts = [];
  let written = 0;
  for (let section = 1; written < words; section++) {
    parts.push(`<h2>Section ${section}: operating the gateway</h2>`);
    for (let p = 0; p < 4 && written < words; p++) {
      parts.push(
        `<p>${sentence(18)} <strong>${sentence(6)}</strong> ${sentence(20)} <a href="https://example.com/runbook/${section}">${sentence(3)}</a></p>`,
      );
      written += 47;
    }
    if (section % 3 === 0) {
      parts.push(
        `<table><tbody><tr><th>Service</th><th>Owner</th><th>Retry budget</th></tr>${[1, 2, 3, 4].map((r) => `<tr><td>service-${r}</td><td><ac:link><ri:user ri:account-id="acc-${r}" /></ac:link></td><td>${r * 2} retries</td></tr>`).join("")}</tbody></table>`,
      );
      parts.push(
        `<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">yaml</ac:parameter><ac:plain-text-body><![CDATA[retries: 2\ntimeoutMs: 5000\nbackoff: exponential]]></ac:plain-text-body></ac:structured-macro>`,
      );
      parts.push(
        `<ac:structured-macro ac:name="jira" ac:macro-id="m${section}"><ac:parameter ac:name="jqlQuery">project = BK AND component = gateway</ac:parameter></ac:structured-macro>`,
      );
      written += 30;
    }
  }
  return parts.join("");
}

export async function run() {
  requireBuild();
  const sandbox = await startSandboxProcess();
  const server = await startServer({
    env: {
      DEMO_SANDBOX_URL: sandbox.url,
      BITBUCKET_API_URL: `${sandbox.url}/2.0`,
      RATE_LIMIT_API_PER_MINUTE: "100000000",
      RATE_LIMIT_API_BURST: "1000000",
      ATLASSIAN_HOURLY_BUDGET: "100000000",
      BITBUCKET_HOURLY_BUDGET: "100000000",
    },
  });
  try {
    const rows = [];
    const readToken = await benchToken(server, "read");
    const defaultToken = await benchToken(server, "read write");
    // Everything: a client whose policy switches every toolset on.
    const everything = await benchClient(server, { name: "bench everything" });
    const all = await fetch(`${server.url}/api/admin/oauth-clients/${everything.clientId}/policy`, {
      method: "PUT",
      headers: { "content-type": "application/json", cookie: await adminCookie(server), origin: server.url },
      body: JSON.stringify({ toolsets: (await contractModule("policy")).TOOLSET_NAMES }),
    });
    if (all.status !== 200) throw new Error(`policy: ${all.status} ${await all.text()}`);
    const allToken = await clientToken(server, everything, "read write");
    rows.push({
      name: "tools/list, default toolsets, read write (target ≤ 6,000 tokens)",
      median: size((await rpc(server, defaultToken, "tools/list")).tools),
    });
    rows.push({ name: "tools/list, default toolsets, read-only token", median: size((await rpc(server, readToken, "tools/list")).tools) });
    rows.push({
      name: "tools/list, every toolset, read write (target ≤ 20,000 tokens)",
      median: size((await rpc(server, allToken, "tools/list")).tools),
    });

    // Answer sizes against the raw upstream JSON of the same request.
    const search = await rpc(server, readToken, "tools/call", {
      name: "jira_search",
      arguments: { jql: "project = BK ORDER BY key ASC", maxResults: 20 },
    });
    const searchRaw = await raw(`${sandbox.url}/rest/api/3/search/jql`, {
      method: "POST",
      body: JSON.stringify({
        jql: "project = BK ORDER BY key ASC",
        maxResults: 20,
        fields: ["summary", "status", "assignee", "priority", "issuetype", "updated"],
      }),
    });
    rows.push({
      name: "answer: jira_search, 20 issues",
      median: `${search.content[0].text.length} characters (raw upstream JSON: ${searchRaw})`,
    });

    // The seeded issue with the most comments, brought to 10 comments if it has fewer.
    const withComments = JSON.parse(
      await (
        await fetch(`${sandbox.url}/rest/api/3/search/jql`, {
          method: "POST",
          headers: { authorization: SANDBOX_AUTH, "content-type": "application/json" },
          body: JSON.stringify({ jql: "project = BK", maxResults: 100, fields: ["comment"] }),
        })
      ).text(),
    )
      .issues.map((i) => ({ key: i.key, n: i.fields.comment?.total ?? i.fields.comment?.comments?.length ?? 0 }))
      .sort((a, b) => b.n - a.n)[0];
    for (let n = withComments.n; n < 10; n++) {
      const body = {
        type: "doc",
        version: 1,
        content: [
          {
            type: "paragraph",
            content: [
              {
                type: "text",
                text: `Checked the retry budget again (${n + 1}): the gateway still retries twice, and the audit log shows which upstream was slow.`,
              },
            ],
          },
        ],
      };
      const added = await fetch(`${sandbox.url}/rest/api/3/issue/${withComments.key}/comment`, {
        method: "POST",
        headers: { authorization: SANDBOX_AUTH, "content-type": "application/json" },
        body: JSON.stringify({ body }),
      });
      if (added.status !== 201) throw new Error(`comment: ${added.status}`);
    }
    const issue = await rpc(server, readToken, "tools/call", {
      name: "jira_get_issue",
      arguments: { issueKey: withComments.key, comments: 10 },
    });
    const issueRaw = await raw(`${sandbox.url}/rest/api/3/issue/${withComments.key}`);
    rows.push({
      name: `answer: jira_get_issue with its latest ${issue.structuredContent.comments.length} comments`,
      median: `${issue.content[0].text.length} characters (raw upstream JSON: ${issueRaw})`,
    });

    // The sandbox's one large open pull request (config-service, about 700 diff lines), read at most 500 lines.
    const prs = await rpc(server, readToken, "tools/call", {
      name: "bitbucket_list_pull_requests",
      arguments: { repository: "config-service", maxResults: 50 },
    });
    if (prs.isError) throw new Error(`bitbucket_list_pull_requests: ${prs.content[0].text}`);
    const pr = prs.structuredContent.pullRequests.find((p) => p.title === "Validate every setting against its schema");
    if (!pr) throw new Error("the sandbox's large pull request is missing");
    const diff = await rpc(server, readToken, "tools/call", {
      name: "bitbucket_get_pull_request_diff",
      arguments: { repository: "config-service", pullRequestId: pr.id, maxLines: 500 },
    });
    const diffRaw = await raw(`${sandbox.url}/2.0/repositories/bridgekeeper/config-service/pullrequests/${pr.id}/diff`, {
      headers: { accept: "text/plain", authorization: BITBUCKET_AUTH },
    });
    const cut500 = diff.structuredContent;
    rows.push({
      name: `answer: bitbucket_get_pull_request_diff, maxLines 500 (${cut500.shownLines} of ${cut500.lines} lines shown, truncated ${cut500.truncated})`,
      median: `${diff.content[0].text.length} characters (raw upstream diff, all ${cut500.lines} lines: ${diffRaw})`,
    });

    // A 3,000-word Confluence page (headings, paragraphs, a table, a code block, a Jira macro, a
    // mention), read whole as Markdown, against the raw upstream JSON of the same page.
    const space = (await (await fetch(`${sandbox.url}/wiki/api/v2/spaces?limit=1`, { headers: { authorization: SANDBOX_AUTH } })).json())
      .results[0];
    const storage = longPage(3000);
    const made = await fetch(`${sandbox.url}/wiki/api/v2/pages`, {
      method: "POST",
      headers: { authorization: SANDBOX_AUTH, "content-type": "application/json" },
      body: JSON.stringify({
        spaceId: space.id,
        status: "current",
        title: `Bench: a 3,000-word page ${Date.now()}`,
        body: { representation: "storage", value: storage },
      }),
    });
    if (made.status !== 200) throw new Error(`page: ${made.status} ${await made.text()}`);
    const pageId = (await made.json()).id;
    const page = await rpc(server, readToken, "tools/call", { name: "confluence_get_page", arguments: { pageId, maxLength: 100000 } });
    if (page.isError) throw new Error(`confluence_get_page: ${page.content[0].text}`);
    const pageRaw = await raw(`${sandbox.url}/wiki/api/v2/pages/${pageId}?body-format=storage`);
    const words = page.structuredContent.body.split(/\s+/).filter(Boolean).length;
    rows.push({
      name: `answer: confluence_get_page, a 3,000-word page (${words} words of Markdown)`,
      median: `${page.content[0].text.length} characters (raw upstream JSON, storage format: ${pageRaw})`,
    });

    // jira_search under a project allow-list against without: two clients of the same server.
    const limited = await benchClient(server, { name: "bench limited" });
    const put = await fetch(`${server.url}/api/admin/oauth-clients/${limited.clientId}/policy`, {
      method: "PUT",
      headers: { "content-type": "application/json", cookie: await adminCookie(server), origin: server.url },
      body: JSON.stringify({ jiraProjects: ["BK"] }),
    });
    if (put.status !== 200) throw new Error(`policy: ${put.status} ${await put.text()}`);
    const limitedToken = await clientToken(server, limited, "read");
    // The same upstream work both ways: the open client asks for BK itself, the limited one is held to BK by the policy.
    const body = (jql) => () =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: nextId++,
        method: "tools/call",
        params: { name: "jira_search", arguments: { jql, maxResults: 20 }, _meta: ENVELOPE },
      });
    const bodies = new Map([
      [readToken, body("project = BK ORDER BY updated DESC")],
      [limitedToken, body("ORDER BY updated DESC")],
    ]);
    const load = (token) =>
      new Promise((resolve, reject) =>
        autocannon(
          {
            url: `${server.url}/mcp`,
            method: "POST",
            connections: 16,
            duration: SECONDS,
            headers: headers(token, "tools/call", "jira_search"),
            requests: [{ setupRequest: (req) => ({ ...req, body: bodies.get(token)() }) }],
          },
          (err, r) =>
            err
              ? reject(err)
              : r.non2xx + r.errors > 0
                ? reject(new Error(`${r.non2xx} non-2xx, ${r.errors} errors`))
                : resolve(r.requests.average),
        ),
      );
    await load(readToken);
    await load(limitedToken);
    const open = [];
    const restricted = [];
    for (let i = 0; i < RUNS; i++) {
      open.push(await load(readToken));
      restricted.push(await load(limitedToken));
    }
    const ratio = restricted.map((r, i) => r / open[i]);
    rows.push({
      name: "jira_search, concurrency 16, no allow-list",
      median: `${fmt(median(open))} req/s`,
      runs: open.map((x) => fmt(x)).join(", "),
    });
    rows.push({
      name: "jira_search, concurrency 16, Jira project allow-list [BK]",
      median: `${fmt(median(restricted))} req/s`,
      runs: restricted.map((x) => fmt(x)).join(", "),
    });
    rows.push({
      name: "allow-list / none (target within 10 %)",
      median: `${fmt(median(ratio), 3)}`,
      runs: ratio.map((x) => fmt(x, 3)).join(", "),
    });
    return rows;
  } finally {
    await server.stop();
    await sandbox.stop();
  }
}
