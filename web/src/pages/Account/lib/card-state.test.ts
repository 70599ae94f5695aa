import { describe, expect, it } from "vitest";
import type { AccountLinkDto } from "@contract/accounts";
import type { MyIntegration } from "@/lib/account-links";
import { cardStateOf, connectLabel, isTokenKind, relinkWay, tokenDisclosureLabel } from "./card-state";

const link = (over: Partial<AccountLinkDto> = {}): AccountLinkDto => ({
  integration: "atlassian",
  kind: "atlassian-oauth",
  account: { displayName: "Priya Raman", accountId: "712020:7ee0", email: null },
  siteUrl: null,
  scopes: [],
  linkedAt: "2026-03-02T10:00:00.000Z",
  lastUsedAt: null,
  state: "needs-relinking",
  problem: "Atlassian refused the refresh token",
  ...over,
});

const entry = (over: Partial<MyIntegration> = {}): MyIntegration => ({
  integration: "atlassian",
  label: "Atlassian",
  configured: true,
  mode: "per-person",
  oauthAvailable: true,
  apiTokensAllowed: true,
  siteUrl: null,
  deployment: "cloud",
  confluenceTokenWanted: false,
  link: null,
  ...over,
});

describe("what a card on My accounts shows", () => {
  it("shows a link whatever the mode (one kept from before can still be removed)", () => {
    expect(cardStateOf(entry({ link: link() }))).toBe("linked");
    expect(cardStateOf(entry({ link: link(), mode: "shared" }))).toBe("linked");
    expect(cardStateOf(entry({ link: link(), configured: false }))).toBe("linked");
  });

  it("says why there is nothing to link, else offers the ways", () => {
    expect(cardStateOf(entry({ configured: false }))).toBe("not-configured");
    expect(cardStateOf(entry({ configured: false, mode: "shared" }))).toBe("not-configured");
    expect(cardStateOf(entry({ mode: "shared" }))).toBe("shared");
    expect(cardStateOf(entry({ oauthAvailable: false, apiTokensAllowed: false }))).toBe("no-way");
    expect(cardStateOf(entry())).toBe("not-linked");
    expect(cardStateOf(entry({ oauthAvailable: false }))).toBe("not-linked");
  });
});

describe("how Re-link mends a link", () => {
  it("takes the way the link was made when it is still open, else the other", () => {
    expect(relinkWay(entry({ link: link() }))).toBe("oauth");
    expect(relinkWay(entry({ link: link({ kind: "atlassian-api-token" }) }))).toBe("api-token");
    expect(relinkWay(entry({ link: link({ kind: "atlassian-api-token" }), apiTokensAllowed: false }))).toBe("oauth");
    expect(relinkWay(entry({ link: link(), oauthAvailable: false }))).toBe("api-token");
    expect(relinkWay(entry({ link: link(), oauthAvailable: false, apiTokensAllowed: false }))).toBeNull();
  });
});

describe("Data Center's links (issue 28)", () => {
  it("knows a personal token from an OAuth grant: every kind not ending in oauth is a token", () => {
    expect(isTokenKind("atlassian-api-token")).toBe(true);
    expect(isTokenKind("bitbucket-api-token")).toBe(true);
    expect(isTokenKind("atlassian-dc-token")).toBe(true);
    expect(isTokenKind("bitbucket-dc-token")).toBe(true);
    expect(isTokenKind("atlassian-oauth")).toBe(false);
    expect(isTokenKind("bitbucket-oauth")).toBe(false);
    expect(isTokenKind("atlassian-dc-oauth")).toBe(false);
    expect(isTokenKind("bitbucket-dc-oauth")).toBe(false);
  });

  it("re-links a personal access token with the token form, an application link's grant with the consent", () => {
    const dc = { deployment: "datacenter", confluenceTokenWanted: true } as const;
    expect(relinkWay(entry({ ...dc, link: link({ kind: "atlassian-dc-token" }) }))).toBe("api-token");
    expect(
      relinkWay(entry({ ...dc, integration: "bitbucket", link: link({ integration: "bitbucket", kind: "bitbucket-dc-token" }) })),
    ).toBe("api-token");
    expect(relinkWay(entry({ ...dc, link: link({ kind: "atlassian-dc-oauth" }) }))).toBe("oauth");
    expect(relinkWay(entry({ ...dc, link: link({ kind: "atlassian-dc-token" }), apiTokensAllowed: false }))).toBe("oauth");
    expect(relinkWay(entry({ ...dc, link: link({ kind: "atlassian-dc-oauth" }), oauthAvailable: false }))).toBe("api-token");
  });

  it("names the consent the Connect button leads to: Jira's, then Confluence's when it is configured", () => {
    expect(connectLabel(entry({ deployment: "datacenter", confluenceTokenWanted: true }))).toBe("Connect with Jira and Confluence");
    expect(connectLabel(entry({ deployment: "datacenter", confluenceTokenWanted: false }))).toBe("Connect with Jira");
    expect(connectLabel(entry({ integration: "bitbucket", label: "Bitbucket", deployment: "datacenter" }))).toBe("Connect with Bitbucket");
    // Cloud as before.
    expect(connectLabel(entry())).toBe("Connect with Atlassian");
    expect(connectLabel(entry({ integration: "bitbucket", label: "Bitbucket" }))).toBe("Connect with Bitbucket");
  });

  it("offers Data Center's personal access tokens (one, or Jira's and Confluence's), Cloud's API token", () => {
    expect(tokenDisclosureLabel(entry({ deployment: "datacenter", confluenceTokenWanted: true }))).toBe(
      "Use personal access tokens instead",
    );
    expect(tokenDisclosureLabel(entry({ deployment: "datacenter", confluenceTokenWanted: false }))).toBe(
      "Use a personal access token instead",
    );
    expect(tokenDisclosureLabel(entry({ integration: "bitbucket", deployment: "datacenter" }))).toBe("Use a personal access token instead");
    expect(tokenDisclosureLabel(entry())).toBe("Use a personal API token instead");
    expect(tokenDisclosureLabel(entry({ integration: "bitbucket" }))).toBe("Use a personal API token instead");
  });
});
