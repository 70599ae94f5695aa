// Bundled by bench/mcp.bench.mjs: what resolving the caller's identity costs a tool call (issue 27
// item 9), in process, where an HTTP round trip does not drown it. A real container on in-memory
// PGlite and the sandbox; the same call target asked for the same person, with the integration in
// shared mode and then in per-person mode (a linked 3LO account, its access token cached and valid).
import { randomBytes } from "node:crypto";
import { startSandbox } from "../sandbox/server";
import { parseEnv } from "../server/env";
import { createContainer } from "../server/container";
import { openDatabase } from "../server/db/client";
import { createSecretBox } from "../server/lib/secret-box";
import { systemClock } from "../server/lib/clock";
import { createLogger } from "../server/lib/logger";
import { perCall } from "./probe-kit";

const BATCH = 500;

export async function measure(rounds = 10, batches = 40) {
  const sandbox = await startSandbox();
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  await database.migrate();
  const config = {
    ...parseEnv({ NODE_ENV: "test" }),
    PUBLIC_URL: "http://127.0.0.1:5000",
    UPSTREAM_ALLOW_PRIVATE: true,
    ATLASSIAN_AUTH_URL: sandbox.url,
    ATLASSIAN_API_URL: sandbox.url,
    outboundProxy: {},
  };
  const container = createContainer({
    database,
    config,
    clock: systemClock,
    log: createLogger({ level: "silent" }),
    secretBox: createSecretBox(randomBytes(32)),
  });
  try {
    await container.services.roles.syncBuiltins();
    const actor = { userId: null, username: "bench", ip: null };
    const { atlassian, atlassianApp, people } = sandbox.credentials;
    await container.services.integrations.saveAtlassian(
      { instanceUrl: sandbox.url, email: atlassian.email, apiToken: atlassian.apiToken, isActive: true },
      actor,
    );
    const user = (await container.repos.usersRepo.insertIfUsernameFree({ username: "bench-person", passwordHash: "x", isActive: true }))!;
    const session = { userId: user.id, sessionId: "bench-session" };
    const identity = container.services.identitySettings;
    const mode = (m: "shared" | "per-person") =>
      identity.save(
        "atlassian",
        {
          mode: m,
          allowMachineClients: false,
          allowApiTokens: false,
          oauthClientId: atlassianApp.clientId,
          oauthClientSecret: atlassianApp.clientSecret,
        },
        actor,
      );
    await mode("per-person");
    const { authorizeUrl } = await container.services.accountLinks.startOAuth(session, "atlassian", undefined);
    const authorize = new URL(authorizeUrl);
    const minted = await fetch(`${sandbox.url}/__sandbox/oauth/codes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        service: "atlassian",
        accountId: people[0]!.accountId,
        redirectUri: authorize.searchParams.get("redirect_uri"),
        scope: authorize.searchParams.get("scope"),
        codeChallenge: authorize.searchParams.get("code_challenge"),
      }),
    });
    const { code } = (await minted.json()) as { code: string };
    const back = await container.services.accountLinks.finishOAuth(
      "atlassian",
      { code, state: authorize.searchParams.get("state")! },
      session,
      actor,
    );
    if (!back.includes("linked=1")) throw new Error(`not linked: ${back}`);

    const targets = container.upstream.targets;
    const who = { userId: user.id, used: () => undefined };
    const resolve = () => targets.targetAs("jira", who);
    const shared: number[] = [];
    const person: number[] = [];
    for (let r = 0; r < rounds; r++) {
      await mode("shared");
      await resolve();
      shared.push((await perCall(resolve, batches, BATCH)).p50);
      await mode("per-person");
      const target = await resolve();
      if (!target.authorization.startsWith("Bearer ")) throw new Error("per-person mode did not resolve the person's token");
      person.push((await perCall(resolve, batches, BATCH)).p50);
    }
    return { shared, person };
  } finally {
    await container.close();
    await database.close();
    await sandbox.close();
  }
}
