import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventBus } from "../../lib/event-bus";
import { createSecretBox } from "../../lib/secret-box";
import { startTestApp, type TestApp } from "../../test/test-app";
import { toOAuthClientDto } from "./oauth-clients.presenter";
import { createOAuthClientsService } from "./oauth-clients.service";

const ACTOR = { userId: null, username: "oauth-clients-test", ip: null };
const INPUT = {
  name: "Transactional",
  redirectUris: ["https://example.com/callback"],
  scopes: ["read" as const],
  isActive: true,
  clientType: "confidential" as const,
};

/** A client's change and its audit row are one transaction; listeners hear of a change only once it is stored. */
describe("OAuth clients: changes and their audit rows", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  function serviceWithAudit(record: () => Promise<void>) {
    const { repos, transact, clock, services } = t.container;
    const events = createEventBus();
    const heard: string[] = [];
    events.on("oauth.client-revoked", ({ clientId, reason }) => heard.push(`${clientId}: ${reason}`));
    events.on("oauth.client-policy-changed", ({ clientId }) => heard.push(`${clientId}: policy`));
    const service = createOAuthClientsService({
      repos,
      transact,
      secretBox: createSecretBox(randomBytes(32)),
      audit: { ...services.audit, record },
      clock,
      events,
    });
    return { service, heard, repos };
  }

  it("when the audit row cannot be written, no client is created, changed, re-keyed or deleted, and nobody is told", async () => {
    const ok = serviceWithAudit(async () => undefined);
    const created = await ok.service.create(INPUT, ACTOR);
    const failing = serviceWithAudit(async () => Promise.reject(new Error("audit store down")));

    await expect(failing.service.create({ ...INPUT, name: "Never stored" }, ACTOR)).rejects.toThrow("audit store down");
    expect((await failing.service.list({ withSecrets: false })).some((c) => c.name === "Never stored")).toBe(false);

    await expect(failing.service.setActive(created.clientId, false, ACTOR)).rejects.toThrow("audit store down");
    await expect(failing.service.regenerateSecret(created.clientId, ACTOR)).rejects.toThrow("audit store down");
    await expect(
      failing.service.setPolicy(created.clientId, { ...(await ok.service.policy(created.clientId)), readOnly: true }, ACTOR),
    ).rejects.toThrow("audit store down");
    await expect(failing.service.delete(created.clientId, ACTOR)).rejects.toThrow("audit store down");

    const stored = await failing.repos.oauthClientsRepo.findByClientId(created.clientId);
    expect(stored).toMatchObject({ isActive: true, secretSealed: created.secretSealed });
    expect((await ok.service.policy(created.clientId)).readOnly).toBe(false);
    expect(failing.heard).toEqual([]);
  });

  it("a stored change is told after it commits, and the presenter shows the secret only when asked", async () => {
    const ok = serviceWithAudit(async () => undefined);
    const created = await ok.service.create(INPUT, ACTOR);
    expect(toOAuthClientDto(created).clientSecret).toMatch(/^bks_/);
    const listed = (await ok.service.list({ withSecrets: false })).find((c) => c.clientId === created.clientId)!;
    expect(toOAuthClientDto(listed)).toMatchObject({
      clientId: created.clientId,
      clientSecret: null,
      clientType: "confidential",
      activeGrants: 0,
    });
    expect(Object.keys(toOAuthClientDto(listed))).not.toContain("secretSealed");

    await ok.service.setActive(created.clientId, false, ACTOR);
    await ok.service.delete(created.clientId, ACTOR);
    expect(ok.heard).toEqual([`${created.clientId}: client deactivated`, `${created.clientId}: client deleted`]);
  });
});
