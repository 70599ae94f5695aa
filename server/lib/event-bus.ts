import type { IntegrationKind } from "../modules/integrations/integrations.repo";
import type { Outcome, UpstreamService } from "../upstream/errors";
import type { Logger } from "./logger";

/**
 * What modules tell each other. Services emit; who reacts is written in one place, container.ts,
 * so the whole graph of who reacts to what can be read in one file (ARCHITECTURE rule 11).
 */
export interface DomainEvents {
  /** An OAuth client's tokens stopped working: deactivated, deleted, or its secret regenerated. */
  "oauth.client-revoked": { clientId: string; reason: string };
  /** An administrator changed what an OAuth client may touch (its policy): its tool lists and cached token checks change. */
  "oauth.client-policy-changed": { clientId: string };
  /** An authorization (grant) or a single token was revoked: reuse detected, revocation request. */
  "oauth.token-revoked": { grantId: string | null; reason: string };
  /** A user's OAuth access ended or narrowed: deactivated, deleted, or their roles or permissions changed. */
  "user.access-changed": { userId: string | null; reason: string };
  /** An integration's configuration was saved: here, or by another instance (`elsewhere`, noticed on a re-read). */
  "integration.saved": { kind: IntegrationKind; elsewhere: boolean };
  /** An administrator ended a live connection (its registry row is inactive already). */
  "connection.terminated": { connectionId: string };
  /** The outcome of a call to Jira, Confluence or Bitbucket. */
  "upstream.outcome": { service: UpstreamService; outcome: Outcome };
}

type Handler<T> = (payload: T) => void;

export function createEventBus(deps: { log?: Logger } = {}) {
  const handlers = new Map<keyof DomainEvents, Handler<never>[]>();
  return {
    on<K extends keyof DomainEvents>(name: K, handler: Handler<DomainEvents[K]>): void {
      handlers.set(name, [...(handlers.get(name) ?? []), handler as Handler<never>]);
    },
    /** Synchronous: every handler has run when emit returns. One handler's failure does not stop the others. */
    emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
      for (const handler of (handlers.get(name) ?? []) as Handler<DomainEvents[K]>[]) {
        try {
          handler(payload);
        } catch (err) {
          deps.log?.error({ err, event: name }, "an event handler failed");
        }
      }
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
