import { describe, expect, it } from "vitest";
import { citationCandidates, citationsFor } from "./citations";

const issue = (key: string, summary: string) => ({ key, summary, url: `https://acme.atlassian.net/browse/${key}` });

describe("citations", () => {
  it("cites the listed issues an answer names, as whole keys, in order of the results", () => {
    const found = [
      citationCandidates("jira", { issues: [issue("BK-1", "Login fails"), issue("BK-12", "Export CSV"), issue("BK-2", "Slow search")] }),
    ];
    const cited = citationsFor("BK-12 is done; bk-2 still needs a look.", found);
    expect(cited).toEqual([
      { kind: "jira", title: "BK-12: Export CSV", url: "https://acme.atlassian.net/browse/BK-12" },
      { kind: "jira", title: "BK-2: Slow search", url: "https://acme.atlassian.net/browse/BK-2" },
    ]);
  });

  it("always cites what a get tool returned, once, and never a non-web URL", () => {
    const page = { id: "42", title: "Runbook", url: "https://acme.atlassian.net/wiki/spaces/OPS/pages/42" };
    const found = [
      citationCandidates("confluence", page),
      citationCandidates("confluence", page),
      citationCandidates("jira", { issues: [{ key: "BK-3", summary: "x", url: "javascript:alert(1)" }] }),
    ];
    expect(citationsFor("See BK-3.", found)).toEqual([{ kind: "confluence", title: "Runbook", url: page.url }]);
  });

  it("names a pull request by its number and a repository by its name", () => {
    const found = [
      citationCandidates("bitbucket", {
        pullRequests: [{ id: 7, title: "Add retry", url: "https://bitbucket.org/acme/api/pull-requests/7" }],
      }),
      citationCandidates("bitbucket", { repositories: [{ slug: "api", name: "api", url: "https://bitbucket.org/acme/api" }] }),
    ];
    expect(citationsFor("PR #7 adds retries to api.", found).map((c) => c.title)).toEqual(["#7 Add retry", "api"]);
    expect(citationsFor("PR #70 is unrelated.", found)).toEqual([]);
  });

  it("stops at ten", () => {
    const issues = Array.from({ length: 15 }, (_, i) => issue(`BK-${i + 1}`, "s"));
    const text = issues.map((i) => i.key).join(" ");
    expect(citationsFor(text, [citationCandidates("jira", { issues })])).toHaveLength(10);
  });
});
