import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../lib/logger";
import { httpLog } from "./http-log";

/** The per-request log line: one per request, the right level, never a header or a query value. */
describe("httpLog", () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  let base = "";
  let close = () => {};
  beforeAll(async () => {
    const app = express();
    app.use(httpLog(log, { ignore: (path) => path === "/quiet" }));
    app.get("/ok", (req, res) => res.json({ id: req.id }));
    app.get("/missing", (_req, res) => res.status(404).end());
    app.get("/broken", (_req, res) => res.status(500).end());
    app.get("/quiet", (_req, res) => res.end());
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());
  const lineFor = (id: string | null) => lines.find((l) => (l.req as { id?: string } | undefined)?.id === id);

  it("gives each request an id (X-Request-Id) and logs it once at info, the query reduced to its names", async () => {
    const res = await fetch(`${base}/ok?access_token=s3cret&x=1`, {
      headers: { authorization: "Bearer s3cret", cookie: "bk_session=s3cret" },
    });
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await res.json()) as { id: string }).id).toBe(id);
    await expect.poll(() => lineFor(id)).toBeDefined();
    const line = lineFor(id)!;
    expect(line).toMatchObject({
      level: 30,
      msg: "request completed",
      req: { method: "GET", url: "/ok?access_token=…&x=…" },
      res: { statusCode: 200 },
    });
    expect(typeof line.responseTime).toBe("number");
    expect(JSON.stringify(lines)).not.toContain("s3cret");
    expect(lines.filter((l) => (l.req as { id?: string }).id === id)).toHaveLength(1);
  });

  it("logs 4xx at warn and 5xx at error; an ignored path not at all", async () => {
    const ids: (string | null)[] = [];
    for (const path of ["/missing", "/broken", "/quiet"]) ids.push((await fetch(`${base}${path}`)).headers.get("x-request-id"));
    await expect.poll(() => lineFor(ids[1]!)).toBeDefined();
    expect(lineFor(ids[0]!)?.level).toBe(40);
    expect(lineFor(ids[1]!)?.level).toBe(50);
    expect(lineFor(ids[2]!)).toBeUndefined();
  });
});
