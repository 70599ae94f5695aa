import type { Redis } from "ioredis";
import type { Pool, PoolClient } from "pg";
import { CLUSTER_EVENTS, type EventBus, type RelayedEvent } from "../lib/event-bus";
import type { Logger } from "../lib/logger";
import type { DeliveryChannel, StreamDelivery } from "./stream-forwarding";

/** The channel every instance listens on (a PostgreSQL NOTIFY channel, or a Redis pub/sub channel). */
export const EVENTS_CHANNEL = "bridgekeeper_events";
/** Deliveries to one instance's streams (stream-forwarding.ts): on PostgreSQL one channel, each addressed; on Redis a channel per instance. */
export const DELIVERIES_CHANNEL = "bridgekeeper_deliveries";
/** A delivery too large for a notification waits in this table (server/db/schema.ts `streamDeliveries`). */
const DELIVERIES_TABLE = "stream_deliveries";
/** NOTIFY's payload limit is 8000 bytes; events are a few dozen. */
const MAX_PAYLOAD = 7900;
const RECONNECT_MS = { first: 500, max: 10_000 };

interface Envelope {
  /** The instance that emitted it (it has handled it already). */
  from: string;
  name: RelayedEvent["name"];
  payload: unknown;
}

export interface EventRelay extends DeliveryChannel {
  /** Settles once this instance listens (tests wait for it before they emit elsewhere). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** How envelopes travel: sent to every instance, and heard (`hear` after each (re)subscription). */
interface Transport {
  send(text: string): Promise<unknown>;
  /** A delivery for one instance's streams. */
  sendTo(instanceId: string, text: string): Promise<unknown>;
  /**
   * Starts listening; calls `heard` for each event, `heardDelivery` for each delivery addressed to
   * this instance, and `subscribed` each time listening (re)starts.
   */
  start(heard: (text: string) => void, heardDelivery: (text: string) => void, subscribed: () => void): void;
  close(): Promise<void>;
}

/**
 * The event bus across instances (issue 29 item 3): each cluster event an instance emits is sent
 * to every instance, and each other instance hands it to its own handlers; modules keep emitting
 * and subscribing as before. Events sent while an instance was not listening (a database or Redis
 * restart) are lost, so when it listens again it forgets what it had cached (tokens checked,
 * targets, identity settings) and checks its streams' owners again, as if each had come.
 */
function relayEvents(deps: { bus: EventBus; instanceId: string; log: Logger; transport: Transport }): EventRelay {
  const { bus, instanceId, log, transport } = deps;
  let listenedBefore = false;
  let onDelivery: (delivery: StreamDelivery) => void = () => undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const heard = (text: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === instanceId || !CLUSTER_EVENTS.has(envelope.name)) return;
    bus.deliver({ name: envelope.name, payload: envelope.payload } as RelayedEvent);
  };

  const subscribed = () => {
    if (listenedBefore) {
      const reason = "missed while the event relay was reconnecting";
      bus.deliver({ name: "user.access-changed", payload: { userId: null, reason } });
      bus.deliver({ name: "oauth.token-revoked", payload: { grantId: null, reason } });
      for (const kind of ["atlassian", "bitbucket"] as const) {
        bus.deliver({ name: "integration.saved", payload: { kind, elsewhere: false } });
        bus.deliver({ name: "identity.saved", payload: { integration: kind } });
      }
    }
    listenedBefore = true;
    markReady();
  };

  bus.relayTo((event) => {
    const text = JSON.stringify({ from: instanceId, name: event.name, payload: event.payload } satisfies Envelope);
    if (Buffer.byteLength(text) > MAX_PAYLOAD) {
      log.error({ event: event.name, bytes: Buffer.byteLength(text) }, "a cluster event is too large to relay");
      return;
    }
    transport.send(text).catch((err) => {
      log.warn({ err, event: event.name }, "a cluster event could not be relayed: other instances catch up through their caches' expiry");
    });
  });
  const heardDelivery = (text: string) => {
    try {
      onDelivery(JSON.parse(text) as StreamDelivery);
    } catch (err) {
      log.warn({ err }, "a forwarded stream delivery could not be read");
    }
  };
  transport.start(heard, heardDelivery, subscribed);

  return {
    ready,
    sendTo: async (to, delivery) => void (await transport.sendTo(to, JSON.stringify(delivery))),
    onDelivery(handler) {
      onDelivery = handler;
    },
    async close() {
      bus.relayTo(null);
      await transport.close();
    },
  };
}

/**
 * PostgreSQL's LISTEN/NOTIFY: sent with `pg_notify`, heard on one connection of the pool held for
 * it, which comes back by itself after a restart or failover.
 */
export function startPostgresRelay(deps: { pool: Pool; bus: EventBus; instanceId: string; log: Logger }): EventRelay {
  const { pool, log } = deps;
  let listener: PoolClient | null = null;
  let closed = false;
  let retryMs = RECONNECT_MS.first;
  let timer: NodeJS.Timeout | null = null;
  let onMessage: (message: { channel: string; payload?: string }) => void = () => undefined;
  // Deliveries that waited in the table and were never taken (their instance went away).
  const sweep = setInterval(() => {
    pool.query(`delete from ${DELIVERIES_TABLE} where created_at < now() - interval '5 minutes'`).catch(() => undefined);
  }, 5 * 60_000);
  sweep.unref();

  const schedule = (listen: () => Promise<void>) => {
    timer = setTimeout(() => void listen(), retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MS.max);
  };

  const transport: Transport = {
    send: (text) => pool.query("select pg_notify($1, $2)", [EVENTS_CHANNEL, text]),
    // `<instance> <delivery>`, or `<instance> #<row id>` for one too large for a notification.
    async sendTo(to, text) {
      if (Buffer.byteLength(text) + to.length < MAX_PAYLOAD)
        return pool.query("select pg_notify($1, $2)", [DELIVERIES_CHANNEL, `${to} ${text}`]);
      const { rows } = await pool.query<{ id: string }>(`insert into ${DELIVERIES_TABLE} (payload) values ($1) returning id`, [text]);
      return pool.query("select pg_notify($1, $2)", [DELIVERIES_CHANNEL, `${to} #${rows[0]!.id}`]);
    },
    start(heard, heardDelivery, subscribed) {
      const mine = `${deps.instanceId} `;
      onMessage = (message) => {
        if (!message.payload) return;
        if (message.channel === EVENTS_CHANNEL) return heard(message.payload);
        if (message.channel !== DELIVERIES_CHANNEL || !message.payload.startsWith(mine)) return;
        const rest = message.payload.slice(mine.length);
        if (!rest.startsWith("#")) return heardDelivery(rest);
        pool
          .query<{ payload: string }>(`delete from ${DELIVERIES_TABLE} where id = $1 returning payload`, [rest.slice(1)])
          .then(({ rows }) => rows[0] && heardDelivery(rows[0].payload))
          .catch((err) => log.warn({ err }, "a forwarded stream delivery could not be taken"));
      };
      const drop = (client: PoolClient, err?: Error) => {
        if (listener !== client) return;
        listener = null;
        client.removeListener("notification", onMessage);
        client.release(err ?? true);
        if (closed) return;
        log.warn({ err, retryInMs: retryMs }, "the cluster event relay lost its PostgreSQL connection; reconnecting");
        schedule(listen);
      };
      async function listen(): Promise<void> {
        timer = null;
        let client: PoolClient;
        try {
          client = await pool.connect();
        } catch (err) {
          if (closed) return;
          log.warn({ err, retryInMs: retryMs }, "the cluster event relay could not reach PostgreSQL; retrying");
          return schedule(listen);
        }
        if (closed) return client.release();
        listener = client;
        client.on("notification", onMessage);
        client.on("error", (err) => drop(client, err));
        client.once("end", () => drop(client));
        try {
          await client.query(`listen ${EVENTS_CHANNEL}; listen ${DELIVERIES_CHANNEL}`);
        } catch (err) {
          return drop(client, err as Error);
        }
        retryMs = RECONNECT_MS.first;
        subscribed();
      }
      void listen();
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      if (timer) clearTimeout(timer);
      const client = listener;
      listener = null;
      if (!client) return;
      client.removeListener("notification", onMessage);
      await client.query("unlisten *").catch(() => undefined);
      client.release();
    },
  };
  return relayEvents({ ...deps, transport });
}

/**
 * Redis pub/sub (REDIS_URL): published on the command connection, heard on a connection of its own
 * (a subscribed Redis connection does nothing else); ioredis reconnects and subscribes again.
 */
export function startRedisRelay(deps: { publisher: Redis; subscriber: Redis; bus: EventBus; instanceId: string; log: Logger }): EventRelay {
  const { publisher, subscriber } = deps;
  const mine = `${DELIVERIES_CHANNEL}:${deps.instanceId}`;
  const transport: Transport = {
    send: (text) => publisher.publish(EVENTS_CHANNEL, text),
    sendTo: (to, text) => publisher.publish(`${DELIVERIES_CHANNEL}:${to}`, text),
    start(heard, heardDelivery, subscribed) {
      subscriber.on("message", (channel: string, text: string) => {
        if (channel === EVENTS_CHANNEL) heard(text);
        else if (channel === mine) heardDelivery(text);
      });
      const subscribe = () =>
        subscriber.subscribe(EVENTS_CHANNEL, mine).then(subscribed, (err: unknown) => {
          deps.log.warn({ err }, "the cluster event relay could not subscribe in Redis; retrying when it reconnects");
        });
      // ioredis resubscribes by itself after a reconnect; `ready` says when (the first one included).
      subscriber.on("ready", () => void subscribe());
      if (subscriber.status === "ready") void subscribe();
    },
    close: async () => void (await subscriber.quit().catch(() => undefined)),
  };
  return relayEvents({ ...deps, transport });
}
