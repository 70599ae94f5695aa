/**
 * The Dashboard's "Get started" checklist (issue 25): each step ticks itself from the server's
 * live state, and links to where it is done.
 */

/** GET /api/setup-status. */
export interface SetupStatusDto {
  atlassianConfigured: boolean;
  bitbucketConfigured: boolean;
  /** An AI client holds a live sign-in (an unexpired, unrevoked grant). */
  aiClientConnected: boolean;
  /** False while the signed-in user still has the first administrator's generated password. */
  passwordChanged: boolean;
  aiProviderAdded: boolean;
}

export type SetupStepKey = keyof SetupStatusDto;

export interface SetupStep {
  key: SetupStepKey;
  label: string;
  /** Where it is done. */
  href: string;
  action: string;
  optional?: boolean;
}

export const SETUP_STEPS: readonly SetupStep[] = [
  { key: "atlassianConfigured", label: "Configure Atlassian (Jira and Confluence)", href: "/configuration", action: "Configure" },
  { key: "bitbucketConfigured", label: "Configure Bitbucket", href: "/configuration", action: "Configure" },
  { key: "aiClientConnected", label: "Connect an AI client", href: "/oauth-clients", action: "Connect" },
  { key: "passwordChanged", label: "Change the generated password", href: "/users", action: "Change it" },
  { key: "aiProviderAdded", label: "Add an AI provider for the chat", href: "/ai-providers", action: "Add one", optional: true },
];

/** Every step that is not optional is done: the checklist has nothing left to ask. */
export const setupDone = (status: SetupStatusDto): boolean => SETUP_STEPS.every((step) => step.optional || status[step.key]);
