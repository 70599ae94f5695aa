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
  /** An integration's identity settings (who Bridgekeeper acts as, the OAuth apps) were saved. */
  "identity.saved": { integration: "atlassian" | "bitbucket" };
  /** A person's linked account was made, replaced or removed: no cached token of theirs may be used. */
  "account.link-changed": { userId: string };
  /** The outcome of a call to Jira, Confluence or Bitbucket. */
  "upstream.outcome": { service: UpstreamService; outcome: Outcome };
}

/**
 * The events every instance must hear (issue 29 item 3): what ends access or changes what a cache
 * holds. An upstream call's outcome is this instance's own; an integration save noticed on a re-read
 * (`elsewhere`) was relayed by the instance that saved it.
 */
export const CLUSTER_EVENTS = new Set<keyof DomainEvents>([
  "oauth.client-revoked",
  "oauth.client-policy-changed",
  "oauth.token-revoked",
  "user.access-changed",
  "integration.saved",
  "identity.saved",
  "account.link-changed",
  "connection.terminated",
]);

/** An event on its way between instances. */
export interface RelayedEvent<K extends keyof DomainEvents = keyof DomainEvents> {
  name: K;
  payload: DomainEvents[K];
}

const relayed = (event: RelayedEvent): boolean =>
  CLUSTER_EVENTS.has(event.name) && !(event.name === "integration.saved" && (event.payload as DomainEvents["integration.saved"]).elsewhere);

type Handler<T> = (payload: T) => void;

export function createEventBus(deps: { log?: Logger } = {}) {
  const handlers = new Map<keyof DomainEvents, Handler<never>[]>();
  let relay: ((event: RelayedEvent) => void) | null = null;

  function deliver<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
    for (const handler of (handlers.get(name) ?? []) as Handler<DomainEvents[K]>[]) {
      try {
        handler(payload);
      } catch (err) {
        deps.log?.error({ err, event: name }, "an event handler failed");
      }
    }
  }

  return {
    on<K extends keyof DomainEvents>(name: K, handler: Handler<DomainEvents[K]>): void {
      handlers.set(name, [...(handlers.get(name) ?? []), handler as Handler<never>]);
    },
    /**
     * Synchronous here: every handler of this instance has run when emit returns. One handler's
     * failure does not stop the others. A cluster event also goes to the relay, for the others.
     */
    emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
      deliver(name, payload);
      const event = { name, payload } as RelayedEvent;
      if (relay && relayed(event)) relay(event);
    },
    /** An event another instance emitted: this instance's handlers only (never relayed again). */
    deliver: (event: RelayedEvent) => deliver(event.name, event.payload),
    /** Where cluster events go to reach the other instances (cluster/event-relay.ts). */
    relayTo(send: ((event: RelayedEvent) => void) | null): void {
      relay = send;
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
