import { Redis } from "ioredis";
import type { Logger } from "../lib/logger";

/**
 * The Redis connections of an instance (REDIS_URL): one for commands (the rate limits, publishing
 * events) and one that only listens (a subscribed connection can do nothing else). Both reconnect
 * by themselves; while Redis is away the limits count in memory and events wait in the queue.
 */
export function connectRedis(url: string, log: Logger): { commands: Redis; subscriber: Redis } {
  const open = (role: string) => {
    const client = new Redis(url, { connectionName: `bridgekeeper-${role}`, maxRetriesPerRequest: 2 });
    // Unheard, a connection error would end the process; ioredis retries on its own.
    let down = false;
    client.on("error", (err) => {
      if (!down) log.warn({ err: err.message, role }, "Redis is unreachable; retrying");
      down = true;
    });
    client.on("ready", () => {
      if (down) log.info({ role }, "Redis is reachable again");
      down = false;
    });
    return client;
  };
  return { commands: open("commands"), subscriber: open("events") };
}
