import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { dataCenterPath, DC_CONTEXT } from "./datacenter";

/** The Data Center flavour's frame: context paths, who may ask what, and DC's own error bodies. */
describe("sandbox: the Data Center frame", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.close());

  it("maps each context path to its service and the path under it", () => {
    expect(dataCenterPath("/dc/jira/rest/api/2/myself")).toEqual({ service: "jira", inner: "/rest/api/2/myself" });
    expect(dataCenterPath("/dc/confluence")).toEqual({ service: "confluence", inner: "/" });
    expect(dataCenterPath("/dc/jiraX/rest")).toBeNull();
    expect(dataCenterPath("/rest/api/2/myself")).toBeNull();
    expect(sandbox.dataCenter.bitbucket).toBe(`${sandbox.url}${DC_CONTEXT.bitbucket}`);
  });

  it("answers which product it is without credentials, and nothing else", async () => {
    for (const path of ["/dc/jira/rest/api/2/serverInfo", "/dc/bitbucket/rest/api/1.0/application-properties"]) {
      const res = await fetch(`${sandbox.url}${path}`);
      expect(res.status, path).toBe(200);
    }
    const manifest = await fetch(`${sandbox.url}/dc/confluence/rest/applinks/1.0/manifest`, { headers: { accept: "application/json" } });
    expect(manifest.status).toBe(200);
    const data = await fetch(`${sandbox.url}/dc/jira/rest/api/2/myself`);
    expect(data.status).toBe(401);
    expect(data.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("takes the service account's and people's tokens and passwords; Bitbucket's errors are DC's", async () => {
    const me = (authorization: string) => fetch(`${sandbox.url}/dc/jira/rest/api/2/myself`, { headers: { authorization } });
    const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}`;
    expect((await me("Bearer sandbox-dc-pat")).status).toBe(200);
    expect((await me(basic("demo", "sandbox-dc-password"))).status).toBe(200);
    const priya = sandbox.credentials.people[0]!;
    expect((await (await me(`Bearer ${priya.personalAccessToken}`)).json()) as { name: string }).toMatchObject({ name: priya.nickname });
    expect((await me(basic(priya.nickname.toUpperCase(), priya.apiToken))).status).toBe(200);
    expect((await me("Bearer sandbox-dc-http-access-token")).status).toBe(401);
    const bb = await fetch(`${sandbox.url}/dc/bitbucket/rest/api/1.0/projects`, { headers: { authorization: "Bearer wrong" } });
    expect(bb.status).toBe(401);
    expect(await bb.json()).toMatchObject({
      errors: [{ message: expect.any(String), exceptionName: expect.stringContaining("Authorisation") }],
    });
  });
});
