// Bundled by bench/oauth.bench.mjs: the cost of checking a bearer token on a protected request,
// in process (an HTTP round trip would drown it). A real container on in-memory PGlite.
import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import { parseEnv } from "../server/env";
import { createContainer } from "../server/container";
import { openDatabase } from "../server/db/client";
import { bearer } from "../server/http/middleware/bearer";
import { createSecretBox } from "../server/lib/secret-box";
import { systemClock } from "../server/lib/clock";
import { createLogger } from "../server/lib/logger";
import { perCall } from "./probe-kit";

const BATCH = 200;

export async function measure(batches = 200) {
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  await database.migrate();
  const config = { ...parseEnv({ NODE_ENV: "test" }), PUBLIC_URL: "http://127.0.0.1:5000" };
  const container = createContainer({
    database,
    config,
    clock: systemClock,
    log: createLogger({ level: "silent" }),
    secretBox: createSecretBox(randomBytes(32)),
  });
  const actor = { userId: null, username: "bench", ip: null };
  const created = await container.services.oauthClients.create(
    { name: "bench", redirectUris: ["https://app.example.com/cb"], scopes: ["read", "write"], isActive: true, clientType: "confidential" },
    actor,
  );
  const client = (await container.services.oauthClients.forOAuth(created.clientId))!;
  const { access_token } = await container.services.oauthTokens.clientCredentials(client, undefined, undefined);
  const verifier = container.services.oauthTokens;

  const cold = performance.now();
  await verifier.verifyAccessToken(access_token); // the database lookup, then cached
  const uncachedUs = (performance.now() - cold) * 1000;

  const verify = await perCall(() => verifier.verifyAccessToken(access_token), batches, BATCH);

  const guard = bearer({ verifier, issuer: "http://127.0.0.1:5000", scope: "read" });
  const req = { query: {}, headers: { authorization: `Bearer ${access_token}` }, originalUrl: "/api/bitbucket/user" } as unknown as Request;
  const res = { set: () => res, status: () => res, json: () => res } as unknown as Response;
  const guarded = await perCall(
    () =>
      new Promise<void>((resolve, reject) =>
        guard(req, res, (err?: unknown) => {
          if (err) reject(err);
          else if (!(req as unknown as { auth?: unknown }).auth) reject(new Error("guard did not pass"));
          else resolve();
        }),
      ),
    batches,
    BATCH,
  );
  await container.close();
  await database.close();
  return { uncachedUs, verify, guarded };
}
