import { IDENTITY_MESSAGES, type IdentityMode, type IdentitySettingsDto, type IdentitySettingsInput } from "@contract/accounts";

/** What the identity form holds: the secret always starts blank (write-only, docs/decisions.md#write-only-secrets). */
export interface IdentityFormValues {
  mode: IdentityMode;
  allowMachineClients: boolean;
  allowApiTokens: boolean;
  oauthClientId: string;
  oauthClientSecret: string;
}

export const identityFormValues = (stored: IdentitySettingsDto | undefined): IdentityFormValues => ({
  mode: stored?.mode ?? "shared",
  allowMachineClients: stored?.allowMachineClients ?? false,
  allowApiTokens: stored?.allowApiTokens ?? false,
  oauthClientId: stored?.oauthClientId ?? "",
  oauthClientSecret: "",
});

/** Whether the OAuth app will have a secret after this save: a new one typed, or the stored one kept for the same client id. */
const keepsOrSetsSecret = (values: IdentityFormValues, stored: IdentitySettingsDto | undefined): boolean =>
  values.oauthClientSecret.trim() !== "" || (stored?.oauthClientSecretHint != null && values.oauthClientId.trim() === stored.oauthClientId);

/**
 * The rules the server applies across fields, checked before sending (the server checks them
 * again): a client id needs a secret (a new client id a new secret), and each person's own account
 * needs a way to link one (an OAuth app with its secret, or personal API tokens).
 */
export function identityFormErrors(
  values: IdentityFormValues,
  stored: IdentitySettingsDto | undefined,
): Partial<Record<"mode" | "oauthClientSecret", string>> {
  const errors: Partial<Record<"mode" | "oauthClientSecret", string>> = {};
  const clientId = values.oauthClientId.trim();
  const hasApp = clientId !== "" && keepsOrSetsSecret(values, stored);
  if (clientId !== "" && !hasApp) errors.oauthClientSecret = IDENTITY_MESSAGES.oauthClientSecret;
  if (values.mode === "per-person" && !hasApp && !values.allowApiTokens && clientId === "") errors.mode = IDENTITY_MESSAGES.noWayToLink;
  return errors;
}

/** The PUT body: trimmed; a blank secret is left out (the stored one is kept). */
export const identityInputOf = (values: IdentityFormValues): IdentitySettingsInput => {
  const secret = values.oauthClientSecret.trim();
  return {
    mode: values.mode,
    allowMachineClients: values.allowMachineClients,
    allowApiTokens: values.allowApiTokens,
    oauthClientId: values.oauthClientId.trim(),
    ...(secret ? { oauthClientSecret: secret } : {}),
  };
};
