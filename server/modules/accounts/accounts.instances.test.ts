import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { openDatabase } from "../../db/client";
import { createSecretBox } from "../../lib/secret-box";
import { signedInAs } from "../../test/factories";
import { startTestApp, type TestApp } from "../../test/test-app";
import { createPostgresTestDatabase, openTestDatabase } from "../../test/test-database";
import { link, oauthLog, perPerson, sandboxOAuth, sandboxPost } from "./accounts.test-kit";

/**
 * Issue 27 item 3: a link's refresh is single-flight across instances. Two servers on one
 * PostgreSQL (the "postgres" project; PGlite serves one process, where the in-process single
 * flight is the whole rule, and it is tested there too) refresh the same expiring link at once:
 * Atlassian sees exactly one refresh, and both get a working token.
 */
const onPostgres = process.env.TEST_DB === "postgres";

let sandbox: Sandbox;
const apps: TestApp[] = [];
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  sandbox = await startSandbox();
  const secretBox = createSecretBox(randomBytes(32));
  const config = { ...sandboxOAuth(sandbox), UPSTREAM_ALLOW_PRIVATE: true };
  if (onPostgres) {
    const { url, drop } = await createPostgresTestDatabase({ migrated: true });
    dropDatabase = drop;
    const databases = [await openDatabase({ kind: "postgres", url }), await openDatabase({ kind: "postgres", url })];
    // Each app closes its own pool; the database is dropped once both are gone.
    for (const database of databases) apps.push(await startTestApp({ database, secretBox, config }));
  } else {
    apps.push(await startTestApp({ database: await openTestDatabase(), secretBox, config }));
  }
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await dropDatabase?.();
  await sandbox?.close();
});

describe("a refresh is made once", () => {
  it(onPostgres ? "by two instances on one PostgreSQL refreshing the same link at once" : "by one process's parallel calls", async () => {
    const [first] = apps;
    const admin = (await signedInAs(first!, ["admin"])).client;
    const saved = await admin.post("/api/admin/atlassian-config", {
      instanceUrl: sandbox.url,
      email: sandbox.credentials.atlassian.email,
      apiToken: sandbox.credentials.atlassian.apiToken,
      isActive: true,
    });
    expect(saved.status).toBe(200);
    await perPerson(admin, sandbox, "atlassian");
    const person = await signedInAs(first!, ["operator"]);
    await sandboxPost(sandbox, "/__sandbox/oauth/settings", { accessTokenTtlSeconds: 30 });
    await link(person.client, sandbox, "atlassian", sandbox.credentials.people[0]!.accountId);
    await sandboxPost(sandbox, "/__sandbox/oauth/settings", { accessTokenTtlSeconds: 3600 });

    const before = (await oauthLog(sandbox)).filter((r) => r.grantType === "refresh_token").length;
    const who = { userId: person.user.row.id };
    // Three calls on each instance, all at once: each instance's own calls share one refresh, and the instances share the row lock.
    const answers = await Promise.all(
      apps.flatMap((app) => [1, 2, 3].map(() => app.container.upstream.targets.clientsFor(who).jira.myself())),
    );
    for (const me of answers) expect(me.accountId).toBe(sandbox.credentials.people[0]!.accountId);
    const refreshes = (await oauthLog(sandbox)).filter((r) => r.grantType === "refresh_token").slice(before);
    expect(refreshes.map((r) => r.outcome)).toEqual(["ok"]);
  });
});
