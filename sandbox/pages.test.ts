import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml } from "./core/html";
import { startSandbox, type Sandbox } from "./server";

/**
 * The services' web pages: each object's page is reached, without credentials, through the very
 * link the REST API gives for it (or, for Jira, the /browse/KEY address Bridgekeeper builds), and
 * shows its seeded data escaped; the REST APIs still ask for credentials.
 */
let sandbox: Sandbox;
let authorization: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  const { email, apiToken } = sandbox.credentials.atlassian;
  authorization = `Basic ${Buffer.from(`${email}:${apiToken}`).toString("base64")}`;
});
afterAll(() => sandbox.close());

const api = async (path: string, init: { method?: string; body?: unknown } = {}): Promise<any> => {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  expect(res.status, `${path}: ${res.status}`).toBeLessThan(300);
  return res.json();
};

/** A page as a browser gets it: no Authorization header. */
async function page(url: string, status = 200): Promise<string> {
  const res = await fetch(url.startsWith("http") ? url : `${sandbox.url}${url}`);
  expect(res.status, url).toBe(status);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
  const html = await res.text();
  expect(html).toMatch(/^<!doctype html>/);
  return html;
}

const expectText = (html: string, ...values: string[]) => {
  for (const v of values) expect(html).toContain(escapeHtml(v));
};

describe("Jira issue pages", () => {
  it("shows an issue's key, summary, type, status, assignee and description at /browse/KEY", async () => {
    const issue = await api("/rest/api/3/issue/BK-1");
    const html = await page(`${sandbox.url}/browse/${issue.key}`);
    const f = issue.fields;
    expectText(html, `${issue.key}: ${f.summary}`, f.issuetype.name, f.status.name, f.assignee?.displayName ?? "Unassigned");
    const firstText = JSON.stringify(f.description).match(/"text":"([^"]+)"/)![1]!;
    expectText(html, firstText);
  });

  it("answers an unknown key with a 404 page", async () => {
    expect(await page("/browse/BK-999999", 404)).toContain("Issue BK-999999 does not exist.");
  });

  it("escapes what a user wrote", async () => {
    const description = {
      type: "doc",
      version: 1,
      content: [{ type: "paragraph", content: [{ type: "text", text: '<img src=x onerror="alert(2)">' }] }],
    };
    const created = await api("/rest/api/3/issue", {
      method: "POST",
      body: { fields: { project: { key: "BK" }, issuetype: { name: "Task" }, summary: "<script>alert(1)</script>", description } },
    });
    const html = await page(`/browse/${created.key}`);
    expect(html).toContain(`${created.key}: &lt;script&gt;alert(1)&lt;/script&gt;`);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
    expect(html).not.toMatch(/<script|<img/i);
  });
});

describe("Confluence pages", () => {
  it("shows a page's title, space and body at its webui, tinyui and viewpage.action addresses", async () => {
    const [p] = (await api("/wiki/api/v2/pages?limit=1&body-format=storage")).results;
    const space = (await api(`/wiki/api/v2/spaces/${p.spaceId}`)) as { key: string; name: string };
    for (const path of [p._links.webui, p._links.tinyui, `/pages/viewpage.action?pageId=${p.id}`]) {
      const html = await page(`${sandbox.url}/wiki${path}`);
      expectText(html, p.title, `${space.name} (${space.key})`);
    }
    // The storage body's first heading or paragraph, shown as markup.
    const first = /<(h\d|p)>([^<]+)<\/\1>/.exec(p.body.storage.value)!;
    expect(await page(`${sandbox.url}/wiki${p._links.webui}`)).toContain(first[0]);
  });

  it("shows a blog post at its webui, and a space at its own", async () => {
    const [post] = (await api("/wiki/api/v2/blogposts?limit=1")).results;
    expectText(await page(`${sandbox.url}/wiki${post._links.webui}`), post.title, "Blog post");
    const [space] = (await api("/wiki/api/v2/spaces?limit=1")).results;
    expectText(await page(`${sandbox.url}/wiki${space._links.webui}`), space.name, space.key);
  });

  it("answers an unknown page or space with a 404 page", async () => {
    expect(await page("/wiki/pages/viewpage.action?pageId=99999999", 404)).toContain("Page 99999999 does not exist.");
    expect(await page("/wiki/spaces/ENG/pages/99999999/Nothing", 404)).toContain("does not exist");
    expect(await page("/wiki/spaces/NOPE", 404)).toContain("Space NOPE does not exist.");
  });

  it("keeps plain markup of a body and drops scripts, styles, attributes and other tags", async () => {
    const [space] = (await api("/wiki/api/v2/spaces?keys=ENG")).results;
    const value =
      '<p onclick="alert(1)" style="color:red">Hello <strong>there</strong> &amp; 1 &lt; 2</p><script>alert(2)</script><style>p{}</style>' +
      '<p><a href="javascript:alert(3)">link text</a><img src="x" onerror="alert(4)"/></p>' +
      '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">html</ac:parameter><ac:plain-text-body><![CDATA[<script>x()</script>]]></ac:plain-text-body></ac:structured-macro>';
    const created = await api("/wiki/api/v2/pages", {
      method: "POST",
      body: { spaceId: space.id, title: "<b>Unsafe</b> page", body: { representation: "storage", value } },
    });
    const html = await page(`${sandbox.url}/wiki${created._links.webui}`);
    expect(html).toContain("<title>&lt;b&gt;Unsafe&lt;/b&gt; page</title>");
    expect(html).toContain("<p>Hello <strong>there</strong> &amp; 1 &lt; 2</p>");
    expect(html).toContain("<p>link text</p>");
    expect(html).toContain("<pre>&lt;script&gt;x()&lt;/script&gt;</pre>");
    expect(html).not.toMatch(/<script|<img|<a |onclick|onerror|javascript:|alert\(2\)/i);
  });
});

describe("Bitbucket pages", () => {
  const REPO = "/2.0/repositories/bridgekeeper/api-gateway";

  it("shows a repository at its links.html.href", async () => {
    const repo = await api(REPO);
    expectText(await page(repo.links.html.href), repo.full_name, repo.name, repo.mainbranch.name, repo.description);
  });

  it("shows a pull request's title, state, author, branches and description at its links.html.href", async () => {
    const [listed] = (await api(`${REPO}/pullrequests?state=MERGED&pagelen=1`)).values;
    const pr = await api(`${REPO}/pullrequests/${listed.id}`);
    const html = await page(pr.links.html.href);
    expectText(
      html,
      `#${pr.id}: ${pr.title}`,
      pr.state,
      pr.author.display_name,
      `${pr.source.branch.name} → ${pr.destination.branch.name}`,
      pr.description.split("\n")[0],
    );
  });

  it("shows a commit's message at its links.html.href", async () => {
    const [commit] = (await api(`${REPO}/commits?pagelen=1`)).values;
    const html = await page(commit.links.html.href);
    expectText(html, commit.message.split("\n")[0], commit.hash, commit.author.user.display_name);
  });

  it("answers an unknown repository, pull request or commit with a 404 page", async () => {
    expect(await page("/bridgekeeper/no-such-repo", 404)).toContain("Repository bridgekeeper/no-such-repo does not exist.");
    expect(await page("/bridgekeeper/api-gateway/pull-requests/99999", 404)).toContain("Pull request #99999 does not exist");
    expect(await page("/bridgekeeper/api-gateway/commits/0000000000000000", 404)).toContain("does not exist");
  });
});

describe("the REST APIs", () => {
  it("still require credentials", async () => {
    for (const path of [
      "/rest/api/3/issue/BK-1",
      "/wiki/rest/api/content",
      "/wiki/api/v2/pages",
      "/2.0/repositories/bridgekeeper/api-gateway",
    ]) {
      expect((await fetch(`${sandbox.url}${path}`)).status, path).toBe(401);
    }
  });

  it("are not answered by a page for a method other than GET", async () => {
    const res = await fetch(`${sandbox.url}/browse/BK-1`, { method: "POST" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/json/);
  });
});
