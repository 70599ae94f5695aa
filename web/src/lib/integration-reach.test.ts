import { describe, expect, it } from "vitest";
import { atlassianReachText, bitbucketReachText, checkedText } from "./integration-reach";

const alice = { displayName: "Alice Admin", id: "5b10ac8d82e05b22cc7d4ef5", email: "alice@example.com", nickname: null };
const bot = { displayName: "Bridgekeeper Bot", id: "{0d3f5a1e-6c1b-4f43-9d3a-0c5e8b1f2a77}", email: null, nickname: "bridgekeeper-bot" };

describe("the account line of the Atlassian cards (issue 25)", () => {
  it("says who it connects as and what it sees", () => {
    expect(atlassianReachText({ account: alice, jiraProjectCount: 4, confluenceSpaceCount: 3, confluenceSpaceCountCapped: false })).toBe(
      "Connects as Alice Admin (alice@example.com) · sees 4 projects, 3 spaces",
    );
  });

  it("counts in the singular, groups thousands, and says 1,000+ when counting stopped at the cap", () => {
    expect(atlassianReachText({ account: alice, jiraProjectCount: 1, confluenceSpaceCount: 1, confluenceSpaceCountCapped: false })).toBe(
      "Connects as Alice Admin (alice@example.com) · sees 1 project, 1 space",
    );
    expect(
      atlassianReachText({ account: alice, jiraProjectCount: 1200, confluenceSpaceCount: 1000, confluenceSpaceCountCapped: true }),
    ).toBe("Connects as Alice Admin (alice@example.com) · sees 1,200 projects, 1,000+ spaces");
    expect(atlassianReachText({ account: alice, jiraProjectCount: 0, confluenceSpaceCount: 0, confluenceSpaceCountCapped: false })).toBe(
      "Connects as Alice Admin (alice@example.com) · sees 0 projects, 0 spaces",
    );
  });

  it("leaves out what is not known: a hidden email, a count never learned", () => {
    expect(atlassianReachText({ account: { ...alice, email: null }, jiraProjectCount: 4, confluenceSpaceCount: null })).toBe(
      "Connects as Alice Admin · sees 4 projects",
    );
    expect(atlassianReachText({ account: alice, jiraProjectCount: null, confluenceSpaceCount: null })).toBe(
      "Connects as Alice Admin (alice@example.com)",
    );
    expect(atlassianReachText({ account: null, jiraProjectCount: null, confluenceSpaceCount: 3 })).toBe("Sees 3 spaces");
  });

  it("says nothing while nothing is known, or when the server sent none of it", () => {
    expect(
      atlassianReachText({ account: null, jiraProjectCount: null, confluenceSpaceCount: null, confluenceSpaceCountCapped: false }),
    ).toBeNull();
    expect(atlassianReachText({})).toBeNull();
  });
});

describe("the account line of the Bitbucket cards (issue 25)", () => {
  it("says who it connects as and how many repositories the workspace has", () => {
    expect(bitbucketReachText({ account: bot, workspaceName: "Acme", repositoryCount: 12 })).toBe(
      "Connects as Bridgekeeper Bot (bridgekeeper-bot) · 12 repositories in Acme",
    );
    expect(bitbucketReachText({ account: bot, workspaceName: "Acme", repositoryCount: 1 })).toBe(
      "Connects as Bridgekeeper Bot (bridgekeeper-bot) · 1 repository in Acme",
    );
  });

  it("a nickname that is the name is not said twice; an unknown workspace leaves the repositories out", () => {
    expect(bitbucketReachText({ account: { ...bot, displayName: "bridgekeeper-bot" }, workspaceName: null, repositoryCount: null })).toBe(
      "Connects as bridgekeeper-bot",
    );
    expect(bitbucketReachText({ account: null, workspaceName: null, repositoryCount: null })).toBeNull();
    expect(bitbucketReachText({})).toBeNull();
  });
});

describe("checkedText", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");
  it("is the spec's relative time inside a sentence", () => {
    expect(checkedText(new Date(now - 5 * 60_000).toISOString(), now)).toBe("Checked 5m ago");
    expect(checkedText(new Date(now - 10_000).toISOString(), now)).toBe("Checked just now");
    expect(checkedText(new Date(now - 3 * 86_400_000).toISOString(), now)).toBe("Checked 3d ago");
  });
});
