import { describe, expect, it } from "vitest";
import { IDENTITY_MESSAGES, IdentitySettingsInputSchema, type IdentitySettingsDto } from "@contract/accounts";
import { identityFormErrors, identityFormValues, identityInputOf, type IdentityFormValues } from "./identity-form";

const stored = (over: Partial<IdentitySettingsDto> = {}): IdentitySettingsDto => ({
  integration: "atlassian",
  mode: "shared",
  allowMachineClients: false,
  allowApiTokens: false,
  oauthClientId: "",
  oauthClientSecretHint: null,
  deployment: "cloud",
  confluenceAppWanted: false,
  confluenceOauthClientId: "",
  confluenceOauthClientSecretHint: null,
  callbackUrl: "https://bk.example.com/api/account/links/atlassian/callback",
  updatedAt: null,
  ...over,
});

/** Atlassian on Data Center with Confluence configured: Jira's and Confluence's incoming application links. */
const dataCenter = (over: Partial<IdentitySettingsDto> = {}) => stored({ deployment: "datacenter", confluenceAppWanted: true, ...over });

const values = (over: Partial<IdentityFormValues> = {}): IdentityFormValues => ({ ...identityFormValues(stored()), ...over });

describe("the identity form's values", () => {
  it("start from the stored settings, the secrets always blank, shared when nothing is stored", () => {
    expect(identityFormValues(undefined)).toEqual({
      mode: "shared",
      allowMachineClients: false,
      allowApiTokens: false,
      oauthClientId: "",
      oauthClientSecret: "",
      confluenceOauthClientId: "",
      confluenceOauthClientSecret: "",
    });
    expect(
      identityFormValues(stored({ mode: "per-person", oauthClientId: "abc", oauthClientSecretHint: "wxyz", allowApiTokens: true })),
    ).toEqual({
      mode: "per-person",
      allowMachineClients: false,
      allowApiTokens: true,
      oauthClientId: "abc",
      oauthClientSecret: "",
      confluenceOauthClientId: "",
      confluenceOauthClientSecret: "",
    });
    expect(identityFormValues(dataCenter({ confluenceOauthClientId: "conf", confluenceOauthClientSecretHint: "wxyz" }))).toMatchObject({
      confluenceOauthClientId: "conf",
      confluenceOauthClientSecret: "",
    });
  });

  it("are sent trimmed, a blank secret left out (the stored one is kept), and pass the contract's schema", () => {
    const keep = identityInputOf(values({ mode: "per-person", oauthClientId: " abc ", oauthClientSecret: "  " }));
    expect(keep).toEqual({
      mode: "per-person",
      allowMachineClients: false,
      allowApiTokens: false,
      oauthClientId: "abc",
      confluenceOauthClientId: "",
    });
    expect(IdentitySettingsInputSchema.safeParse(keep).success).toBe(true);
    const change = identityInputOf(values({ oauthClientId: "abc", oauthClientSecret: "s3cret " }));
    expect(change.oauthClientSecret).toBe("s3cret");
    expect(IdentitySettingsInputSchema.safeParse(change).success).toBe(true);
  });

  it("send Confluence's link beside Jira's, its blank secret left out too", () => {
    const both = identityInputOf(
      values({ oauthClientId: "jira", oauthClientSecret: "js", confluenceOauthClientId: " conf ", confluenceOauthClientSecret: " cs " }),
    );
    expect(both).toMatchObject({
      oauthClientId: "jira",
      oauthClientSecret: "js",
      confluenceOauthClientId: "conf",
      confluenceOauthClientSecret: "cs",
    });
    expect(IdentitySettingsInputSchema.safeParse(both).success).toBe(true);
    const keep = identityInputOf(values({ confluenceOauthClientId: "conf", confluenceOauthClientSecret: " " }));
    expect(keep.confluenceOauthClientId).toBe("conf");
    expect(keep).not.toHaveProperty("confluenceOauthClientSecret");
  });
});

describe("the identity form's rules (the server's, checked before sending)", () => {
  it("accepts the shared account with nothing else", () => {
    expect(identityFormErrors(values(), stored())).toEqual({});
  });

  it("asks for a secret with a client id, unless the stored one is kept for the same client id", () => {
    expect(identityFormErrors(values({ oauthClientId: "abc" }), stored())).toEqual({
      oauthClientSecret: IDENTITY_MESSAGES.oauthClientSecret,
    });
    expect(identityFormErrors(values({ oauthClientId: "abc" }), stored({ oauthClientId: "abc", oauthClientSecretHint: "wxyz" }))).toEqual(
      {},
    );
    expect(identityFormErrors(values({ oauthClientId: "new" }), stored({ oauthClientId: "abc", oauthClientSecretHint: "wxyz" }))).toEqual({
      oauthClientSecret: IDENTITY_MESSAGES.oauthClientSecret,
    });
    expect(identityFormErrors(values({ oauthClientId: "new", oauthClientSecret: "s" }), stored({ oauthClientId: "abc" }))).toEqual({});
  });

  it("needs a way to link for each person's own account: the OAuth app or personal API tokens", () => {
    expect(identityFormErrors(values({ mode: "per-person" }), stored())).toEqual({ mode: IDENTITY_MESSAGES.noWayToLink });
    expect(identityFormErrors(values({ mode: "per-person", allowApiTokens: true }), stored())).toEqual({});
    expect(identityFormErrors(values({ mode: "per-person", oauthClientId: "abc", oauthClientSecret: "s" }), stored())).toEqual({});
    // A client id without its secret: the secret is what is missing.
    expect(identityFormErrors(values({ mode: "per-person", oauthClientId: "abc" }), stored())).toEqual({
      oauthClientSecret: IDENTITY_MESSAGES.oauthClientSecret,
    });
  });
});

describe("the identity form's rules on Data Center (issue 28)", () => {
  const jira = { oauthClientId: "jira", oauthClientSecret: "js" };
  const confluence = { confluenceOauthClientId: "conf", confluenceOauthClientSecret: "cs" };

  it("accepts Jira's and Confluence's links together, new or kept, in each person's own account", () => {
    expect(identityFormErrors(values({ mode: "per-person", ...jira, ...confluence }), dataCenter())).toEqual({});
    const kept = dataCenter({
      oauthClientId: "jira",
      oauthClientSecretHint: "t-js",
      confluenceOauthClientId: "conf",
      confluenceOauthClientSecretHint: "t-cs",
    });
    expect(identityFormErrors(identityFormValues(kept), kept)).toEqual({});
    expect(identityFormErrors(values({ mode: "per-person", allowApiTokens: true }), dataCenter())).toEqual({});
  });

  it("asks for Confluence's secret with its client id, a new client id a new secret", () => {
    expect(identityFormErrors(values({ ...jira, confluenceOauthClientId: "conf" }), dataCenter())).toEqual({
      confluenceOauthClientSecret: IDENTITY_MESSAGES.confluenceOauthClientSecret,
    });
    const kept = dataCenter({ confluenceOauthClientId: "conf", confluenceOauthClientSecretHint: "t-cs" });
    expect(identityFormErrors(values({ ...jira, confluenceOauthClientId: "other" }), kept)).toEqual({
      confluenceOauthClientSecret: IDENTITY_MESSAGES.confluenceOauthClientSecret,
    });
    expect(identityFormErrors(values({ ...jira, confluenceOauthClientId: "conf" }), kept)).toEqual({});
  });

  it("asks for Confluence's link when Jira's will be set and Confluence's will not", () => {
    expect(identityFormErrors(values({ mode: "per-person", ...jira }), dataCenter())).toEqual({
      confluenceOauthClientId: IDENTITY_MESSAGES.confluenceApp,
    });
    // A stored Jira link kept, Confluence's cleared.
    const kept = dataCenter({
      oauthClientId: "jira",
      oauthClientSecretHint: "t-js",
      confluenceOauthClientId: "conf",
      confluenceOauthClientSecretHint: "t-cs",
    });
    expect(identityFormErrors({ ...identityFormValues(kept), confluenceOauthClientId: "" }, kept)).toEqual({
      confluenceOauthClientId: IDENTITY_MESSAGES.confluenceApp,
    });
    // Without Confluence configured, Jira's link is enough.
    expect(identityFormErrors(values({ mode: "per-person", ...jira }), dataCenter({ confluenceAppWanted: false }))).toEqual({});
    // Neither link, personal access tokens allowed: nothing asked.
    expect(identityFormErrors(values({ mode: "per-person", allowApiTokens: true }), dataCenter())).toEqual({});
  });

  it("says Data Center's words when each person's own account has no way to link (Confluence's link alone is not one)", () => {
    expect(identityFormErrors(values({ mode: "per-person" }), dataCenter())).toEqual({ mode: IDENTITY_MESSAGES.noWayToLinkDataCenter });
    expect(identityFormErrors(values({ mode: "per-person", ...confluence }), dataCenter())).toEqual({
      mode: IDENTITY_MESSAGES.noWayToLinkDataCenter,
    });
    expect(
      identityFormErrors(values({ mode: "per-person" }), dataCenter({ integration: "bitbucket", confluenceAppWanted: false })),
    ).toEqual({
      mode: IDENTITY_MESSAGES.noWayToLinkDataCenter,
    });
  });

  it("leaves Cloud as it was: no Confluence link asked for, Cloud's words", () => {
    expect(identityFormErrors(values({ mode: "per-person", ...jira }), stored())).toEqual({});
    expect(identityFormErrors(values({ mode: "per-person" }), stored({ integration: "bitbucket" }))).toEqual({
      mode: IDENTITY_MESSAGES.noWayToLink,
    });
  });
});
