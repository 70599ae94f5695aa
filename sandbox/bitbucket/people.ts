import { SEED_EPOCH } from "../core/random";
import type { SandboxPerson } from "../identity/people";
import type { BitbucketState, User } from "./model";

/**
 * The linkable people (identity/people.ts) in the seeded workspace: one the seed casts (same
 * nickname) keeps their fixed Atlassian account id and uuid; the others join it afterwards.
 */

/** The ids a seeded user gets: the person's fixed ones when the nickname is theirs, else those drawn. */
export const castIds = (people: readonly SandboxPerson[], nickname: string, drawn: { uuid: string; accountId: string }) => {
  const p = people.find((x) => x.nickname === nickname);
  return p ? { uuid: p.uuid, accountId: p.accountId } : drawn;
};

/** People the seed did not cast join the workspace with no history (after every draw: the data is unchanged). */
export function joinPeople(state: BitbucketState, people: readonly SandboxPerson[]): void {
  for (const p of people) {
    if (state.usersByKey.has(p.accountId)) continue;
    const user: User = {
      uuid: p.uuid,
      accountId: p.accountId,
      nickname: p.nickname,
      displayName: p.displayName,
      createdOn: SEED_EPOCH - 500 * 86_400_000,
    };
    state.users.push(user);
    for (const key of [user.nickname, user.accountId, user.uuid]) state.usersByKey.set(key, user);
  }
}
