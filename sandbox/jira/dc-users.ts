import type { SandboxCredentials } from "../credentials";
import { personByEmail } from "../identity/people";
import type { JiraState, User } from "./model";
import type { View } from "./presenters";

/**
 * Jira Data Center's people: a username (`name`) and a user key (`key`), no account id. Jira DC's
 * user JSON (REST v2 UserJsonBean; the `User` of pycontribs/jira and of jira.js's server API) is
 * `{self, key, name, emailAddress, avatarUrls, displayName, active, timeZone}`, `self` naming the
 * user by username (`…/rest/api/2/user?username=fred`). Request bodies name users the same way
 * (`{"name": "fred"}`), as do the watcher and user-search endpoints (`username=`).
 */

/**
 * Gives every seeded user the username and key they have on Data Center, deterministically: a
 * person signs in there by their nickname (identity/people.ts), the service account by the Data
 * Center username of the credentials, anyone else by their email's local part; keys are Jira 8's
 * generated `JIRAUSER<n>`. Both flavours' users carry them; only the Data Center presenters show them.
 */
export function nameUsers(state: JiraState, accounts: SandboxCredentials): void {
  state.users.forEach((u, i) => {
    u.name =
      u.accountId === accounts.atlassian.accountId
        ? accounts.dataCenter.username
        : (personByEmail(accounts.people, u.emailAddress)?.nickname ?? u.emailAddress.split("@")[0]!);
    u.key = `JIRAUSER${10_000 + i}`;
  });
}

/** The username Data Center shows for a user (its email's local part if the seed gave it none). */
export const usernameOf = (u: User): string => u.name ?? u.emailAddress.split("@")[0]!;

/** A user by username or key, as Data Center matches them (usernames case-insensitively). */
export function userByName(state: JiraState, ref: { name?: string | undefined; key?: string | undefined }): User | undefined {
  const name = ref.name?.toLowerCase();
  if (name) return state.users.find((u) => usernameOf(u).toLowerCase() === name);
  return ref.key ? state.users.find((u) => u.key === ref.key) : undefined;
}

const avatarUrls = (v: View, name: string) =>
  Object.fromEntries(
    (
      [
        ["48x48", "large"],
        ["24x24", "small"],
        ["16x16", "xsmall"],
        ["32x32", "medium"],
      ] as const
    ).map(([size, word]) => [size, `${v.origin}/secure/useravatar?size=${word}&ownerId=${encodeURIComponent(name)}`]),
  );

export function presentDataCenterUser(v: View, u: User) {
  const name = usernameOf(u);
  return {
    self: `${v.base}/user?username=${encodeURIComponent(name)}`,
    key: u.key ?? name,
    name,
    emailAddress: u.emailAddress,
    avatarUrls: avatarUrls(v, name),
    displayName: u.displayName,
    active: u.active,
    timeZone: u.timeZone,
  };
}
