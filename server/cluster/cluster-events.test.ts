import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthClientDto } from "../../contract/oauth";
import { TOOLSET_NAMES } from "../../contract/policy";
import { listenForToolChanges, openEvents } from "../mcp/mcp.test-rig";
import { obtainTokens } from "../oauth/oauth.adversarial.helpers";
import { buildUser } from "../test/factories";
import type { TestClient } from "../test/http-client";
import type { TestApp } from "../test/test-app";
import { onPostgres, SHARED_STORES, startTwoInstances, type TwoInstances } from "../test/two-instances";

/**
 * Events reach every instance (issue 29 item 3): what is done on one instance (a client
 * deactivated, a connection ended, a user deactivated, a policy changed) acts on the streams and
 * caches of the other, through PostgreSQL's LISTEN/NOTIFY behind the event bus.
 */
describe.skipIf(!onPostgres).each(SHARED_STORES)("events across two instances on one PostgreSQL, relayed through %s", (store) => {
  let two: TwoInstances;
  let a: TestApp;
  let b: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    two = await startTwoInstances({}, store);
    ({ a, b } = two);
    admin = two.admin;
  });

  afterAll(() => two?.close());

  const tokenOf = (client: OAuthClientDto) => two.readToken(client, b);
  const streamOn = (t: TestApp, token: string) => openEvents(`${t.baseUrl}/api/sse/stream`, { authorization: `Bearer ${token}` });

  it("a client deactivated on one instance: its stream on the other ends", async () => {
    const client = await two.newClient("Deactivated elsewhere");
    const events = await streamOn(b, await tokenOf(client));
    await events.nextNamed("connected");
    const patched = await admin.request("PATCH", `/api/admin/oauth-clients/${client.clientId}`, { json: { isActive: false } });
    expect(patched.status).toBe(200);
    expect(JSON.parse((await events.nextNamed("error")).data).message).toMatch(/access ended/);
    await events.ended();
  });

  it("a connection ended by an administrator on one instance, held by the other", async () => {
    const client = await two.newClient("Ended elsewhere");
    const events = await streamOn(b, await tokenOf(client));
    const { connectionId } = JSON.parse((await events.nextNamed("connected")).data) as { connectionId: string };
    const ended = await admin.request("DELETE", `/api/admin/sse-connections/${connectionId}`);
    expect(ended.status).toBe(204);
    await events.nextNamed("error");
    await events.ended();
  });

  it("a user deactivated on one instance: their stream on the other ends", async () => {
    const person = await buildUser(a.container, { roles: ["operator"] });
    const client = await two.newClient("A person's client");
    // The person's own token: a code grant through instance b, the deactivation through instance a.
    const personClient = b.client();
    const signedIn = await personClient.post("/api/login", { username: person.row.username, password: person.password });
    expect(signedIn.status).toBe(200);
    const tokens = await obtainTokens({ t: b, baseUrl: b.baseUrl, admin, user: personClient }, client, { scope: "read" });
    const events = await streamOn(b, tokens.access_token);
    await events.nextNamed("connected");
    const off = await admin.request("PUT", `/api/users/${person.row.id}`, { json: { isActive: false } });
    expect(off.status).toBe(200);
    await events.nextNamed("error");
    await events.ended();
  });

  it("a policy changed on one instance: a listener on the other hears tools/list_changed", async () => {
    const client = await two.newClient("Listener elsewhere");
    const listen = await listenForToolChanges(b.baseUrl, await tokenOf(client));
    expect(listen.status).toBe(200);
    await listen.waitFor("notifications/subscriptions/acknowledged");
    const policy = await admin.put(`/api/admin/oauth-clients/${client.clientId}/policy`, { toolsets: TOOLSET_NAMES.slice(0, 1) });
    expect(policy.status, policy.text).toBe(200);
    await listen.waitFor("notifications/tools/list_changed");
    await listen.close();
  });
});
