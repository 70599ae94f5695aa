/** The Atlassian form's fields: Jira and Confluence Cloud (spec sections 3 and 5), or Data Center (issue 28). */
import type { AtlassianConfigDto, AuthMethod, Deployment, DeploymentChoice } from "@contract/integrations";
import { shownDeployment, type FormView, type SecretView } from "./integration-fields";

export interface AtlassianFormValues {
  deployment: DeploymentChoice;
  instanceUrl: string;
  confluenceUrl: string;
  authMethod: AuthMethod;
  email: string;
  apiToken: string;
  confluenceToken: string;
  isActive: boolean;
}
type AtlassianName = Exclude<keyof AtlassianFormValues, "apiToken" | "confluenceToken" | "isActive" | "deployment">;

export const ATLASSIAN_BLANKS: Partial<AtlassianFormValues> = { confluenceUrl: "", authMethod: "basic", email: "", confluenceToken: "" };

export const atlassianValues = (stored: AtlassianConfigDto | null | undefined): AtlassianFormValues => ({
  deployment: stored?.deploymentChoice ?? "auto",
  instanceUrl: stored?.instanceUrl ?? "",
  confluenceUrl: stored?.confluenceUrl ?? "",
  authMethod: stored?.authMethod ?? "basic",
  email: stored?.email ?? "",
  apiToken: "",
  confluenceToken: "",
  isActive: stored?.configured ? stored.isActive : true,
});

const atlassianEntries = (v: Pick<AtlassianFormValues, "instanceUrl" | "confluenceUrl" | "authMethod">, choice: DeploymentChoice) => ({
  choice,
  url: v.instanceUrl,
  secondUrl: v.confluenceUrl,
  authMethod: v.authMethod,
});

const ATLASSIAN_CLOUD_SECRET: SecretView = {
  label: "API token",
  storedNoun: "A token",
  howTo: "Create one in your Atlassian account: Security, API tokens.",
};
const ATLASSIAN_PAT: SecretView = {
  label: "Personal access token",
  storedNoun: "A token",
  howTo: "Create one in Jira: your avatar → Profile → Personal Access Tokens → Create token. It has its user's permissions, no more.",
};
/** On Data Center Confluence is its own server: with a personal access token, its own token too. */
const CONFLUENCE_PAT = {
  name: "confluenceToken",
  label: "Confluence personal access token",
  storedNoun: "A token",
  howTo:
    "Create one in Confluence: your avatar → Settings → Personal Access Tokens → Create token. Confluence is its own server, with its own token.",
};
const ATLASSIAN_PASSWORD: SecretView = {
  label: "Password",
  storedNoun: "A password",
  howTo: "The password of the account Bridgekeeper signs in to Jira and Confluence as.",
};

/** The Atlassian form for its current values: Cloud's spec fields, or Jira's and Confluence's Data Center ones. */
export function atlassianView(
  values: AtlassianFormValues,
  stored?: AtlassianConfigDto | null,
  detected?: Deployment | null,
): FormView<AtlassianName> {
  const shown = shownDeployment(
    "atlassian",
    atlassianEntries(values, values.deployment),
    stored?.configured ? { ...atlassianEntries(stored, stored.deploymentChoice), deployment: stored.deployment } : null,
    detected,
  );
  if (shown.deployment === "cloud") {
    return {
      shown,
      fields: [
        { kind: "text", name: "instanceUrl", label: "Instance URL", type: "url", placeholder: "https://your-company.atlassian.net" },
        { kind: "text", name: "email", label: "Email or username", placeholder: "you@example.com", autoComplete: "username" },
      ],
      secret: ATLASSIAN_CLOUD_SECRET,
    };
  }
  const token = values.authMethod === "token";
  return {
    shown,
    fields: [
      {
        kind: "text",
        name: "instanceUrl",
        label: "Jira base URL",
        type: "url",
        placeholder: "https://jira.example.com",
        hint: "With Jira's context path, if it has one (https://example.com/jira).",
      },
      {
        kind: "text",
        name: "confluenceUrl",
        label: "Confluence base URL",
        type: "url",
        placeholder: "https://confluence.example.com",
        hint: "Optional. On Data Center, Confluence is its own server: leave blank to leave Confluence out.",
      },
      {
        kind: "choice",
        name: "authMethod",
        label: "Sign in with",
        options: [
          { value: "token", label: "Personal access token" },
          { value: "basic", label: "Username and password" },
        ],
      },
      ...(token ? [] : [{ kind: "text", name: "email", label: "Username", autoComplete: "username" } as const]),
    ],
    secret: token ? ATLASSIAN_PAT : ATLASSIAN_PASSWORD,
    ...(token && values.confluenceUrl.trim() !== ""
      ? { extraSecret: { ...CONFLUENCE_PAT, storedHint: stored?.confluenceTokenHint ?? null } }
      : {}),
  };
}
