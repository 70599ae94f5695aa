import { createServer, request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { systemClock } from "../lib/clock";
import { createHostPolicy } from "./host-policy";
import { createUpstreamHttp } from "./http";
import { createJiraClient } from "./jira.client";
import { createUpstreamMeter } from "./meter";
import { createOutboundProxy, proxySettingsFrom } from "./outbound-proxy";

describe("outbound proxy settings", () => {
  it("reads either case, https first for https: upstreams, and honours NO_PROXY", () => {
    expect(proxySettingsFrom({ https_proxy: "http://p:3128", NO_PROXY: ".corp,10.0.0.1" })).toEqual({
      httpsProxy: "http://p:3128",
      httpProxy: undefined,
      noProxy: ".corp,10.0.0.1",
    });
    expect(createOutboundProxy({})).toBeNull();
    const proxy = createOutboundProxy({
      httpsProxy: "http://secure:3128",
      httpProxy: "http://plain:3128",
      noProxy: "internal.example, .corp.example ,10.1.2.3,api.example:8443",
    })!;
    expect(proxy.proxyFor("https://acme.atlassian.net")).toBe("http://secure:3128");
    expect(proxy.proxyFor("http://jira.acme.example")).toBe("http://plain:3128");
    expect(proxy.proxyFor("https://internal.example")).toBeNull();
    expect(proxy.proxyFor("https://wiki.corp.example")).toBeNull();
    expect(proxy.proxyFor("https://corp.example")).toBeNull();
    expect(proxy.proxyFor("https://notcorp.example")).toBe("http://secure:3128");
    expect(proxy.proxyFor("http://10.1.2.3:8080")).toBeNull();
    expect(proxy.proxyFor("https://api.example:8443")).toBeNull();
    expect(proxy.proxyFor("https://api.example")).toBe("http://secure:3128");
    expect(createOutboundProxy({ httpsProxy: "http://p:1", noProxy: "*" })!.proxyFor("https://x.example")).toBeNull();
    for (const local of ["http://localhost:8080", "http://127.0.0.1:9", "http://[::1]:9"]) expect(proxy.proxyFor(local)).toBeNull();
  });
});

/** Calls reach the upstream through a forward proxy (a CONNECT tunnel), and the address rule still holds. */
describe("upstream calls through HTTPS_PROXY / HTTP_PROXY", () => {
  let sandbox: Sandbox;
  let proxy: Server;
  let proxyUrl = "";
  const seen: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox();
    proxy = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const target = new URL(req.url!);
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    // What an HTTPS upstream (and undici's proxy agent) asks for: a tunnel.
    proxy.on("connect", (req, client, head) => {
      seen.push(`CONNECT ${req.url}`);
      const [host, port] = (req.url ?? "").split(":");
      const upstream = connect(Number(port), host!, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await sandbox.close();
  });

  const client = (policy: { allowPrivate: boolean; allowedHosts: string[] }, noProxy?: string) => {
    const meter = createUpstreamMeter({ clock: systemClock, hourlyBudget: { atlassian: 1000, bitbucket: 1000 } });
    const http = createUpstreamHttp({
      meter,
      timeoutMs: 5_000,
      maxAttempts: 1,
      hostPolicy: createHostPolicy(policy),
      proxy: createOutboundProxy({ httpProxy: proxyUrl, noProxy }, { bypassLoopback: false }),
    });
    const { atlassian } = sandbox.credentials;
    const authorization = `Basic ${Buffer.from(`${atlassian.email}:${atlassian.apiToken}`).toString("base64")}`;
    return { http, jira: createJiraClient(http, async () => ({ baseUrl: sandbox.url, authorization })) };
  };

  it("goes through the proxy", async () => {
    const { http, jira } = client({ allowPrivate: true, allowedHosts: [] });
    seen.length = 0;
    expect((await jira.myself()).accountId).toBe(sandbox.credentials.atlassian.accountId);
    expect(seen).toEqual([`CONNECT ${new URL(sandbox.url).host}`]);
    await http.close();
  });

  it("connects directly to a NO_PROXY host", async () => {
    const { http, jira } = client({ allowPrivate: true, allowedHosts: [] }, "127.0.0.1");
    seen.length = 0;
    await jira.myself();
    expect(seen).toEqual([]);
    await http.close();
  });

  it("still refuses an upstream on a private address: the rule is checked before the proxy is asked", async () => {
    const { http, jira } = client({ allowPrivate: false, allowedHosts: [] });
    seen.length = 0;
    await expect(jira.myself()).rejects.toMatchObject({ kind: "host_not_allowed" });
    expect(seen).toEqual([]);
    await http.close();
  });
});
