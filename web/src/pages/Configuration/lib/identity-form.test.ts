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
  callbackUrl: "https://bk.example.com/api/account/links/atlassian/callback",
  updatedAt: null,
  ...over,
});

const values = (over: Partial<IdentityFormValues> = {}): IdentityFormValues => ({ ...identityFormValues(stored()), ...over });

describe("the identity form's values", () => {
  it("start from the stored settings, the secret always blank, shared when nothing is stored", () => {
    expect(identityFormValues(undefined)).toEqual({
      mode: "shared",
      allowMachineClients: false,
      allowApiTokens: false,
      oauthClientId: "",
      oauthClientSecret: "",
    });
    expect(
      identityFormValues(stored({ mode: "per-person", oauthClientId: "abc", oauthClientSecretHint: "wxyz", allowApiTokens: true })),
    ).toEqual({
      mode: "per-person",
      allowMachineClients: false,
      allowApiTokens: true,
      oauthClientId: "abc",
      oauthClientSecret: "",
    });
  });

  it("are sent trimmed, a blank secret left out (the stored one is kept), and pass the contract's schema", () => {
    const keep = identityInputOf(values({ mode: "per-person", oauthClientId: " abc ", oauthClientSecret: "  " }));
    expect(keep).toEqual({ mode: "per-person", allowMachineClients: false, allowApiTokens: false, oauthClientId: "abc" });
    expect(IdentitySettingsInputSchema.safeParse(keep).success).toBe(true);
    const change = identityInputOf(values({ oauthClientId: "abc", oauthClientSecret: "s3cret " }));
    expect(change.oauthClientSecret).toBe("s3cret");
    expect(IdentitySettingsInputSchema.safeParse(change).success).toBe(true);
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
