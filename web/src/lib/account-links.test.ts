import { describe, expect, it } from "vitest";
import { linkErrorMessage, type AccountLinkDto, type MyAccountsDto } from "@contract/accounts";
import {
  actedAsText,
  chatLinkWarning,
  integrationsNeedingLink,
  linkOutcomeOf,
  needsLink,
  withoutLinkOutcome,
  type MyIntegration,
} from "./account-links";

const link = (over: Partial<AccountLinkDto> = {}): AccountLinkDto => ({
  integration: "atlassian",
  kind: "atlassian-oauth",
  account: { displayName: "Priya Raman", accountId: "712020:7ee0", email: "priya.raman@example.com" },
  siteUrl: "https://acme.atlassian.net",
  scopes: ["read:jira-work"],
  linkedAt: "2026-03-02T10:00:00.000Z",
  lastUsedAt: null,
  state: "working",
  problem: null,
  ...over,
});

const entry = (over: Partial<MyIntegration> = {}): MyIntegration => ({
  integration: "atlassian",
  label: "Atlassian",
  configured: true,
  mode: "per-person",
  oauthAvailable: true,
  apiTokensAllowed: false,
  siteUrl: "https://acme.atlassian.net",
  deployment: "cloud",
  confluenceTokenWanted: false,
  link: null,
  ...over,
});

const my = (...integrations: MyIntegration[]): MyAccountsDto => ({ integrations });

describe("which integrations still need the person's link (issue 27)", () => {
  it("needs one only where each person's own account is used, the integration is on, and no working link exists", () => {
    expect(needsLink(entry())).toBe(true);
    expect(needsLink(entry({ link: link({ state: "needs-relinking", problem: "Refresh token revoked" }) }))).toBe(true);
    expect(needsLink(entry({ link: link() }))).toBe(false);
    expect(needsLink(entry({ mode: "shared" }))).toBe(false);
    expect(needsLink(entry({ configured: false }))).toBe(false);
  });

  it("keeps the contract's order and, given the chat's sources, only the integrations they go through", () => {
    const atlassian = entry();
    const bitbucket = entry({ integration: "bitbucket", label: "Bitbucket", siteUrl: null });
    const both = my(bitbucket, atlassian);
    expect(integrationsNeedingLink(both).map((e) => e.integration)).toEqual(["atlassian", "bitbucket"]);
    expect(integrationsNeedingLink(both, ["jira"]).map((e) => e.integration)).toEqual(["atlassian"]);
    expect(integrationsNeedingLink(both, ["bitbucket"]).map((e) => e.integration)).toEqual(["bitbucket"]);
    expect(integrationsNeedingLink(both, [])).toEqual([]);
    expect(integrationsNeedingLink(null)).toEqual([]);
    expect(integrationsNeedingLink(undefined, ["jira"])).toEqual([]);
  });
});

describe("the chat's warning", () => {
  const text = (w: { before: string; after: string }) => `${w.before}My accounts${w.after}`;

  it("names the chosen sources with the right verb and points to My accounts", () => {
    expect(text(chatLinkWarning(entry(), ["jira", "confluence", "bitbucket"]))).toBe(
      "Jira and Confluence answer as you: link your Atlassian account on My accounts first.",
    );
    expect(text(chatLinkWarning(entry(), ["confluence"]))).toBe(
      "Confluence answers as you: link your Atlassian account on My accounts first.",
    );
    expect(text(chatLinkWarning(entry({ integration: "bitbucket", label: "Bitbucket" }), ["bitbucket", "jira"]))).toBe(
      "Bitbucket answers as you: link your Bitbucket account on My accounts first.",
    );
  });

  it("asks for re-linking when the link stopped working", () => {
    const broken = entry({ link: link({ state: "needs-relinking", problem: "Revoked" }) });
    expect(text(chatLinkWarning(broken, ["jira", "confluence"]))).toBe(
      "Jira and Confluence answer as you: your Atlassian account needs re-linking on My accounts.",
    );
  });
});

describe("the outcome the service's callback puts in My accounts' address", () => {
  it("reads a success and each known error code", () => {
    expect(linkOutcomeOf("?integration=atlassian&linked=1")).toEqual({ kind: "linked", integration: "atlassian" });
    expect(linkOutcomeOf("integration=bitbucket&link_error=denied")).toEqual({ kind: "error", integration: "bitbucket", code: "denied" });
    expect(linkOutcomeOf("?integration=atlassian&link_error=site")).toEqual({ kind: "error", integration: "atlassian", code: "site" });
  });

  it("ignores an address without an outcome or with an unknown integration; an unknown code reads as upstream", () => {
    expect(linkOutcomeOf("")).toBeNull();
    expect(linkOutcomeOf("?integration=atlassian")).toBeNull();
    expect(linkOutcomeOf("?integration=atlassian&linked=0")).toBeNull();
    expect(linkOutcomeOf("?integration=github&linked=1")).toBeNull();
    expect(linkOutcomeOf("?linked=1")).toBeNull();
    expect(linkOutcomeOf("?integration=atlassian&link_error=<script>")).toEqual({
      kind: "error",
      integration: "atlassian",
      code: "upstream",
    });
  });

  it("is shown with the contract's message", () => {
    const outcome = linkOutcomeOf("?integration=atlassian&link_error=denied");
    expect(outcome?.kind === "error" && linkErrorMessage(outcome.code, "Atlassian", null)).toBe(
      "You cancelled at Atlassian: nothing was linked.",
    );
  });

  it("is taken out of the address, anything else kept", () => {
    expect(withoutLinkOutcome("?integration=atlassian&linked=1")).toBe("");
    expect(withoutLinkOutcome("?integration=atlassian&link_error=code&tab=x")).toBe("?tab=x");
    expect(withoutLinkOutcome("")).toBe("");
  });
});

describe("the request log's Acted as", () => {
  it("names the shared account, else shows the person's account id", () => {
    expect(actedAsText("shared")).toBe("Shared account");
    expect(actedAsText("712020:7ee0b909")).toBe("712020:7ee0b909");
  });
});
