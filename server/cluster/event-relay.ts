import type { Pool, PoolClient } from "pg";
import { CLUSTER_EVENTS, type EventBus, type RelayedEvent } from "../lib/event-bus";
import type { Logger } from "../lib/logger";

/** The PostgreSQL channel every instance listens on. */
export const EVENTS_CHANNEL = "bridgekeeper_events";
/** NOTIFY's payload limit is 8000 bytes; events are a few dozen. */
const MAX_PAYLOAD = 7900;
const RECONNECT_MS = { first: 500, max: 10_000 };

interface Envelope {
  /** The instance that emitted it (it has handled it already). */
  from: string;
  name: RelayedEvent["name"];
  payload: unknown;
}

export interface EventRelay {
  /** Settles once this instance listens (tests wait for it before they emit elsewhere). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * The event bus across instances on one PostgreSQL (issue 29 item 3): each cluster event an
 * instance emits is sent with `pg_notify`, and every other instance, listening on one connection
 * of its pool, hands it to its own handlers. Modules keep emitting and subscribing as before. The
 * listening connection comes back by itself after a database restart or failover; events sent
 * while it was away are lost, so on its return the instance forgets what it had cached (tokens
 * checked, targets, identity settings) and checks its streams' owners again, as if each of those
 * events had come.
 */
export function startPostgresRelay(deps: { pool: Pool; bus: EventBus; instanceId: string; log: Logger }): EventRelay {
  const { pool, bus, instanceId, log } = deps;
  let listener: PoolClient | null = null;
  let closed = false;
  let retryMs = RECONNECT_MS.first;
  let timer: NodeJS.Timeout | null = null;
  let listenedBefore = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const onNotification = (message: { channel: string; payload?: string }) => {
    if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message.payload) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === instanceId || !CLUSTER_EVENTS.has(envelope.name)) return;
    bus.deliver({ name: envelope.name, payload: envelope.payload } as RelayedEvent);
  };

  /** After a gap in listening: whatever may have happened meanwhile is assumed to have happened. */
  const catchUp = () => {
    const reason = "missed while the event relay was reconnecting";
    bus.deliver({ name: "user.access-changed", payload: { userId: null, reason } });
    bus.deliver({ name: "oauth.token-revoked", payload: { grantId: null, reason } });
    for (const kind of ["atlassian", "bitbucket"] as const) {
      bus.deliver({ name: "integration.saved", payload: { kind, elsewhere: false } });
      bus.deliver({ name: "identity.saved", payload: { integration: kind } });
    }
  };

  const drop = (client: PoolClient, err?: Error) => {
    if (listener !== client) return;
    listener = null;
    client.removeListener("notification", onNotification);
    client.release(err ?? true);
    if (!closed) {
      log.warn({ err, retryInMs: retryMs }, "the cluster event relay lost its PostgreSQL connection; reconnecting");
      schedule();
    }
  };

  const schedule = () => {
    timer = setTimeout(() => void listen(), retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MS.max);
  };

  async function listen(): Promise<void> {
    timer = null;
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      if (!closed) {
        log.warn({ err, retryInMs: retryMs }, "the cluster event relay could not reach PostgreSQL; retrying");
        schedule();
      }
      return;
    }
    if (closed) return client.release();
    listener = client;
    client.on("notification", onNotification);
    client.on("error", (err) => drop(client, err));
    client.once("end", () => drop(client));
    try {
      await client.query(`listen ${EVENTS_CHANNEL}`);
    } catch (err) {
      drop(client, err as Error);
      return;
    }
    retryMs = RECONNECT_MS.first;
    if (listenedBefore) catchUp();
    listenedBefore = true;
    markReady();
  }

  bus.relayTo((event) => {
    const text = JSON.stringify({ from: instanceId, name: event.name, payload: event.payload } satisfies Envelope);
    if (Buffer.byteLength(text) > MAX_PAYLOAD) {
      log.error({ event: event.name, bytes: Buffer.byteLength(text) }, "a cluster event is too large to relay");
      return;
    }
    pool.query("select pg_notify($1, $2)", [EVENTS_CHANNEL, text]).catch((err) => {
      log.warn({ err, event: event.name }, "a cluster event could not be relayed: other instances catch up through their caches' expiry");
    });
  });
  void listen();

  return {
    ready,
    async close() {
      closed = true;
      bus.relayTo(null);
      if (timer) clearTimeout(timer);
      const client = listener;
      listener = null;
      if (client) {
        client.removeListener("notification", onNotification);
        await client.query(`unlisten ${EVENTS_CHANNEL}`).catch(() => undefined);
        client.release();
      }
    },
  };
}
