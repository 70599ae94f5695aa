/**
 * What the Atlassian and Bitbucket forms show for each deployment (issue 28): Cloud keeps the
 * spec's fields and texts (spec sections 3 and 5); Data Center asks for each product's base URL
 * and how the shared account signs in. "Detect automatically" shows the deployment the entries
 * point to (`deploymentFor`, the server's own guess), or the one the last connection test detected.
 * Each integration's fields: atlassian-fields.ts, bitbucket-fields.ts.
 */
import { DEPLOYMENT_LABELS, deploymentFor, type AuthMethod, type Deployment, type DeploymentChoice } from "@contract/integrations";

/** The deployment choice, in the order the form offers it. */
export const DEPLOYMENT_OPTIONS: readonly { value: DeploymentChoice; label: string }[] = [
  { value: "auto", label: "Detect automatically" },
  { value: "cloud", label: DEPLOYMENT_LABELS.cloud },
  { value: "datacenter", label: DEPLOYMENT_LABELS.datacenter },
];

/** A text input: its id is `${integration}-${name}`. */
export interface TextFieldView<Name extends string> {
  kind: "text";
  name: Name;
  label: string;
  type?: "text" | "url";
  placeholder?: string;
  autoComplete?: string;
  hint?: string;
}

/** A radio group: each option's id is `${integration}-${name}-${value}`. */
export interface ChoiceFieldView<Name extends string> {
  kind: "choice";
  name: Name;
  label: string;
  options: readonly { value: string; label: string }[];
  hint?: string;
}

export type FieldView<Name extends string> = TextFieldView<Name> | ChoiceFieldView<Name>;

/** The secret's texts (docs/decisions.md#write-only-secrets: never shown, blank keeps the stored one). */
export interface SecretView {
  label: string;
  /** "A token": the start of "A token is stored (•••• abcd)." */
  storedNoun: string;
  /** Where to get one, shown while none is stored. */
  howTo: string;
}

/** The deployment the form shows, and under "Detect automatically" the sentence saying which and why. */
export interface ShownDeployment {
  deployment: Deployment;
  note: string | null;
}

/**
 * A second write-only secret after the first (Data Center: Confluence's own personal access
 * token), with the stored one's last characters.
 */
export interface ExtraSecretView extends SecretView {
  name: string;
  storedHint: string | null;
}

/** What the form shows for its current values: the fields in order (the secret and Active follow). */
export interface FormView<Name extends string> {
  shown: ShownDeployment;
  fields: readonly FieldView<Name>[];
  secret: SecretView;
  extraSecret?: ExtraSecretView;
}

/** The entries that decide the deployment: the choice, the first and second address, the sign-in. */
export interface DeploymentEntries {
  choice: DeploymentChoice;
  url?: string | undefined;
  secondUrl?: string | undefined;
  authMethod: AuthMethod;
}

/** As the server stores an address: trimmed, without trailing slashes (case matters in a context path). */
const sameUrl = (a: string | undefined, b: string | undefined) =>
  (a ?? "").trim().replace(/\/+$/, "") === (b ?? "").trim().replace(/\/+$/, "");

/**
 * The deployment the form shows. A chosen one is shown as chosen. Under "Detect automatically":
 * while the entries are the stored ones, the deployment the server uses for them (a connection test
 * may have detected another than the guess, or confirmed it: `detected`, the product the last test
 * found); otherwise what the entries point to.
 */
export function shownDeployment(
  kind: "atlassian" | "bitbucket",
  entries: DeploymentEntries,
  stored?: (DeploymentEntries & { deployment: Deployment }) | null,
  detected?: Deployment | null,
): ShownDeployment {
  if (entries.choice !== "auto") return { deployment: entries.choice, note: null };
  const guess = deploymentFor(kind, { deployment: "auto", url: entries.url, secondUrl: entries.secondUrl, authMethod: entries.authMethod });
  const unchanged =
    stored?.choice === "auto" &&
    sameUrl(stored.url, entries.url) &&
    sameUrl(stored.secondUrl, entries.secondUrl) &&
    stored.authMethod === entries.authMethod;
  if (unchanged && (stored.deployment !== guess || detected === stored.deployment)) {
    return { deployment: stored.deployment, note: `Detected by the last connection test: ${DEPLOYMENT_LABELS[stored.deployment]}.` };
  }
  return { deployment: guess, note: `Looks like ${DEPLOYMENT_LABELS[guess]}: the test will confirm it.` };
}

/**
 * What a field the form does not show is validated and sent as: a value that says nothing (no
 * Confluence, Basic sign-in, no username), so a Data Center entry hidden on Cloud is not saved with
 * it. The form itself keeps what was typed: switching back shows it again.
 */
export function withHiddenBlank<Values extends object>(values: Values, view: FormView<string>, blanks: Partial<Values>): Values {
  const shown = new Set([...view.fields.map((field) => field.name), ...(view.extraSecret ? [view.extraSecret.name] : [])]);
  const hidden = Object.entries(blanks).filter(([name]) => !shown.has(name));
  return { ...values, ...Object.fromEntries(hidden) };
}
