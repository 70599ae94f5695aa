import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Logger } from "../lib/logger";
import { ownerOf, sameOwner, type LiveStreams, type StreamOwner } from "../mcp/live-streams";
import type { SseConnectionRow } from "../db/schema";
import type { SecretBox } from "../lib/secret-box";

const TOKEN_PURPOSE = "stream-forwarding:token";

/**
 * What one instance hands to the instance holding a stream (issue 29 item 1): the answers of a
 * request posted with `X-Connection-Id` (run where it was posted, delivered where the stream is),
 * or a message for a legacy `/sse` session (whose server lives with its stream), with the POST's
 * own token, which the holder checks again.
 */
export type StreamDelivery =
  | { kind: "responses"; connectionId: string; owner: { clientId: string; userId: string | null }; messages: unknown[] }
  | {
      kind: "legacy-message";
      connectionId: string;
      /** The POST's bearer token, sealed (SECRET_KEY): it crosses PostgreSQL or Redis. */ sealedToken: string;
      body: unknown;
    };

/** How deliveries travel between instances (cluster/event-relay.ts). */
export interface DeliveryChannel {
  sendTo(instanceId: string, delivery: StreamDelivery): Promise<void>;
  onDelivery(handler: (delivery: StreamDelivery) => void): void;
}

/** Where a stream another instance holds can be reached: its registry row, if it is live and the caller's. */
export type RemoteStream = { instanceId: string } | null;

export interface StreamForwarding {
  /**
   * The instance holding `connectionId` for this caller, when it is another live instance's stream
   * of that kind and owner (null: nowhere, so the caller's 404 stands).
   */
  holderOf(connectionId: string, kind: "sse-stream" | "legacy-sse", auth: AuthInfo): Promise<RemoteStream>;
  send(instanceId: string, delivery: StreamDelivery): Promise<void>;
  /** A bearer token as a legacy delivery carries it. */
  sealToken(token: string): string;
}

/**
 * Both ends of forwarding: finding the holder in the connection registry, and, on the holder,
 * writing what arrives to its stream. Without a shared store (the embedded database) there is one
 * instance and nothing to forward.
 */
export function createStreamForwarding(deps: {
  instanceId: string;
  channel: DeliveryChannel | null;
  findConnection: (connectionId: string) => Promise<SseConnectionRow | undefined>;
  streams: LiveStreams;
  /** Checks a forwarded token as this instance would check it on a request. */
  verify: (token: string) => Promise<AuthInfo>;
  /** Every instance shares SECRET_KEY: a token never travels in clear through a notification, a table or Redis. */
  secretBox: SecretBox;
  log: Logger;
}): StreamForwarding {
  const { channel } = deps;

  /** Whether `stream` is the caller's: the same client and user (a registry row or a delivery names them). */
  const owns = (stream: { owner: StreamOwner }, owner: { clientId: string; userId: string | null }) =>
    sameOwner(stream.owner, { clientId: owner.clientId, userId: owner.userId ?? null, grantId: null, token: "" });

  channel?.onDelivery((delivery) => {
    const stream = deps.streams.get(delivery.connectionId);
    if (!stream) return; // it ended meanwhile: as for a local stream, the answer has nowhere to go
    if (delivery.kind === "responses") {
      if (stream.kind !== "sse-stream" || !owns(stream, delivery.owner)) return;
      for (const message of delivery.messages) stream.send("mcp-response", message);
      return;
    }
    if (stream.kind !== "legacy-sse" || !stream.deliver) return;
    const deliver = stream.deliver;
    Promise.resolve()
      .then(() => deps.verify(deps.secretBox.open(delivery.sealedToken, TOKEN_PURPOSE)))
      .then((auth) => (sameOwner(stream.owner, ownerOf(auth)) ? deliver(delivery.body, auth) : undefined))
      .catch((err) => deps.log.info({ err: { message: (err as Error).message } }, "a forwarded legacy message's token was refused"));
  });

  return {
    async holderOf(connectionId, kind, auth) {
      if (!channel) return null;
      const row = await deps.findConnection(connectionId);
      if (!row || !row.isActive || row.kind !== kind || row.instanceId === deps.instanceId) return null;
      return owns({ owner: ownerOf(auth) }, row) ? { instanceId: row.instanceId } : null;
    },
    send: (instanceId, delivery) => (channel ? channel.sendTo(instanceId, delivery) : Promise.resolve()),
    sealToken: (token) => deps.secretBox.seal(token, TOKEN_PURPOSE),
  };
}
