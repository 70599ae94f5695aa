/** The Bitbucket form's fields: Bitbucket Cloud (spec sections 3 and 5), or Data Center (issue 28). */
import type { AuthMethod, BitbucketConfigDto, Deployment, DeploymentChoice } from "@contract/integrations";
import { shownDeployment, type FormView, type SecretView } from "./integration-fields";

export interface BitbucketFormValues {
  deployment: DeploymentChoice;
  baseUrl: string;
  workspace: string;
  authMethod: AuthMethod;
  username: string;
  appPassword: string;
  isActive: boolean;
}
type BitbucketName = Exclude<keyof BitbucketFormValues, "appPassword" | "isActive" | "deployment">;

export const BITBUCKET_BLANKS: Partial<BitbucketFormValues> = { baseUrl: "", authMethod: "basic", username: "" };

export const bitbucketValues = (stored: BitbucketConfigDto | null | undefined): BitbucketFormValues => ({
  deployment: stored?.deploymentChoice ?? "auto",
  baseUrl: stored?.baseUrl ?? "",
  workspace: stored?.workspace ?? "",
  authMethod: stored?.authMethod ?? "basic",
  username: stored?.username ?? "",
  appPassword: "",
  isActive: stored?.configured ? stored.isActive : true,
});

/** Bitbucket's deployment is told by its base URL and the sign-in (Cloud's API URL is the server's). */
const bitbucketEntries = (v: Pick<BitbucketFormValues, "baseUrl" | "authMethod">, choice: DeploymentChoice) => ({
  choice,
  secondUrl: v.baseUrl,
  authMethod: v.authMethod,
});

const BITBUCKET_CLOUD_SECRET: SecretView = {
  label: "App password",
  storedNoun: "An app password",
  // Bitbucket retired app passwords in 2026: an Atlassian API token with Bitbucket scopes takes their place.
  howTo:
    "Bitbucket replaced app passwords with API tokens: create an Atlassian API token with Bitbucket scopes (repositories and pull requests) and enter your Atlassian email as the username. An existing app password also works.",
};
const BITBUCKET_TOKEN: SecretView = {
  label: "Access token",
  storedNoun: "A token",
  howTo:
    "A personal one: your avatar → Manage account → HTTP access tokens → Create token; or a project's or repository's: its Settings → HTTP access tokens. It has its owner's permissions, no more.",
};
const BITBUCKET_PASSWORD: SecretView = {
  label: "Password",
  storedNoun: "A password",
  howTo: "The password of the account Bridgekeeper signs in to Bitbucket as.",
};

/** The Bitbucket form for its current values: Cloud's spec fields, or Bitbucket Data Center's. */
export function bitbucketView(
  values: BitbucketFormValues,
  stored?: BitbucketConfigDto | null,
  detected?: Deployment | null,
): FormView<BitbucketName> {
  const shown = shownDeployment(
    "bitbucket",
    bitbucketEntries(values, values.deployment),
    stored?.configured ? { ...bitbucketEntries(stored, stored.deploymentChoice), deployment: stored.deployment } : null,
    detected,
  );
  if (shown.deployment === "cloud") {
    return {
      shown,
      fields: [
        { kind: "text", name: "workspace", label: "Workspace", placeholder: "your-workspace" },
        { kind: "text", name: "username", label: "Username", autoComplete: "username" },
      ],
      secret: BITBUCKET_CLOUD_SECRET,
    };
  }
  const token = values.authMethod === "token";
  return {
    shown,
    fields: [
      {
        kind: "text",
        name: "baseUrl",
        label: "Bitbucket base URL",
        type: "url",
        placeholder: "https://bitbucket.example.com",
        hint: "With Bitbucket's context path, if it has one (https://example.com/bitbucket).",
      },
      {
        kind: "text",
        name: "workspace",
        label: "Default project",
        placeholder: "PLAT",
        hint: "Optional. A repository is named PROJECT/repo; a name without a project is looked up in this one.",
      },
      {
        kind: "choice",
        name: "authMethod",
        label: "Sign in with",
        options: [
          { value: "token", label: "Access token" },
          { value: "basic", label: "Username and password" },
        ],
        hint: "A personal access token, or a project's or repository's HTTP access token.",
      },
      ...(token ? [] : [{ kind: "text", name: "username", label: "Username", autoComplete: "username" } as const]),
    ],
    secret: token ? BITBUCKET_TOKEN : BITBUCKET_PASSWORD,
  };
}
