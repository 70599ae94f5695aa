import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEvents, rpc } from "../mcp/mcp.test-rig";
import { basicOf, createClient } from "../oauth/oauth.adversarial.helpers";
import { buildUser, signedInAs } from "../test/factories";
import { formPost } from "../test/oauth";
import type { TestApp } from "../test/test-app";
import { onPostgres, SHARED_STORES, startTwoInstances, type TwoInstances } from "../test/two-instances";

/**
 * Two instances on one PostgreSQL count the limits together (issue 29 item 2): the API limit of an
 * OAuth client, the OAuth endpoints' limit and the sign-in slow-down, whichever instance a request
 * lands on (no sticky sessions). Each instance is a whole app with its own connection pool, as two
 * processes behind a load balancer are; both have the load balancer's address as PUBLIC_URL.
 */
describe.skipIf(!onPostgres).each(SHARED_STORES)("limits shared by two instances on one PostgreSQL, counted in %s", (store) => {
  let two: TwoInstances;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    two = await startTwoInstances(
      {
        RATE_LIMIT_API_PER_MINUTE: 6,
        RATE_LIMIT_API_BURST: 1,
        RATE_LIMIT_OAUTH_REQUESTS: 8,
        loginLimits: {
          perUserAndIp: { failures: 4, windowSeconds: 900 },
          perIp: { failures: 1000, windowSeconds: 3600 },
          perUser: { failures: 1000, windowSeconds: 900 },
        },
      },
      store,
    );
    ({ a, b } = two);
  });

  afterAll(() => two?.close());

  it(`counts in ${store} on both`, () => {
    expect(a.container.limits.kind).toBe(store);
    expect(b.container.limits.kind).toBe(store);
  });

  it("an OAuth client's API limit: requests alternating between the instances meet it once, together", async () => {
    const admin = (await signedInAs(a, ["admin"])).client;
    const client = await createClient({ t: a, baseUrl: a.baseUrl, admin, user: admin }, { name: "Spread client" });
    const issued = await formPost(`${b.baseUrl}/oauth/token`, { grant_type: "client_credentials", scope: "read" }, basicOf(client));
    expect(issued.status).toBe(200);
    const token = issued.body.access_token as string;
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await rpc((i % 2 ? b : a).baseUrl, token, ping)).status);
    // 6 a minute and a burst of 1: seven answered, then refused on either instance.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    const refused = await rpc(a.baseUrl, token, ping);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a large limit is leased in slices: two instances spending one key at once never pass it, and leave at most a slice each unspent", async () => {
    const key = `lease-${store}-${Date.now()}`;
    const options = { keyPrefix: "lease-check", points: 500, duration: 60 };
    // Each instance's own spender over the shared store: 5 points a slice.
    const [onA, onB] = [a.container.limits.spender(options), b.container.limits.spender(options)];
    const spend = async (spender: typeof onA) => {
      let granted = 0;
      for (let i = 0; i < 400; i++)
        if (
          await spender.consume(key).then(
            () => true,
            () => false,
          )
        )
          granted++;
      return granted;
    };
    // Two runs on each instance at once: slices are taken while the other instance spends.
    const [a1, b1, a2, b2] = await Promise.all([spend(onA), spend(onB), spend(onA), spend(onB)]);
    const [grantedA, grantedB] = [a1! + a2!, b1! + b2!];
    const total = grantedA + grantedB;
    expect(total).toBeLessThanOrEqual(500);
    expect(total).toBeGreaterThanOrEqual(500 - 2 * 4);
    expect(Math.min(grantedA, grantedB)).toBeGreaterThan(0);
    // The shared count saw every slice: it is spent, for both.
    await expect(a.container.limits.create(options).get(key)).resolves.toMatchObject({ remainingPoints: 0 });
  });

  it("the OAuth endpoints' limit per address counts on both", async () => {
    const statuses: number[] = [];
    // The two before this one's token request spent one of the 8 already: at most 7 more are answered.
    for (let i = 0; i < 10; i++)
      statuses.push((await formPost(`${(i % 2 ? b : a).baseUrl}/oauth/token`, { grant_type: "client_credentials" })).status);
    const answered = statuses.filter((s) => s !== 429).length;
    expect(answered).toBe(7);
    expect(statuses.slice(answered)).toEqual(Array(10 - answered).fill(429));
  });

  it("the sign-in slow-down: wrong passwords on either instance count against the same account and address", async () => {
    const user = await buildUser(a.container, { roles: ["viewer"] });
    const attempt = (t: TestApp, password = "not-the-password") => t.client().post("/api/login", { username: user.row.username, password });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt(i % 2 ? b : a)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    // Even the right password waits, on either instance.
    expect((await attempt(a, user.password)).status).toBe(429);
    expect((await attempt(b, user.password)).status).toBe(429);
  });
});

// Apart: the address (loopback) stays turned away on both instances for the rest of the window.
describe.skipIf(!onPostgres).each(SHARED_STORES)(
  "stream limits and the bad-token throttle shared by two instances, counted in %s",
  (store) => {
    let two: TwoInstances;
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      two = await startTwoInstances({ RATE_LIMIT_SSE_MAX_CONCURRENT: 2, RATE_LIMIT_SSE_PER_MINUTE: 4 }, store);
      ({ a, b } = two);
    });
    afterAll(() => two?.close());

    it("a client's streams count on both: open at once, and new ones a minute", async () => {
      const client = await two.newClient("Streams on both");
      const token = await two.readToken(client);
      const open = (t: TestApp) => openEvents(`${t.baseUrl}/api/sse/stream`, { authorization: `Bearer ${token}` });
      // Two open at once, one on each instance: a third is refused on either.
      const onA = await open(a);
      const onB = await open(b);
      await Promise.all([onA.nextNamed("connected"), onB.nextNamed("connected")]);
      for (const t of [a, b]) {
        const third = await open(t);
        expect(third.status).toBe(429);
        expect(third.body).toMatch(/already has 2 streams open/);
      }
      onA.close();
      onB.close();
      // Four new streams a minute together: two were opened, so two more (once the first two are let
      // go), then the fifth is refused on either instance.
      let opened = 0;
      const deadline = Date.now() + 10_000;
      while (opened < 2) {
        expect(Date.now()).toBeLessThan(deadline);
        const next = await open(opened ? b : a);
        if (next.status === 200) {
          opened++;
          next.close();
        } else await new Promise((r) => setTimeout(r, 50)); // the closed ones are still being let go
      }
      // None open any more (the registry has let them all go): what refuses now is the minute's count.
      while ((await a.container.repos.connectionsRepo.countActiveOf(client.clientId)) > 0) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const t of [a, b]) {
        const refused = await open(t);
        expect(refused.status).toBe(429);
        expect(refused.body).toMatch(/a minute/);
      }
    });

    // Last: the address (loopback) stays turned away on both instances for the rest of the window.
    it("bad tokens presented to one instance turn the address away on the other within a second, good token or not", async () => {
      const good = await two.readToken(await two.newClient("Good token, bad neighbour"), b);
      const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
      expect((await rpc(b.baseUrl, good, ping)).status).toBe(200);
      for (let i = 0; i < 20; i++) expect((await rpc(a.baseUrl, `not-a-token-${i}`, ping)).status).toBe(401);
      const deadline = Date.now() + 5_000;
      let status = 200;
      while (status !== 429 && Date.now() < deadline) {
        status = (await rpc(b.baseUrl, good, ping)).status;
        if (status !== 429) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(429);
    });
  },
);
