import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostPolicy } from "../upstream/host-policy";
import { createProviderFetch } from "./provider-fetch";

/** A provider that has read each request whole and answers only when told. */
const received: string[] = [];
const waiting: ServerResponse[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    received.push(body);
    waiting.push(res);
  });
});
let url = "";
const fetch = createProviderFetch({});

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(async () => {
  await fetch.close();
  server.close();
});

describe("the provider fetch's notifying()", () => {
  it("says when the request is on the wire, before any answer, and the call goes on as usual", async () => {
    const question = JSON.stringify({ question: "x".repeat(64 * 1024) });
    let sent = 0;
    const call = fetch.notifying(() => sent++)(url, { method: "POST", headers: { "content-type": "application/json" }, body: question });
    await expect.poll(() => waiting.length).toBe(1);
    expect(sent).toBe(1);
    waiting.shift()!.end(JSON.stringify({ answer: "ok" }));
    const res = await call;
    expect(await res.json()).toEqual({ answer: "ok" });
    expect(sent).toBe(1);
    expect(received.at(-1)).toBe(question);
  });

  it("is not called for a request refused before it leaves (a forbidden literal address)", async () => {
    const guarded = createProviderFetch({ hostPolicy: createHostPolicy({ allowPrivate: false, allowedHosts: [] }) });
    let sent = 0;
    await expect(guarded.notifying(() => sent++)("http://10.0.0.1/v1/chat/completions", { method: "POST", body: "{}" })).rejects.toThrow();
    expect(sent).toBe(0);
    await guarded.close();
  });
});
