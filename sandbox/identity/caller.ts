import type { SandboxPerson } from "./people";

/**
 * Who an API request acts as: the service account (sees everything, as the sandbox always did) or
 * one person, who sees only what they may browse. The predicates are what the modules consult;
 * the service account's path is one comparison and allocates nothing.
 */
export type Caller = { readonly kind: "service" } | { readonly kind: "person"; readonly person: SandboxPerson };

export const SERVICE_CALLER: Caller = Object.freeze({ kind: "service" });

/** A person's caller, made once per person at start-up (requests reuse it). */
export const personCaller = (person: SandboxPerson): Caller => Object.freeze({ kind: "person", person });

export const canBrowseProject = (caller: Caller, projectKey: string): boolean =>
  caller.kind === "service" || caller.person.jiraProjects.includes(projectKey);

export const canSeeSpace = (caller: Caller, spaceKey: string): boolean =>
  caller.kind === "service" || caller.person.confluenceSpaces.includes(spaceKey);

export const canSeeRepo = (caller: Caller, repoSlug: string): boolean =>
  caller.kind === "service" || caller.person.bitbucketRepos.includes(repoSlug);

/** The caller's account id, or `serviceAccountId` for the service account. */
export const callerAccountId = (caller: Caller, serviceAccountId: string): string =>
  caller.kind === "service" ? serviceAccountId : caller.person.accountId;

/** A string that tells callers apart in cache keys: empty for the service account. */
export const callerKey = (caller: Caller): string => (caller.kind === "service" ? "" : caller.person.accountId);
