import type { Db } from "./db/client";
import { createAuditRepo } from "./modules/audit/audit.repo";
import { createIntegrationsRepo } from "./modules/integrations/integrations.repo";
import { createOAuthClientsRepo } from "./modules/oauth/oauth-clients.repo";
import { createOAuthGrantsRepo } from "./modules/oauth/oauth-grants.repo";
import { createSessionsRepo } from "./modules/auth/sessions.repo";
import { createRolesRepo } from "./modules/roles/roles.repo";
import { createUserRolesRepo } from "./modules/users/user-roles.repo";
import { createUsersRepo } from "./modules/users/users.repo";
import { createRequestLogRepo } from "./modules/request-log/request-log.repo";
import { createToolCallsRepo } from "./modules/tool-calls/tool-calls.repo";
import { createConnectionsRepo } from "./modules/connections/connections.repo";
import { createChatRepo } from "./modules/chat/chat.repo";
import { createAiProvidersRepo } from "./modules/ai-providers/ai-providers.repo";
import { createAccountsRepo } from "./modules/accounts/accounts.repo";

/** Every repo over one connection or transaction. */
export function createRepos(db: Db) {
  return {
    usersRepo: createUsersRepo(db),
    sessionsRepo: createSessionsRepo(db),
    rolesRepo: createRolesRepo(db),
    userRolesRepo: createUserRolesRepo(db),
    auditRepo: createAuditRepo(db),
    integrationsRepo: createIntegrationsRepo(db),
    oauthClientsRepo: createOAuthClientsRepo(db),
    oauthGrantsRepo: createOAuthGrantsRepo(db),
    requestLogRepo: createRequestLogRepo(db),
    toolCallsRepo: createToolCallsRepo(db),
    connectionsRepo: createConnectionsRepo(db),
    chatRepo: createChatRepo(db),
    aiProvidersRepo: createAiProvidersRepo(db),
    accountsRepo: createAccountsRepo(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;

/** Runs `work` in one database transaction with repos bound to it: all of it is stored, or none. */
export type Transact = <T>(work: (repos: Repos) => Promise<T>) => Promise<T>;

export const createTransact =
  (db: Db): Transact =>
  (work) =>
    db.transaction((tx) => work(createRepos(tx as unknown as Db)));
