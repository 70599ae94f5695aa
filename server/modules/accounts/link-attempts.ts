import { createHash } from "node:crypto";
import { MY_ACCOUNTS_PATH, type Integration, type LinkErrorCode } from "../../../contract/accounts";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import { randomToken, sha256Hex } from "../../lib/tokens";
import type { AccountLinkRequestRow } from "./accounts.repo";
import type { Repos } from "../../repos";
import type { CarriedGrants, DataCenterServer } from "./data-center-links";

/** A link attempt lives this long between "Connect" and the service's callback. */
const ATTEMPT_TTL_MS = 10 * 60_000;
const VERIFIER_PURPOSE = "account-link:pkce";
const CARRIED_PURPOSE = "account-link:carried";

const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/** Who started an attempt: the user and (hashed) the session it must come back to. */
export interface AttemptOwner {
  userId: string;
  sessionHash: string;
}

/** Where the callback sends the browser: back to where linking started, or My accounts, with the outcome. */
export const backTo = (returnTo: string | null, integration: Integration, outcome: { linked: true } | { error: LinkErrorCode }): string => {
  if ("linked" in outcome && returnTo) return returnTo;
  const params = new URLSearchParams({ integration, ...("linked" in outcome ? { linked: "1" } : { link_error: outcome.error }) });
  return `${MY_ACCOUNTS_PATH}?${params}`;
};

/**
 * Link attempts between "Connect" and the service's callback (issue 27): the state stored hashed
 * and bound to the session, the PKCE verifier sealed, single use, ten minutes. A Data Center
 * attempt also names its server and carries (sealed) what the earlier servers granted (issue 28).
 */
export function createLinkAttempts(deps: { repos: Repos; secretBox: SecretBox; clock: Clock }) {
  return {
    /** Stores an attempt; answers its state and PKCE challenge for the authorize address. */
    async begin(
      owner: AttemptOwner,
      integration: Integration,
      step: { returnTo: string | null; server: DataCenterServer | null; carried: CarriedGrants | null },
    ): Promise<{ state: string; challenge: string }> {
      const state = randomToken();
      const verifier = randomToken(48);
      const now = deps.clock.now();
      await deps.repos.accountsRepo.insertRequest(
        {
          stateHash: sha256Hex(state),
          userId: owner.userId,
          sessionHash: owner.sessionHash,
          integration,
          codeVerifierSealed: deps.secretBox.seal(verifier, VERIFIER_PURPOSE),
          server: step.server,
          carriedSealed: step.carried ? deps.secretBox.seal(JSON.stringify(step.carried), CARRIED_PURPOSE) : null,
          returnTo: step.returnTo,
          expiresAt: new Date(now.getTime() + ATTEMPT_TTL_MS),
        },
        now,
      );
      return { state, challenge: challengeOf(verifier) };
    },

    /** The attempt a callback's state names, taken (a second callback finds nothing); null when unknown or expired. */
    async take(state: string): Promise<AccountLinkRequestRow | null> {
      const attempt = await deps.repos.accountsRepo.takeRequest(sha256Hex(state));
      return attempt && attempt.expiresAt > deps.clock.now() ? attempt : null;
    },

    verifierOf: (attempt: AccountLinkRequestRow): string => deps.secretBox.open(attempt.codeVerifierSealed, VERIFIER_PURPOSE),

    carriedOf: (attempt: AccountLinkRequestRow): CarriedGrants | null =>
      attempt.carriedSealed ? (JSON.parse(deps.secretBox.open(attempt.carriedSealed, CARRIED_PURPOSE)) as CarriedGrants) : null,
  };
}

export type LinkAttempts = ReturnType<typeof createLinkAttempts>;
