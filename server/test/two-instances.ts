/**
 * Two instances of the app on one PostgreSQL, as two processes behind a load balancer are (issue
 * 29): each a whole app with its own connection pool and event relay, both with the load
 * balancer's address as PUBLIC_URL and one SECRET_KEY; with `store` "redis", a throwaway Redis
 * for their limits and events. Test code only.
 */
import { randomBytes } from "node:crypto";
import type { AppConfig } from "../container";
import { openDatabase } from "../db/client";
import { createSecretBox } from "../lib/secret-box";
import type { OAuthClientDto } from "../../contract/oauth";
import { basicOf, createClient } from "../oauth/oauth.adversarial.helpers";
import { signedInAs } from "./factories";
import type { TestClient } from "./http-client";
import { formPost } from "./oauth";
import { startTestApp, type TestApp } from "./test-app";
import { REDIS_SERVER, startRedisServer } from "./redis-server";
import { createPostgresTestDatabase } from "./test-database";

export const onPostgres = process.env.TEST_DB === "postgres";
export const LOAD_BALANCER_URL = "http://bridgekeeper.test";

export interface TwoInstances {
  a: TestApp;
  b: TestApp;
  /** Their PostgreSQL, and their Redis when the store is Redis. */
  databaseUrl: string;
  redisUrl: string | null;
  /** An administrator signed in on `a`. */
  admin: TestClient;
  /** A new confidential OAuth client (made on `a`). */
  newClient(name: string): Promise<OAuthClientDto>;
  /** A client_credentials token with the read scope, issued by `on` (default `a`). */
  readToken(client: OAuthClientDto, on?: TestApp): Promise<string>;
  close(): Promise<void>;
}

/** Where the instances share their limits and events: their PostgreSQL, or a Redis beside it (REDIS_URL). */
export type SharedStore = "postgres" | "redis";
/** The stores a machine can test: Redis where Debian's redis-server is installed. */
export const SHARED_STORES: SharedStore[] = REDIS_SERVER ? ["postgres", "redis"] : ["postgres"];
if (!REDIS_SERVER) console.warn("redis-server is not installed: the several-instance tests run on PostgreSQL alone.");

export async function startTwoInstances(config: Partial<AppConfig> = {}, store: SharedStore = "postgres"): Promise<TwoInstances> {
  const made = await createPostgresTestDatabase({ migrated: true });
  const redis = store === "redis" ? await startRedisServer() : null;
  if (redis) config = { REDIS_URL: redis.url, ...config };
  const secretBox = createSecretBox(randomBytes(32));
  const start = async () =>
    startTestApp({
      database: await openDatabase({ kind: "postgres", url: made.url }),
      secretBox,
      config: { PUBLIC_URL: LOAD_BALANCER_URL, ...config },
    });
  const a = await start();
  const b = await start();
  // Each hears the other's events from here on.
  await Promise.all([a.container.cluster.ready, b.container.cluster.ready]);
  const admin = (await signedInAs(a, ["admin"])).client;
  return {
    admin,
    newClient: (name) => createClient({ t: a, baseUrl: a.baseUrl, admin, user: admin }, { name }),
    async readToken(client, on = a) {
      const res = await formPost(`${on.baseUrl}/oauth/token`, { grant_type: "client_credentials", scope: "read" }, basicOf(client));
      if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.access_token as string;
    },
    a,
    b,
    databaseUrl: made.url,
    redisUrl: redis?.url ?? null,
    async close() {
      await a.close();
      await b.close();
      await made.drop();
      await redis?.stop();
    },
  };
}
