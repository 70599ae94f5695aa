import { IDENTITY_MESSAGES, type IdentityMode, type IdentitySettingsDto, type IdentitySettingsInput } from "@contract/accounts";

/**
 * What the identity form holds: the secrets always start blank (write-only,
 * docs/decisions.md#write-only-secrets). Confluence's app is Atlassian Data Center's incoming
 * application link on Confluence (issue 28); elsewhere it stays as stored.
 */
export interface IdentityFormValues {
  mode: IdentityMode;
  allowMachineClients: boolean;
  allowApiTokens: boolean;
  oauthClientId: string;
  oauthClientSecret: string;
  confluenceOauthClientId: string;
  confluenceOauthClientSecret: string;
}

/** The fields a rule across fields (here or the server's) may put a message under. */
export type IdentityErrorField = "mode" | "oauthClientSecret" | "confluenceOauthClientId" | "confluenceOauthClientSecret";
export const IDENTITY_ERROR_FIELDS: readonly IdentityErrorField[] = [
  "mode",
  "oauthClientSecret",
  "confluenceOauthClientId",
  "confluenceOauthClientSecret",
];

export const identityFormValues = (stored: IdentitySettingsDto | undefined): IdentityFormValues => ({
  mode: stored?.mode ?? "shared",
  allowMachineClients: stored?.allowMachineClients ?? false,
  allowApiTokens: stored?.allowApiTokens ?? false,
  oauthClientId: stored?.oauthClientId ?? "",
  oauthClientSecret: "",
  confluenceOauthClientId: stored?.confluenceOauthClientId ?? "",
  confluenceOauthClientSecret: "",
});

/**
 * Whether an app will have a secret after this save: a new one typed, or the stored one kept for
 * the same client id (a new client id takes a new secret).
 */
const keepsOrSetsSecret = (clientId: string, secret: string, storedClientId: string | undefined, storedHint: string | null | undefined) =>
  secret.trim() !== "" || (storedHint != null && clientId === storedClientId);

/**
 * The rules the server applies across fields, checked before sending (the server checks them
 * again): a client id needs a secret (a new client id a new secret), Jira's and Confluence's alike;
 * each person's own account needs a way to link one (the app with its secret, or personal tokens);
 * and on Data Center with Confluence configured, Jira's link goes with Confluence's.
 */
export function identityFormErrors(
  values: IdentityFormValues,
  stored: IdentitySettingsDto | undefined,
): Partial<Record<IdentityErrorField, string>> {
  const errors: Partial<Record<IdentityErrorField, string>> = {};
  const clientId = values.oauthClientId.trim();
  const hasApp =
    clientId !== "" && keepsOrSetsSecret(clientId, values.oauthClientSecret, stored?.oauthClientId, stored?.oauthClientSecretHint);
  if (clientId !== "" && !hasApp) errors.oauthClientSecret = IDENTITY_MESSAGES.oauthClientSecret;

  const confluenceId = values.confluenceOauthClientId.trim();
  const hasConfluenceApp =
    confluenceId !== "" &&
    keepsOrSetsSecret(
      confluenceId,
      values.confluenceOauthClientSecret,
      stored?.confluenceOauthClientId,
      stored?.confluenceOauthClientSecretHint,
    );
  if (confluenceId !== "" && !hasConfluenceApp) errors.confluenceOauthClientSecret = IDENTITY_MESSAGES.confluenceOauthClientSecret;
  else if (stored?.confluenceAppWanted && hasApp && confluenceId === "") errors.confluenceOauthClientId = IDENTITY_MESSAGES.confluenceApp;

  if (values.mode === "per-person" && !hasApp && !values.allowApiTokens && clientId === "")
    errors.mode = stored?.deployment === "datacenter" ? IDENTITY_MESSAGES.noWayToLinkDataCenter : IDENTITY_MESSAGES.noWayToLink;
  return errors;
}

/** The PUT body: trimmed; a blank secret is left out (the stored one is kept). */
export const identityInputOf = (values: IdentityFormValues): IdentitySettingsInput => {
  const secret = values.oauthClientSecret.trim();
  const confluenceSecret = values.confluenceOauthClientSecret.trim();
  return {
    mode: values.mode,
    allowMachineClients: values.allowMachineClients,
    allowApiTokens: values.allowApiTokens,
    oauthClientId: values.oauthClientId.trim(),
    ...(secret ? { oauthClientSecret: secret } : {}),
    confluenceOauthClientId: values.confluenceOauthClientId.trim(),
    ...(confluenceSecret ? { confluenceOauthClientSecret: confluenceSecret } : {}),
  };
};
