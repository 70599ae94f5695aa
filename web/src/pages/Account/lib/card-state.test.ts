import { describe, expect, it } from "vitest";
import type { AccountLinkDto } from "@contract/accounts";
import type { MyIntegration } from "@/lib/account-links";
import { cardStateOf, relinkWay } from "./card-state";

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
