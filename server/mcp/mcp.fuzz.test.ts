import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyJson, deepJson, jsonText, shortNastyString } from "../test/fuzz";
import { envelope, mcpRigForFile, MODERN, type McpRig } from "./mcp.test-rig";

// @pglite-only: malformed JSON-RPC bodies; the database plays no part in the answers.

/**
 * Issue 10, "Bad input": 10,000 generated malformed JSON-RPC bodies to /mcp (property-based,
 * fast-check) with a good token: 0 crashes, 0 5xx, every answer JSON-RPC (or an empty 202), and
 * the server healthy after. PGlite only: the database plays no part in these answers.
 */
const CASES = Number(process.env.MCP_FUZZ_CASES ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const CONCURRENCY = 16;

const METHODS = [
  "initialize",
  "tools/list",
  "tools/call",
  "ping",
  "server/discover",
  "logging/setLevel",
  "notifications/initialized",
  "notifications/cancelled",
  "resources/read",
  "completion/complete",
  "tasks/get",
  "x",
];
const VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25", MODERN, "2030-01-01", ""];

const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("2"), anyJson),
    id: fc.oneof(fc.nat(), fc.string(), fc.constant(null), anyJson),
    method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: shortNastyString }),
    params: fc.oneof(
      anyJson,
      fc.record({ name: fc.constantFrom("jira_search", "jira_get_issue", "nope"), arguments: anyJson }, { requiredKeys: [] }),
      fc.record({ protocolVersion: fc.constantFrom(...VERSIONS), capabilities: anyJson, clientInfo: anyJson }, { requiredKeys: [] }),
      fc.record(
        {
          _meta: fc.oneof(
            anyJson,
            fc.constant(envelope()),
            fc.constant(envelope({ "io.modelcontextprotocol/protocolVersion": "2030-01-01" })),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    result: anyJson,
    error: anyJson,
  },
  { requiredKeys: [] },
);

const body = fc.oneof(
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.array(message, { maxLength: 4 }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: anyJson.map(jsonText) },
  { weight: 1, arbitrary: deepJson.map((j) => j.text) },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom("", "{", "[", "nul", '{"jsonrpc":"2.0",', "\u0000", '{"a":1}}'), shortNastyString) },
);

const headers = fc.record(
  {
    "mcp-protocol-version": fc.constantFrom(...VERSIONS),
    "mcp-method": fc.constantFrom(...METHODS),
    "mcp-name": fc.constantFrom("jira_search", "nope"),
    accept: fc.constantFrom("application/json, text/event-stream", "application/json", "text/event-stream", "*/*", "text/html"),
  },
  { requiredKeys: [] },
);

describe("MCP fuzz: malformed bodies", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r));

  it(`${CASES} generated malformed bodies: no 5xx, JSON-RPC answers, the server healthy`, async () => {
    const token = await rig.token();
    const cases = fc.sample(fc.tuple(body, headers), { numRuns: CASES, seed: SEED });
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    const resent: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const [text, extra] = cases[next++]!;
        const safeText = text.includes("subscriptions/listen") ? text.replaceAll("subscriptions/listen", "subscriptions/other") : text;
        const send = () =>
          fetch(`${rig.baseUrl}/mcp`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              authorization: `Bearer ${token}`,
              ...extra,
            },
            body: safeText,
          });
        // A kept-alive socket the server closed as the client reused it (a loaded machine stalls
        // the client past the idle timeout) fails the fetch before any answer: sent again once on
        // a new connection. A second failure is a finding.
        const res = await send().catch((error: Error & { cause?: { code?: string } }) => {
          resent.push(error.cause?.code ?? error.message);
          return send();
        });
        const answer = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const type = res.headers.get("content-type") ?? "";
        const readable =
          answer === "" ||
          (type.startsWith("application/json") && /"jsonrpc":"2.0"|^\[/.test(answer)) ||
          type.startsWith("text/event-stream");
        if (res.status >= 500 || !readable || type.includes("html") || /\n\s+at \S+ \(/.test(answer))
          problems.push(`${res.status} ${type} ${answer.slice(0, 200)} ← ${safeText.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // eslint-disable-next-line no-console -- the figures for the note
    console.log(
      `MCP fuzz: ${CASES} bodies, seed ${SEED}, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}, sent again after a transport error: ${resent.length} (${[...new Set(resent)].join(", ")})`,
    );
    expect(problems.slice(0, 10)).toEqual([]);
    expect((await fetch(`${rig.baseUrl}/api/mcp/health`)).status).toBe(200);
  }, 300_000);
});
