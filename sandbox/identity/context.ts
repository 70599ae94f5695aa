import { Router } from "../core/http";
import type { SandboxCredentials } from "../credentials";
import { atlassianOAuthRoutes } from "./atlassian.routes";
import { createAuthenticator, type Authenticator } from "./auth";
import { bitbucketOAuthRoutes } from "./bitbucket.routes";
import type { ConsentAccount } from "./consent";
import { dataCenterOAuthRoutes } from "./datacenter.routes";
import { DEFAULT_ACCESS_TTL, OAuthStore } from "./oauth-store";

/** Who an account is, as the identity endpoints present them. */
export interface Profile extends ConsentAccount {
  nickname: string;
}

/** What the identity endpoints share: the accounts, the OAuth state and the authenticator. */
export interface IdentityContext {
  accounts: SandboxCredentials;
  oauth: OAuthStore;
  auth: Authenticator;
  /** The accounts a consent page offers: the service account ("Demo Admin") and every person. */
  consentAccounts(): ConsentAccount[];
  /** The same on a Data Center server's consent page: each shown with their Data Center username. */
  dataCenterConsentAccounts(): ConsentAccount[];
  profile(accountId: string): Profile | undefined;
}

export interface IdentityOptions {
  accessTokenTtlSeconds?: number;
  bitbucketAccessTokenTtlSeconds?: number;
}

export interface Identity extends IdentityContext {
  /** The authorization servers' endpoints (/authorize, /oauth/token, /me, /site/oauth2/…). */
  router: Router;
  /** Each Data Center server's OAuth 2.0 provider, on full paths (`/dc/jira/rest/oauth2/latest/…`). */
  dataCenterRouter: Router;
}

export function createIdentity(accounts: SandboxCredentials, options: IdentityOptions = {}): Identity {
  const oauth = new OAuthStore({
    ...DEFAULT_ACCESS_TTL,
    atlassian: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TTL.atlassian,
    bitbucket: options.bitbucketAccessTokenTtlSeconds ?? DEFAULT_ACCESS_TTL.bitbucket,
  });
  const profiles: Profile[] = [
    {
      accountId: accounts.atlassian.accountId,
      displayName: accounts.atlassian.displayName,
      email: accounts.atlassian.email,
      nickname: accounts.bitbucket.username,
    },
    ...accounts.people.map((p) => ({ accountId: p.accountId, displayName: p.displayName, email: p.email, nickname: p.nickname })),
  ];
  const byId = new Map(profiles.map((p) => [p.accountId, p]));
  const dcAccounts: ConsentAccount[] = [
    { accountId: accounts.atlassian.accountId, displayName: accounts.dataCenter.displayName, email: accounts.dataCenter.username },
    ...accounts.people.map((p) => ({ accountId: p.accountId, displayName: p.displayName, email: p.nickname })),
  ];
  const identity: Identity = {
    accounts,
    oauth,
    auth: createAuthenticator(accounts, oauth),
    consentAccounts: () => profiles.map(({ accountId, displayName, email }) => ({ accountId, displayName, email })),
    dataCenterConsentAccounts: () => dcAccounts,
    profile: (accountId) => byId.get(accountId),
    router: new Router(),
    dataCenterRouter: new Router(),
  };
  atlassianOAuthRoutes(identity.router, identity);
  bitbucketOAuthRoutes(identity.router, identity);
  dataCenterOAuthRoutes(identity.dataCenterRouter, identity);
  return identity;
}
