/**

// @pglite-only: generated bad input against every route; the answers do not depend on the database engine.
 * Property-based fuzzing (fast-check) of every /api route (AUTHZ_MATRIX) and every OAuth endpoint,
 * against the real app on a real database over loopback HTTP. Inputs carry the routes' real field
 * names with hostile values: C0 controls (NUL), bidi controls, lone surrogates, strings up to
 * ~200 KB, wrong types, nesting up to 5,000 deep, extra and repeated fields, malformed JSON and
 * forms, wrong content types and encodings, huge bodies; path parameters are real ids or hostile.
 *
 * Properties, for every answer: no 5xx (the proxy routes may answer 502/503/504: neither
 * integration is configured at the start, and what the fuzz saves points at a closed loopback
 * port), never an HTML body (redirects included), every error body is JSON. For every batch whose
 * requests were all refused (4xx): no row changed (audit_events, sessions, oauth_pending_requests
 * aside, which refused requests legitimately add to or touch, and upstream_sync, which earlier
 * proxy calls write to in the background). At the end the server still answers.
 *
 * FUZZ_SEED=n replays another seed, FUZZ_RUNS=n sets the runs per route, FUZZ_COLLECT=1 records
 * every distinct problem instead of stopping each route at its first (then shrunk) failure, and
 * FUZZ_VERBOSE=1 prints the status counts per route, FUZZ_TRACE=text every request to the routes
 * whose name contains the text.
 * PGlite only: on the "postgres" project it would double the suite's time for no new inputs.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHZ_MATRIX } from "../test/authz-matrix";
import { buildUser } from "../test/factories";
import {
  RAW_PIECES,
  anyJson,
  answerProblems,
  clip,
  deepJson,
  describeRequest,
  fieldsObject,
  formPairs,
  jsonText,
  loggedErrors,
  nastyString,
  pct,
  printable,
  shortNastyString,
  sometimes,
  rowDiff,
  send,
  tableSnapshot,
  type FuzzRequest,
  type FuzzResponse,
} from "../test/fuzz";
import { pkce } from "../test/oauth";
import { startTestApp, type TestApp } from "../test/test-app";

const SEED = Number(process.env.FUZZ_SEED ?? 20_250_607);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** Per route, generation and shrinking together; a slower machine runs fewer cases rather than time out. */
const ROUTE_BUDGET_MS = Number(process.env.FUZZ_ROUTE_MS ?? 8_000);
const COLLECT = process.env.FUZZ_COLLECT === "1";
/** FUZZ_TRACE=text prints every request to the routes whose name contains it, with its answer. */
const TRACE = process.env.FUZZ_TRACE;
/** A closed loopback port: what the integrations may point at, so no request leaves the machine. */
const DEAD_ORIGIN = "http://127.0.0.1:9";
const APP_REDIRECT = "https://app.example.com/cb";
const LOOPBACK_REDIRECT = "http://127.0.0.1:8765/cb";
/** Rows that refused requests legitimately add or touch, or that background writes change. */
// The request log and the connection registry record requests and streams, refused or not
// (docs/decisions.md#request-log).
const VOLATILE_TABLES = [
  "audit_events",
  "sessions",
  "oauth_pending_requests",
  "upstream_sync",
  "request_logs",
  "request_log_minutes",
  "sse_connections",
  // Each instance notes itself alive every 15 s, whatever the requests.
  "instances",
];
const PROXY_5XX = [502, 503, 504];

// ---------------------------------------------------------------------------------------------
// State shared by the routes' generators: filled in beforeAll, topped up before each route.

const pools = {
  users: [] as string[],
  roles: [] as string[],
  clients: [] as string[],
  aiProviders: [] as string[],
  conversations: [] as string[],
  secrets: new Map<string, string>(),
  pending: [] as string[],
  codes: [] as string[],
  refresh: [] as string[],
  tokens: [] as string[],
  verifiers: [] as string[],
};
let t: TestApp;
let adminCookie = "";
let adminId = "";
let bearer = "";
let snapshot: () => Promise<string[]>;

const stats = {
  cases: 0,
  runs: 0,
  compared: 0,
  statuses: {} as Record<string, number>,
  byRoute: {} as Record<string, Record<string, number>>,
  started: 0,
};
const count = (route: string, status: number | string) => {
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
  const mine = (stats.byRoute[route] ??= {});
  mine[status] = (mine[status] ?? 0) + 1;
};
interface Failure {
  route: string;
  request: string;
  status: number;
  problems: string[];
  body: string;
  log: string[];
}
/** Per route, the last failing execution: after shrinking, the minimal counterexample. */
const failures = new Map<string, Failure>();
/** With FUZZ_COLLECT=1: every distinct (route, problem, logged error). */
const collected = new Map<string, Failure>();

/** A pooled value picked at generation time (pools change as routes delete and recreate rows). */
const fromPool = (pool: () => readonly string[], fallback: string) =>
  fc.nat().map((i) => pool()[i % Math.max(1, pool().length)] ?? fallback);

// ---------------------------------------------------------------------------------------------
// Plausible values, per field, so that one hostile field reaches the handler past the others

const word = fc.stringMatching(/^[a-z][a-z0-9_]{2,14}$/);
const plausible = {
  username: word.map((w) => `fz_${w}`),
  email: word.map((w) => `${w}@example.test`),
  password: fc.constantFrom("correct-horse-battery", "pw-123456", "secret!"),
  name: fc.constantFrom("Ada", "Zoë", "O'Brien", "李"),
  bool: fc.boolean(),
  roleName: word.map((w) => `Fuzz ${w}`),
  description: fc.constantFrom("Reads things", "", null),
  permissions: fc.subarray(["users.read", "users.write", "roles.read", "config.read", "oauth-clients.read", "mcp.write", "nope.nope"]),
  roleIds: fc.array(
    fromPool(() => pools.roles, "00000000-0000-4000-8000-000000000000"),
    { maxLength: 3 },
  ),
  instanceUrl: fc.constantFrom(`${DEAD_ORIGIN}`, `${DEAD_ORIGIN}/`, `${DEAD_ORIGIN}/jira`),
  token: fc.constantFrom("tok-1234", "app-pass-5678", ""),
  workspace: word,
  clientName: fc.constantFrom("Claude", "Fuzz client"),
  redirectUris: fc.subarray([APP_REDIRECT, LOOPBACK_REDIRECT, "com.example.app:/cb"], { minLength: 1 }),
  scopes: fc.subarray(["read", "write"], { minLength: 1 }),
  clientType: fc.constantFrom("confidential", "public"),
  isoDate: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("2024-01-01", "2024-01-01T00:00:00Z", "2030-12-31T23:59:59.999+02:00") },
    { weight: 1, arbitrary: fc.constantFrom("not a date", "1e20", "-271821-04-20", "275760-09-13", "0", "") },
  ),
  limit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("1", "100", "500") },
    { weight: 1, arbitrary: fc.constantFrom("501", "0", "-1", "1.5", "1e3", "abc", "9".repeat(400)) },
  ),
  uuid: fc.uuid(),
};

/** An integration in a path: both real ones, and a few that are not. */
const INTEGRATION_SEGMENTS = ["atlassian", "bitbucket", "jira", "ATLASSIAN", "%00"] as const;

/** The request log's filters, plausible and not (list, summary and export take the same). */
const logFilters = {
  status: fc.constantFrom("success", "error", "x"),
  statusCode: fc.constantFrom("200", "429", "99", "600", "abc"),
  method: fc.constantFrom("GET", "post", "BREW"),
  clientId: fc.constantFrom("bk_x", "", "y".repeat(301)),
  tool: fc.constantFrom("jira_search", "DROP TABLE"),
  from: plausible.isoDate,
  to: plausible.isoDate,
  search: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("%", "_", "\\", "x".repeat(10_000))),
};

/** A string an Atlassian instance URL may be only if it points at the closed loopback port. */
function loopbackOnly(v: unknown): unknown {
  if (typeof v !== "string") return v;
  // eslint-disable-next-line no-control-regex
  for (const candidate of [v, v.trim(), v.replace(/[\u0000-\u0020]/g, "")]) {
    try {
      if (new URL(candidate).hostname !== "127.0.0.1") return `${DEAD_ORIGIN}/`;
    } catch {
      // not a URL: harmless
    }
  }
  return v;
}

const USER_FIELDS = {
  email: plausible.email,
  username: plausible.username,
  password: plausible.password,
  firstName: plausible.name,
  lastName: plausible.name,
  isActive: plausible.bool,
};
/** Every kind's calls go to a dead port (aiBaseUrls below, or the base URL guard): the Test route never leaves the machine. */
const AI_PROVIDER_FIELDS = {
  name: plausible.name,
  provider: fc.constantFrom("openai", "anthropic", "google", "openai-compatible", "mistral"),
  model: fc.constantFrom("gpt-4o", "llama3.1:8b", "models/gemini-pro", "bad model"),
  apiKey: plausible.token,
  baseUrl: fc.constantFrom(`${DEAD_ORIGIN}/v1`, "", null, "not a url"),
  isActive: plausible.bool,
};
/** The chat's fields: providers from the pool (their calls go to a dead port), conversations of the admin's. */
const CHAT_SEND_FIELDS = {
  message: fc.constantFrom("Which issues changed?", "", "   ", "x".repeat(40_000)),
  providerId: fc.oneof(
    fromPool(() => pools.aiProviders, "00000000-0000-4000-8000-000000000000"),
    plausible.uuid,
  ),
  sessionId: fc.oneof(
    fromPool(() => pools.conversations, "00000000-0000-4000-8000-000000000000"),
    fc.constant(null),
    plausible.uuid,
  ),
  mcpTools: fc.oneof(fc.subarray(["jira", "confluence", "bitbucket"]), fc.constant(["gitlab"])),
  systemMessage: fc.constantFrom("Be brief.", "", "y".repeat(9_000)),
};
const ROLE_FIELDS = {
  name: plausible.roleName,
  description: plausible.description,
  isActive: plausible.bool,
  permissions: plausible.permissions,
};

// ---------------------------------------------------------------------------------------------
// Bodies, queries, paths, credentials

const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "text/html",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/json; charset=utf-8",
  'application/json;charset="UTF-8"',
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/merge-patch+json",
  "application/octet-stream",
  "*/*",
  "application/jsonx",
];
const MALFORMED_JSON = [
  "{",
  '{"a":',
  "[1,]",
  "{'a':1}",
  '{"a":1}}',
  "nul",
  '{"a":"\\u00"}',
  '"\\ud800"',
  "\ufeff{}",
  '{"a":NaN}',
  " ",
  "{}{}",
  '{"a":1,}',
  "[",
  "]",
  "\u0000",
];

interface BodyPlan {
  body?: string;
  contentType?: string;
  encoding?: string;
}

/** JSON bodies: mostly objects with the real fields; sometimes anything else a client could send. */
function jsonBodies(fields: Record<string, fc.Arbitrary<unknown>>, guard?: (name: string, v: unknown) => unknown): fc.Arbitrary<BodyPlan> {
  const objects = fieldsObject(fields).map((j) => (guard ? guardJson(j.text, guard) : j.text));
  const json =
    (contentType = "application/json") =>
    (body: string): BodyPlan => ({ body, contentType });
  return fc.oneof(
    { weight: 14, arbitrary: objects.map(json()) },
    { weight: 2, arbitrary: anyJson.map((v) => json()(jsonText(v))) },
    { weight: 1, arbitrary: deepJson.map((v) => json()(v.text)) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(...MALFORMED_JSON),
          fc.tuple(objects, fc.nat()).map(([s, n]) => s.slice(0, n % Math.max(1, s.length))),
        )
        .map(json()),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...CONTENT_TYPES), fc.oneof(objects, nastyString))
        .map(([ct, body]) => ({ body, contentType: ct })),
    },
    { weight: 1, arbitrary: fc.constantFrom(101 * 1024, 200 * 1024, 1024 * 1024).map((n) => json()(`{"x":"${"a".repeat(n)}"}`)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(objects, fc.constantFrom("gzip", "deflate", "br", "identity", "x-unknown"))
        .map(([body, encoding]) => ({ body, contentType: "application/json", encoding })),
    },
    { weight: 1, arbitrary: fc.constant<BodyPlan>({}) },
  );
}

/** Re-applies a per-field guard to generated JSON text (only top-level string fields). */
function guardJson(text: string, guard: (name: string, v: unknown) => unknown): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return text;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(parsed)) {
      const g = guard(k, v);
      if (g !== v) changed = true;
      Object.defineProperty(out, k, { value: g, enumerable: true, writable: true, configurable: true });
    }
    return changed ? JSON.stringify(out) : text;
  } catch {
    return text;
  }
}

/** Form bodies: mostly x-www-form-urlencoded with the real fields; sometimes JSON, another type, or too large. */
function formBodies(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<BodyPlan> {
  const forms = formPairs(fields);
  return fc.oneof(
    { weight: 14, arbitrary: forms.map((body) => ({ body, contentType: "application/x-www-form-urlencoded" })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            ...CONTENT_TYPES,
            "application/json",
            "application/x-www-form-urlencoded; charset=latin1",
            "application/x-www-form-urlencoded; charset=koi8-r",
          ),
          forms,
        )
        .map(([contentType, body]) => ({ body, contentType })),
    },
    { weight: 1, arbitrary: fieldsObject(fields).map((j) => ({ body: j.text, contentType: "application/json" })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(21 * 1024, 200 * 1024)
        .map((n) => ({ body: `a=${"a".repeat(n)}`, contentType: "application/x-www-form-urlencoded" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(forms, fc.constantFrom("gzip", "deflate", "x-unknown"))
        .map(([body, encoding]) => ({ body, contentType: "application/x-www-form-urlencoded", encoding })),
    },
    { weight: 1, arbitrary: fc.constant<BodyPlan>({}) },
  );
}

/** A query string: the real fields when the route reads some, otherwise junk. */
const queries = (fields: Record<string, fc.Arbitrary<string>> = {}) =>
  (Object.keys(fields).length > 0
    ? fc.oneof({ weight: 7, arbitrary: formPairs(fields, { inUrl: true }) }, { weight: 1, arbitrary: fc.constant(null) })
    : sometimes(formPairs({ q: shortNastyString }, { inUrl: true }), 3)
  ).map((q) => (q ? `?${q}` : ""));

/** A path segment: a real id, a UUID, or something hostile (encoded, raw broken escapes, very long). */
function segment(pool: () => readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fromPool(pool, "none").map(pct) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: shortNastyString.filter((s) => s.length > 0).map(pct) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_PIECES.filter((p) => p !== "&" && p !== "=")) },
    { weight: 1, arbitrary: fc.constantFrom(300, 5_000).map((n) => "a".repeat(n)) },
  );
}

type ApiCreds = "admin" | "none" | "junk-cookie" | "cross-site";
const apiCreds = fc.oneof(
  { weight: 14, arbitrary: fc.constant<ApiCreds>("admin") },
  { weight: 1, arbitrary: fc.constantFrom<ApiCreds>("none", "junk-cookie", "cross-site") },
);
const anonCreds = fc.constantFrom<ApiCreds>("none", "junk-cookie", "none");

function credHeaders(c: ApiCreds): Record<string, string> {
  if (c === "admin") return { cookie: adminCookie };
  if (c === "junk-cookie") return { cookie: `bk_session=${randomBytes(32).toString("base64url")}; bk_session=x` };
  if (c === "cross-site") return { cookie: adminCookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" };
  return {};
}

const ACCEPTS = ["*/*", "application/json", "text/html", "text/html,application/xhtml+xml", "image/png"];

/** Node answers 431 itself above 16 KB of request line and headers: the fuzz stays under it to reach the app. */
const URL_BUDGET = 12_000;
const fit = (s: string) => (s.length > URL_BUDGET ? s.slice(0, URL_BUDGET) : s);

function request(method: string, url: string, plan: BodyPlan, headers: Record<string, string>, accept: string): FuzzRequest {
  url = fit(url);
  const h: Record<string, string> = { accept, ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, fit(v)])) };
  if (plan.contentType !== undefined) h["content-type"] = plan.contentType;
  if (plan.encoding !== undefined) h["content-encoding"] = plan.encoding;
  return printable({ method, url, headers: h, ...(plan.body !== undefined ? { body: plan.body } : {}) });
}

// ---------------------------------------------------------------------------------------------
// The routes

interface RouteFuzz {
  arb: fc.Arbitrary<FuzzRequest>;
  allowed5xx?: number[];
}

interface ApiRouteSpec {
  params?: Record<string, () => readonly string[]>;
  body?: fc.Arbitrary<BodyPlan>;
  query?: Record<string, fc.Arbitrary<string>>;
  creds?: fc.Arbitrary<ApiCreds>;
}

function apiRoute(key: string, spec: ApiRouteSpec = {}): RouteFuzz {
  const [method, template] = key.split(" ") as [string, string];
  const names = [...template.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const params = fc.tuple(...names.map((n) => segment(spec.params?.[n] ?? (() => []))));
  const hasBody = method !== "GET";
  const body = hasBody ? (spec.body ?? jsonBodies({})) : fc.constant<BodyPlan>({});
  const arb = fc
    .tuple(params, queries(spec.query), body, spec.creds ?? apiCreds, fc.constantFrom(...ACCEPTS))
    .map(([values, query, plan, creds, accept]) => {
      let i = 0;
      const path = template.replace(/:(\w+)/g, () => values[i++]!);
      return request(method, path + query.replaceAll("ADMIN_ID", adminId), plan, credHeaders(creds), accept);
    });
  return { arb };
}

/** GET /api/atlassian/jira/*path and friends: bearer token (mostly ours), any path and query. */
function proxyRoute(prefix: string): RouteFuzz {
  const seg = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        "rest",
        "api",
        "3",
        "2",
        "issue",
        "BK-1",
        "search",
        "user",
        "repositories",
        "bridgekeeper",
        "wiki",
        "spaces",
      ),
    },
    { weight: 2, arbitrary: shortNastyString.map(pct) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...RAW_PIECES.filter((p) => p !== "&" && p !== "=" && p !== ";"), "", "%5C..", "..%2F", "%2e"),
    },
  );
  const auth = fc.oneof(
    { weight: 10, arbitrary: fc.constant(() => ({ authorization: `Bearer ${bearer}` })) },
    { weight: 1, arbitrary: fc.constant(() => ({})) },
    { weight: 1, arbitrary: fc.constant(() => ({ authorization: `Bearer ${bearer}x` })) },
    { weight: 1, arbitrary: fc.constant(() => ({ authorization: "Bearer" })) },
    { weight: 1, arbitrary: fc.constant(() => ({ authorization: `Basic ${Buffer.from("a:b").toString("base64")}` })) },
    { weight: 1, arbitrary: fc.constant(() => ({ cookie: adminCookie })) },
  );
  const arb = fc
    .tuple(
      fc.array(seg, { maxLength: 5 }),
      queries({ jql: shortNastyString, limit: plausible.limit, fields: shortNastyString }),
      auth,
      fc.constantFrom(...ACCEPTS),
    )
    .map(([segs, query, headers, accept]) => request("GET", `${prefix}/${segs.join("/")}${query}`, {}, headers(), accept));
  return { arb, allowed5xx: PROXY_5XX };
}

const codeVerifier = fc.oneof(
  fromPool(() => pools.verifiers, "v".repeat(43)),
  fc.constantFrom("short", "v".repeat(43), "v".repeat(129)),
  nastyString,
);
const clientIds = fromPool(() => pools.clients, "bk_missing");

/** Valid values four times in five, edge cases otherwise. */
const mostly = (valid: readonly string[], edge: readonly string[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...edge) });

function authorizeFields(): Record<string, fc.Arbitrary<string>> {
  return {
    response_type: mostly(["code"], ["token", "code id_token", ""]),
    client_id: clientIds,
    redirect_uri: mostly(
      [APP_REDIRECT, LOOPBACK_REDIRECT, "http://127.0.0.1:9999/cb"],
      ["https://evil.example/cb", `${APP_REDIRECT}#x`, `${APP_REDIRECT}/../x`, "http://user@127.0.0.1:8765/cb"],
    ),
    code_challenge: fc.oneof(fc.constant(pkce().challenge), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)),
    code_challenge_method: mostly(["S256"], ["plain", "s256"]),
    scope: mostly(["read", "read write", "write"], ["admin", "", "read  write", "READ"]),
    state: fc.constantFrom("st-1", ""),
    resource: mostly(["BASE", "BASE/api/bitbucket"], ["", "urn:x", "https://other.example/api", "/relative", "http://127.0.0.1:1/api#x"]),
  };
}

/** The real issuer is known only once the app runs: "BASE" in a generated value stands for it. */
const withBaseEncoded = (s: string) => s.replaceAll("BASE", pct(t.baseUrl));

/** Stands for the secret of the form's client_id, filled in when the request is built. */
const SECRET_OF_CLIENT = "SECRETOFCLIENT";
const secretOfClient = fc.oneof(
  { weight: 4, arbitrary: fc.constant(SECRET_OF_CLIENT) },
  { weight: 1, arbitrary: fc.constantFrom("wrong-secret", "") },
);

function tokenFields(credentials: boolean): Record<string, fc.Arbitrary<string>> {
  return {
    grant_type: mostly(["authorization_code", "refresh_token", "client_credentials"], ["password", "", "implicit"]),
    code: fc.oneof(
      fromPool(() => pools.codes, "bk_ac_missing"),
      fc.constant(`bk_ac_${"A".repeat(43)}`),
    ),
    code_verifier: codeVerifier,
    redirect_uri: mostly([APP_REDIRECT, LOOPBACK_REDIRECT], ["https://evil.example/cb", ""]),
    ...(credentials ? { client_id: clientIds, client_secret: secretOfClient } : {}),
    refresh_token: fc.oneof(
      fromPool(() => pools.refresh, "bk_rt_missing"),
      fc.constant(`bk_rt_${"B".repeat(43)}`),
    ),
    scope: mostly(["read", "read write"], ["admin", "", "READ"]),
    resource: mostly(["BASE"], ["", "urn:x", "https://other.example/api", "http://127.0.0.1:1/api#x"]),
  };
}

/** Basic credentials: a real pair, a real id with a hostile secret, or malformed. */
const basicHeaders = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.nat().map((i) => () => {
      const ids = [...pools.secrets.keys()];
      const id = ids[i % Math.max(1, ids.length)] ?? "none";
      return `Basic ${Buffer.from(`${pct(id)}:${pct(pools.secrets.get(id) ?? "")}`).toString("base64")}`;
    }),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.oneof(clientIds, shortNastyString), shortNastyString, fc.boolean()).map(
      ([id, secret, encode]) =>
        () =>
          `Basic ${Buffer.from(encode ? `${pct(id)}:${pct(secret)}` : `${id}:${secret}`).toString("base64")}`,
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          "Basic",
          "basic",
          "Basic ",
          "Basic !!!",
          "Basic Og==",
          "Basic JXp6OiV6eg==",
          "BASIC YTpi",
          "Basic YTpi YTpi",
          "Bearer abc",
          "Digest x",
        ),
        fc.string({ unit: "grapheme-ascii", maxLength: 40 }).map((s) => `Basic ${s}`),
      )
      .map((h) => () => h),
  },
);

function oauthFormRoute(path: string, fields: Record<string, fc.Arbitrary<string>>, options: { basic?: boolean } = {}): RouteFuzz {
  const none = fc.constant(() => ({}) as Record<string, string>);
  const auth = options.basic
    ? fc.oneof({ weight: 5, arbitrary: basicHeaders.map((f) => () => ({ authorization: f() })) }, { weight: 1, arbitrary: none })
    : none;
  const arb = fc
    .tuple(formBodies(fields), auth, fc.constantFrom(...ACCEPTS), fc.constantFrom("none", "evil-origin"))
    .map(([plan, headers, accept, origin]) => {
      let body =
        plan.body === undefined
          ? undefined
          : plan.contentType?.includes("json")
            ? plan.body.replaceAll("BASE", t.baseUrl)
            : withBaseEncoded(plan.body);
      if (body?.includes(SECRET_OF_CLIENT)) {
        const id = pools.clients.find((c) => body!.includes(c));
        // A public client has no secret: the plausible one is then none at all.
        const secret = (id && pools.secrets.get(id)) || "";
        body = body.replaceAll(SECRET_OF_CLIENT, plan.contentType?.includes("json") ? secret : pct(secret));
      }
      const h: Record<string, string> = { ...headers(), ...(origin === "evil-origin" ? { origin: "https://evil.example" } : {}) };
      const r = request("POST", path, { ...plan, ...(body !== undefined ? { body } : {}) }, h, accept);
      const reused = [...pools.codes, ...pools.refresh].find((s) => body?.includes(s));
      // RFC 9700 §4.2.4, §4.14.2: presenting a used code or refresh token again revokes its grant, by design.
      if (reused) r.mayChangeRows = "a used code or refresh token, presented again, revokes its grant";
      return r;
    });
  return { arb };
}

/** What an HTTP client can put in a header: visible ASCII (hostile values belong in bodies and queries). */
const headerSafe = (v: string): string => v.replace(/[^\x21-\x7e]/g, "") || "x";

const RPC_METHODS = [
  "initialize",
  "tools/list",
  "tools/call",
  "ping",
  "server/discover",
  "logging/setLevel",
  "notifications/initialized",
  "resources/list",
  "prompts/get",
  "nope/nothing",
];
const MCP_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "1999-01-01", "garbage"];

/**
 * POST /mcp and friends: JSON-RPC-shaped bodies (and everything jsonBodies makes) with our bearer
 * token mostly, the revision headers of every era, and foreign origins now and then. Never
 * subscriptions/listen: a stream that stays open is not a request the fuzz can wait for.
 */
function mcpRoute(path: string): RouteFuzz {
  const params = fc.oneof(
    anyJson,
    fc.record({ name: fc.constantFrom("jira_search", "jira_get_issue", "bitbucket_list_repositories", "nope"), arguments: anyJson }),
    fc.record({ protocolVersion: fc.constantFrom(...MCP_VERSIONS), capabilities: anyJson, clientInfo: anyJson }),
    fc.record({
      _meta: fc.record({
        "io.modelcontextprotocol/protocolVersion": fc.constantFrom(...MCP_VERSIONS),
        "io.modelcontextprotocol/clientCapabilities": anyJson,
        "io.modelcontextprotocol/clientInfo": anyJson,
      }),
    }),
  );
  const body = jsonBodies({
    jsonrpc: fc.constantFrom("2.0", "1.0", 2),
    id: fc.oneof(fc.nat(), shortNastyString, fc.constant(null)),
    method: fc.oneof(fc.constantFrom(...RPC_METHODS), shortNastyString),
    params,
  });
  const headers = fc.record(
    {
      "mcp-protocol-version": fc.constantFrom(...MCP_VERSIONS),
      "mcp-method": fc.oneof(fc.constantFrom(...RPC_METHODS), shortNastyString.map(headerSafe)),
      "mcp-name": shortNastyString.map(headerSafe),
      origin: fc.constantFrom("https://evil.example", "http://localhost:5000", "null"),
    },
    { requiredKeys: [] },
  );
  const auth = fc.oneof(
    { weight: 10, arbitrary: fc.constant(() => ({ authorization: `Bearer ${bearer}` })) },
    { weight: 1, arbitrary: fc.constant(() => ({})) },
    { weight: 1, arbitrary: fc.constant(() => ({ authorization: `Bearer ${bearer}x` })) },
    { weight: 1, arbitrary: fc.constant(() => ({ cookie: adminCookie })) },
  );
  const query =
    path === "/messages"
      ? queries({ sessionId: fc.oneof(plausible.uuid, shortNastyString) })
      : queries({ connectionId: fc.oneof(plausible.uuid, shortNastyString) });
  const arb = fc.tuple(body, headers, auth, query, fc.constantFrom(...ACCEPTS)).map(([plan, extra, creds, q, accept]) => {
    const safe = plan.body?.includes("subscriptions/listen")
      ? { ...plan, body: plan.body.replaceAll("subscriptions/listen", "subscriptions/other") }
      : plan;
    const h: Record<string, string> = { ...creds(), ...(extra as Record<string, string>) };
    return request("POST", `${path}${q}`, safe, h, accept);
  });
  return { arb };
}

/** GET /api/sse/stream and /sse with every credential but a good one: a granted stream stays open, which the fuzz cannot wait for. */
function refusedStreamRoute(path: string): RouteFuzz {
  const auth = fc.oneof(
    fc.constant(() => ({})),
    fc.constant(() => ({ authorization: `Bearer ${bearer}x` })),
    fc.constant(() => ({ authorization: "Bearer" })),
    fc.constant(() => ({ cookie: adminCookie })),
    shortNastyString.map((v) => () => ({ authorization: `Bearer ${headerSafe(v)}` })),
  );
  const arb = fc
    .tuple(auth, queries({ access_token: shortNastyString }), fc.constantFrom(...ACCEPTS))
    .map(([headers, q, accept]) => request("GET", `${path}${q}`, {}, headers(), accept));
  return { arb };
}

function routes(): Record<string, RouteFuzz> {
  const users = () => pools.users;
  const roles = () => pools.roles;
  const clients = () => pools.clients;
  const aiProviders = () => pools.aiProviders;
  const conversations = () => pools.conversations;
  // A provider's failure is an upstream failure (502, 504), as a proxy route's is.
  const chatRoute = (key: string, spec: ApiRouteSpec = {}): RouteFuzz => ({ ...apiRoute(key, spec), allowed5xx: PROXY_5XX });
  const pending = () => pools.pending;
  const authorize = authorizeFields();
  return {
    "GET /api/mcp/health": apiRoute("GET /api/mcp/health"),
    "GET /api/mcp/health/live": apiRoute("GET /api/mcp/health/live"),
    "POST /api/login": apiRoute("POST /api/login", {
      creds: anonCreds,
      body: jsonBodies({ username: fc.oneof(plausible.username, fc.constant("fuzz_admin")), password: plausible.password }),
    }),
    "POST /api/logout": apiRoute("POST /api/logout", { creds: anonCreds }),
    "GET /api/session": apiRoute("GET /api/session"),
    "GET /api/mcp-connection": apiRoute("GET /api/mcp-connection"),
    "GET /api/openapi.json": apiRoute("GET /api/openapi.json"),
    "GET /api/setup-status": apiRoute("GET /api/setup-status"),

    "GET /api/users": apiRoute("GET /api/users"),
    "POST /api/users": apiRoute("POST /api/users", { body: jsonBodies(USER_FIELDS) }),
    "GET /api/users/:id": apiRoute("GET /api/users/:id", { params: { id: users } }),
    "PUT /api/users/:id": apiRoute("PUT /api/users/:id", { params: { id: users }, body: jsonBodies(USER_FIELDS) }),
    "DELETE /api/users/:id": apiRoute("DELETE /api/users/:id", { params: { id: users } }),
    "GET /api/users/:id/roles": apiRoute("GET /api/users/:id/roles", { params: { id: users } }),
    "PUT /api/users/:id/roles": apiRoute("PUT /api/users/:id/roles", {
      params: { id: users },
      body: jsonBodies({ roleIds: plausible.roleIds }),
    }),

    "GET /api/users/:id/links": apiRoute("GET /api/users/:id/links", { params: { id: users } }),
    "DELETE /api/users/:id/links/:integration": apiRoute("DELETE /api/users/:id/links/:integration", {
      params: { id: users, integration: () => INTEGRATION_SEGMENTS },
    }),

    "GET /api/account/links": apiRoute("GET /api/account/links"),
    "POST /api/account/links/:integration/authorize": apiRoute("POST /api/account/links/:integration/authorize", {
      params: { integration: () => INTEGRATION_SEGMENTS },
      body: jsonBodies({ returnTo: fc.constantFrom("/oauth/consent?request=x", "//evil.example", "https://evil.example", "/account") }),
    }),
    "GET /api/account/links/:integration/callback": apiRoute("GET /api/account/links/:integration/callback", {
      params: { integration: () => INTEGRATION_SEGMENTS },
      query: { code: shortNastyString, state: shortNastyString, error: fc.constantFrom("access_denied", "server_error", "") },
    }),
    // A token is checked at the service (a dead port here): its failure is an upstream failure.
    "POST /api/account/links/:integration/api-token": chatRoute("POST /api/account/links/:integration/api-token", {
      params: { integration: () => INTEGRATION_SEGMENTS },
      body: jsonBodies({ email: plausible.email, apiToken: plausible.token }),
    }),
    "DELETE /api/account/links/:integration": apiRoute("DELETE /api/account/links/:integration", {
      params: { integration: () => INTEGRATION_SEGMENTS },
    }),
    "GET /api/admin/identity": apiRoute("GET /api/admin/identity"),
    "PUT /api/admin/identity/:integration": apiRoute("PUT /api/admin/identity/:integration", {
      params: { integration: () => INTEGRATION_SEGMENTS },
      body: jsonBodies({
        mode: fc.constantFrom("shared", "per-person", "both"),
        allowMachineClients: plausible.bool,
        allowApiTokens: plausible.bool,
        oauthClientId: fc.constantFrom("", "client-1", "x".repeat(300)),
        oauthClientSecret: plausible.token,
      }),
    }),

    "GET /api/roles": apiRoute("GET /api/roles"),
    "GET /api/permissions": apiRoute("GET /api/permissions"),
    "POST /api/roles": apiRoute("POST /api/roles", { body: jsonBodies(ROLE_FIELDS) }),
    "PUT /api/roles/:id": apiRoute("PUT /api/roles/:id", { params: { id: roles }, body: jsonBodies(ROLE_FIELDS) }),
    "DELETE /api/roles/:id": apiRoute("DELETE /api/roles/:id", { params: { id: roles } }),

    "GET /api/admin/audit": apiRoute("GET /api/admin/audit", {
      query: {
        action: fc.constantFrom("auth.login", "user.created"),
        actorId: fc.oneof(fc.constant("ADMIN_ID"), plausible.uuid),
        targetType: fc.constantFrom("user", "role"),
        targetId: plausible.uuid,
        from: plausible.isoDate,
        to: plausible.isoDate,
        cursor: fc.oneof(
          fc.constant(Buffer.from(`2024-01-01T00:00:00.000Z|${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`).toString("base64url")),
          fc.string({ unit: "grapheme-ascii", maxLength: 40 }),
        ),
        limit: plausible.limit,
      },
    }),

    "GET /api/admin/atlassian-config": apiRoute("GET /api/admin/atlassian-config"),
    "POST /api/admin/atlassian-config": apiRoute("POST /api/admin/atlassian-config", {
      body: jsonBodies(
        { instanceUrl: plausible.instanceUrl, email: plausible.email, apiToken: plausible.token, isActive: plausible.bool },
        (name, v) => (name === "instanceUrl" ? loopbackOnly(v) : v),
      ),
    }),
    "GET /api/admin/bitbucket-config": apiRoute("GET /api/admin/bitbucket-config"),
    "POST /api/admin/bitbucket-config": apiRoute("POST /api/admin/bitbucket-config", {
      body: jsonBodies({
        workspace: plausible.workspace,
        username: plausible.username,
        appPassword: plausible.token,
        isActive: plausible.bool,
      }),
    }),
    "POST /api/admin/test-atlassian": apiRoute("POST /api/admin/test-atlassian"),
    "POST /api/admin/test-bitbucket": apiRoute("POST /api/admin/test-bitbucket"),
    "GET /api/admin/config": apiRoute("GET /api/admin/config"),
    "GET /api/atlassian-status": apiRoute("GET /api/atlassian-status"),
    "GET /api/admin/atlassian-status": apiRoute("GET /api/admin/atlassian-status"),
    "GET /api/bitbucket-status": apiRoute("GET /api/bitbucket-status"),

    "GET /api/admin/oauth-clients": apiRoute("GET /api/admin/oauth-clients"),
    "POST /api/admin/oauth-clients": apiRoute("POST /api/admin/oauth-clients", {
      body: jsonBodies({
        name: plausible.clientName,
        redirectUris: plausible.redirectUris,
        scopes: plausible.scopes,
        isActive: plausible.bool,
        clientType: plausible.clientType,
      }),
    }),
    "PATCH /api/admin/oauth-clients/:clientId": apiRoute("PATCH /api/admin/oauth-clients/:clientId", {
      params: { clientId: clients },
      body: jsonBodies({ isActive: plausible.bool }),
    }),
    "GET /api/admin/tool-calls": apiRoute("GET /api/admin/tool-calls", {
      query: {
        limit: plausible.limit,
        tool: fc.constantFrom("jira_search", "Bad Tool"),
        outcome: fc.constantFrom("ok", "error", "maybe"),
        before: fc.constantFrom(
          "bm90LWEtY3Vyc29y",
          "!!",
          "MjAyNi0wMS0wMVQwMDowMDowMC4wMDBafDAwMDAwMDAwLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMA",
        ),
        clientId: shortNastyString,
      },
    }),
    "GET /api/admin/oauth-clients/:clientId/policy": apiRoute("GET /api/admin/oauth-clients/:clientId/policy", {
      params: { clientId: clients },
    }),
    "PUT /api/admin/oauth-clients/:clientId/policy": apiRoute("PUT /api/admin/oauth-clients/:clientId/policy", {
      params: { clientId: clients },
      body: jsonBodies({
        readOnly: plausible.bool,
        toolsets: fc.option(fc.subarray(["jira-issues", "confluence-pages", "bitbucket-prs", "nope"]), { nil: null }),
        disabledTools: fc.subarray(["jira_search", "Not A Tool", "bitbucket_get_pull_request", "jira_delete_everything"]),
        jiraProjects: fc.option(fc.subarray(["BK", "ops", "not a key", "SECRET"]), { nil: null }),
        confluenceSpaces: fc.option(fc.subarray(["ENG", "~ada", "bad space"]), { nil: null }),
        bitbucketRepositories: fc.option(fc.subarray(["api-gateway", "acme/billing", "../etc"]), { nil: null }),
      }),
    }),
    "GET /api/admin/policy-options": apiRoute("GET /api/admin/policy-options"),
    "POST /api/admin/oauth-clients/:clientId/secret": apiRoute("POST /api/admin/oauth-clients/:clientId/secret", {
      params: { clientId: clients },
    }),
    "DELETE /api/admin/oauth-clients/:clientId": apiRoute("DELETE /api/admin/oauth-clients/:clientId", { params: { clientId: clients } }),
    "GET /api/oauth/requests/:id": apiRoute("GET /api/oauth/requests/:id", { params: { id: pending } }),
    "POST /api/oauth/requests/:id/decision": apiRoute("POST /api/oauth/requests/:id/decision", {
      params: { id: pending },
      body: jsonBodies({ approve: plausible.bool }),
    }),

    "GET /api/admin/logs": apiRoute("GET /api/admin/logs", {
      query: {
        ...logFilters,
        limit: plausible.limit,
        before: plausible.isoDate,
        cursor: fc.constantFrom("", "abc.def", "x".repeat(500), "eyJ4Ijoi.AAAAAAAAAAAAAAAAAAAAAA"),
      },
    }),
    "GET /api/admin/logs/summary": apiRoute("GET /api/admin/logs/summary", { query: logFilters }),
    "GET /api/admin/logs/export": apiRoute("GET /api/admin/logs/export", { query: logFilters }),
    "GET /api/admin/logs/:id": apiRoute("GET /api/admin/logs/:id", {
      params: { id: () => ["00000000-0000-4000-8000-000000000000", "not-a-uuid"] },
    }),
    "GET /api/stats": apiRoute("GET /api/stats"),
    "GET /api/admin/stats": apiRoute("GET /api/admin/stats"),
    "GET /api/admin/endpoint-stats": apiRoute("GET /api/admin/endpoint-stats"),
    "GET /api/admin/stats/traffic": apiRoute("GET /api/admin/stats/traffic"),
    "GET /api/admin/sse-connections": apiRoute("GET /api/admin/sse-connections"),
    "DELETE /api/admin/sse-connections/:connectionId": apiRoute("DELETE /api/admin/sse-connections/:connectionId"),

    "GET /api/ai-providers": apiRoute("GET /api/ai-providers"),
    "POST /api/ai-providers": apiRoute("POST /api/ai-providers", {
      body: jsonBodies(AI_PROVIDER_FIELDS, (name, v) => (name === "baseUrl" ? loopbackOnly(v) : v)),
    }),
    "PATCH /api/ai-providers/:id": apiRoute("PATCH /api/ai-providers/:id", {
      params: { id: aiProviders },
      body: jsonBodies(AI_PROVIDER_FIELDS, (name, v) => (name === "baseUrl" ? loopbackOnly(v) : v)),
    }),
    "DELETE /api/ai-providers/:id": apiRoute("DELETE /api/ai-providers/:id", { params: { id: aiProviders } }),
    "POST /api/ai-providers/:id/test": apiRoute("POST /api/ai-providers/:id/test", { params: { id: aiProviders } }),

    "GET /api/chat/providers": apiRoute("GET /api/chat/providers"),
    "POST /api/chat/send": chatRoute("POST /api/chat/send", { body: jsonBodies(CHAT_SEND_FIELDS) }),
    "POST /api/chat/generate-system-message": chatRoute("POST /api/chat/generate-system-message", {
      body: jsonBodies({ providerId: CHAT_SEND_FIELDS.providerId, mcpTools: CHAT_SEND_FIELDS.mcpTools }),
    }),
    "GET /api/chat/conversations": apiRoute("GET /api/chat/conversations"),
    "GET /api/chat/conversations/:id": apiRoute("GET /api/chat/conversations/:id", { params: { id: conversations } }),
    "PATCH /api/chat/conversations/:id": apiRoute("PATCH /api/chat/conversations/:id", {
      params: { id: conversations },
      body: jsonBodies({ title: fc.constantFrom("Renamed", "", "t".repeat(300)) }),
    }),
    "DELETE /api/chat/conversations/:id": apiRoute("DELETE /api/chat/conversations/:id", { params: { id: conversations } }),

    "POST /mcp": mcpRoute("/mcp"),
    "POST /api/mcp/protocol": mcpRoute("/api/mcp/protocol"),
    "POST /messages": mcpRoute("/messages"),
    "GET /api/sse/stream": refusedStreamRoute("/api/sse/stream"),
    "GET /sse": refusedStreamRoute("/sse"),

    "GET /api/atlassian/jira/*path": proxyRoute("/api/atlassian/jira"),
    "GET /api/atlassian/confluence/*path": proxyRoute("/api/atlassian/confluence"),
    "GET /api/bitbucket/*path": proxyRoute("/api/bitbucket"),

    "GET /oauth/authorize": {
      arb: fc
        .tuple(formPairs(authorize, { inUrl: true }), fc.constantFrom(...ACCEPTS))
        .map(([q, accept]) => request("GET", `/oauth/authorize?${withBaseEncoded(q)}`, {}, {}, accept)),
    },
    "POST /oauth/authorize": oauthFormRoute("/oauth/authorize", authorize),
    "POST /oauth/token (form)": oauthFormRoute("/oauth/token", tokenFields(true)),
    "POST /oauth/token (Basic)": oauthFormRoute("/oauth/token", tokenFields(false), { basic: true }),
    "POST /oauth/revoke": oauthFormRoute(
      "/oauth/revoke",
      {
        token: fc.oneof(
          fromPool(() => pools.tokens, "bk_at_missing"),
          fromPool(() => pools.refresh, "bk_rt_missing"),
          fc.constant("bk_at_nope"),
        ),
        token_type_hint: fc.constantFrom("access_token", "refresh_token", "id_token", ""),
      },
      { basic: true },
    ),
    "POST /oauth/register": {
      arb: fc
        .tuple(
          jsonBodies({
            redirect_uris: plausible.redirectUris,
            client_name: plausible.clientName,
            grant_types: fc.subarray(["authorization_code", "refresh_token", "client_credentials"], { minLength: 1 }),
            response_types: fc.constant(["code"]),
            token_endpoint_auth_method: fc.constantFrom("client_secret_basic", "client_secret_post", "none"),
            scope: fc.constantFrom("read", "read write"),
            client_uri: fc.constantFrom("https://app.example.com"),
            logo_uri: fc.constantFrom("https://app.example.com/logo.png"),
            contacts: fc.constantFrom(["a@example.com"], []),
            tos_uri: fc.constantFrom("https://app.example.com/tos"),
            policy_uri: fc.constantFrom("https://app.example.com/policy"),
            jwks_uri: fc.constantFrom("https://app.example.com/jwks"),
            software_id: fc.constantFrom("fuzz"),
            software_version: fc.constantFrom("1.0"),
          }),
          fc.constantFrom(...ACCEPTS),
        )
        .map(([plan, accept]) => request("POST", "/oauth/register", plan, {}, accept)),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Setup: the app, an admin, a bearer token, rows to aim at

async function api(method: string, path: string, json?: unknown): Promise<{ status: number; body: any; setCookie: string[] }> {
  const res = await fetch(t.baseUrl + path, {
    method,
    headers: { cookie: adminCookie, ...(json !== undefined ? { "content-type": "application/json" } : {}) },
    body: json === undefined ? undefined : JSON.stringify(json),
    redirect: "manual",
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text,
    setCookie: res.headers.getSetCookie(),
  };
}

async function form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(t.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function newClient(
  name: string,
  overrides: Record<string, unknown> = {},
): Promise<{ clientId: string; clientSecret: string | null }> {
  const res = await api("POST", "/api/admin/oauth-clients", {
    name,
    redirectUris: [APP_REDIRECT, LOOPBACK_REDIRECT],
    scopes: ["read", "write"],
    isActive: true,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`create client: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An authorization request waiting for consent; its id. */
async function pendingRequest(clientId: string, challenge: string): Promise<string> {
  const url = new URL("/oauth/authorize", t.baseUrl);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: APP_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s",
    scope: "read",
  }))
    url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  const id = /\/oauth-consent\/([\w-]+)$/.exec(res.headers.get("location") ?? "")?.[1];
  if (!id) throw new Error(`authorize: ${res.status} ${res.headers.get("location")} ${await res.text()}`);
  return id;
}

/** Keeps a few live rows of each kind to aim path parameters at (routes delete and rename them). */
async function topUp(): Promise<void> {
  const userRows = (await t.container.database.db.execute(
    sql`select id from users where username like 'fzvictim%' and id <> ${adminId}`,
  )) as unknown as { rows: { id: string }[] };
  const liveUsers = userRows.rows.map((u) => u.id);
  while (liveUsers.length < 3)
    liveUsers.push((await buildUser(t.container, { username: `fzvictim_${randomBytes(4).toString("hex")}`, roles: ["viewer"] })).row.id);
  const allRoles = (await api("GET", "/api/roles")).body as { id: string; name: string; isBuiltin: boolean }[];
  const custom = allRoles.filter((r) => r.name.startsWith("fzvictim"));
  for (let i = custom.length; i < 2; i++) {
    const made = await api("POST", "/api/roles", { name: `fzvictim ${randomBytes(3).toString("hex")}`, permissions: ["users.read"] });
    custom.push(made.body);
  }
  const listed = (
    (await api("GET", "/api/admin/oauth-clients")).body as { clientId: string; clientSecret: string | null; name: string }[]
  ).filter((c) => c.name.startsWith("fzvictim"));
  // The secret route hands out new secrets: the ones to present are the current ones.
  pools.secrets.clear();
  for (const c of listed) if (c.clientSecret) pools.secrets.set(c.clientId, c.clientSecret);
  const clients = listed.map((c) => c.clientId);
  if (clients.length < 2) {
    for (const clientType of ["confidential", "public"]) {
      const made = await newClient(`fzvictim ${clientType}`, { clientType });
      if (made.clientSecret) pools.secrets.set(made.clientId, made.clientSecret);
      clients.push(made.clientId);
    }
  }
  const providers = ((await api("GET", "/api/ai-providers")).body as { id: string; name: string }[])
    .filter((p) => p.name.startsWith("fzvictim"))
    .map((p) => p.id);
  while (providers.length < 2) {
    const made = await api("POST", "/api/ai-providers", {
      name: `fzvictim ${randomBytes(3).toString("hex")}`,
      provider: "openai-compatible",
      model: "llama3",
      baseUrl: `${DEAD_ORIGIN}/v1`,
      apiKey: "fz-key-1234",
    });
    if (made.status !== 201) throw new Error(`create AI provider: ${made.status} ${JSON.stringify(made.body)}`);
    providers.push(made.body.id);
  }
  pools.aiProviders = providers;
  // Conversations of the admin's: a turn that fails (the provider's port is dead) still starts one.
  let conversations = ((await api("GET", "/api/chat/conversations")).body as { id: string }[]).map((c) => c.id);
  while (conversations.length < 2) {
    await api("POST", "/api/chat/send", { message: "Seed question", providerId: providers[0], sessionId: null, mcpTools: ["jira"] });
    conversations = ((await api("GET", "/api/chat/conversations")).body as { id: string }[]).map((c) => c.id);
  }
  pools.conversations = conversations;
  pools.users = liveUsers;
  pools.roles = [...custom.map((r) => r.id), ...allRoles.filter((r) => r.isBuiltin && r.name !== "admin").map((r) => r.id)];
  pools.clients = clients;
  // Pending consents: the decision route uses them up.
  const pendingRows = (await t.container.database.db.execute(
    sql`select id from oauth_pending_requests where expires_at > now()`,
  )) as unknown as { rows: { id: string }[] };
  pools.pending = pendingRows.rows.map((r) => r.id);
  const confidential = clients.find((c) => pools.secrets.has(c));
  while (confidential && pools.pending.length < 3) {
    const { verifier, challenge } = pkce();
    pools.verifiers.push(verifier);
    pools.pending.push(await pendingRequest(confidential, challenge));
  }
}

function record(route: string, r: FuzzRequest, res: FuzzResponse | null, problems: string[]): Failure {
  const failure: Failure = {
    route,
    request: describeRequest(r),
    status: res?.status ?? 0,
    problems,
    body: res ? clip(res.text, 300) : "",
    log: res ? loggedErrors(t.logLines, res.requestId) : [],
  };
  failures.set(route, failure);
  if (COLLECT) {
    const key = `${route}|${problems.join(",")}|${failure.log.join(",")}`;
    if (!collected.has(key)) collected.set(key, failure);
  }
  return failure;
}

const explain = (f: Failure) =>
  `${f.route}: ${f.problems.join("; ")}\n  request: ${f.request}\n  status ${f.status}, body ${f.body}${f.log.length ? `\n  server log: ${f.log.join(" | ")}` : ""}`;

/** One run: a batch of requests to one route, each answer checked, then the rows if all were refused. */
async function runBatch(route: string, fuzz: RouteFuzz, batch: FuzzRequest[]): Promise<void> {
  stats.runs++;
  const before = await snapshot();
  let allRefused = true;
  let exempt = false;
  for (const r of batch) {
    let res: FuzzResponse;
    try {
      res = await send(t.baseUrl, r);
    } catch (err) {
      count(route, "network error");
      // Say, a Location header too large for the client to read (undici's limit is 16 KB, like Node's).
      const f = record(route, r, null, [
        `no readable answer: ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? "")}`,
      ]);
      if (!COLLECT) throw new Error(explain(f));
      return;
    }
    stats.cases++;
    count(route, res.status);
    if (TRACE && route.includes(TRACE)) console.warn(`${res.status} ${describeRequest(r)}\n    -> ${clip(res.text, 200)}`);
    if (res.status < 400 || res.status >= 500) allRefused = false;
    if (r.mayChangeRows) exempt = true;
    const problems = answerProblems(res, fuzz.allowed5xx);
    if (problems.length > 0) {
      const f = record(route, r, res, problems);
      if (!COLLECT) throw new Error(explain(f));
    }
  }
  if (!allRefused || exempt) return;
  stats.compared++;
  const { gone, added } = rowDiff(before, await snapshot());
  if (gone.length + added.length > 0) {
    const f = record(route, batch.at(-1)!, null, [
      `rows changed by refused requests (${batch.length} in the batch): -${clip(gone.join(" | "), 400)} +${clip(added.join(" | "), 400)}`,
    ]);
    f.request = batch.map(describeRequest).join("\n           ");
    if (!COLLECT) throw new Error(explain(f));
  }
}

// ---------------------------------------------------------------------------------------------

describe("fuzz: every JSON route and OAuth endpoint", () => {
  let table: Record<string, RouteFuzz> = {};

  beforeAll(async () => {
    stats.started = Date.now();
    t = await startTestApp({
      config: {
        OAUTH_DYNAMIC_REGISTRATION: true,
        RATE_LIMIT_OAUTH_REQUESTS: 1_000_000,
        RATE_LIMIT_API_PER_MINUTE: 1_000_000,
        RATE_LIMIT_API_BURST: 100_000,
        BITBUCKET_API_URL: `${DEAD_ORIGIN}/2.0`,
        upstream: { maxAttempts: 1 },
        aiBaseUrls: { openai: `${DEAD_ORIGIN}/v1`, anthropic: `${DEAD_ORIGIN}/v1`, google: `${DEAD_ORIGIN}/v1beta` },
        loginLimits: {
          perUserAndIp: { failures: 1_000_000, windowSeconds: 60 },
          perIp: { failures: 1_000_000, windowSeconds: 60 },
          perUser: { failures: 1_000_000, windowSeconds: 60 },
        },
      },
    });
    const admin = await buildUser(t.container, { username: "fuzz_admin", roles: ["admin"] });
    adminId = admin.row.id;
    const login = await fetch(`${t.baseUrl}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "fuzz_admin", password: admin.password }),
    });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith("bk_session="));
    if (login.status !== 200 || !cookie) throw new Error(`admin sign-in: ${login.status}`);
    adminCookie = cookie.split(";")[0]!;

    // The bearer token the proxy routes get: its client stays out of the pools the fuzz aims at.
    const own = await newClient("fuzz bearer", { scopes: ["read"] });
    bearer = (
      await form(
        "/oauth/token",
        { grant_type: "client_credentials" },
        { authorization: `Basic ${Buffer.from(`${own.clientId}:${own.clientSecret}`).toString("base64")}` },
      )
    ).body.access_token;
    if (!bearer) throw new Error("no bearer token");

    await topUp();
    // A code, a refresh token and an access token of a victim client, for the token and revocation endpoints.
    const victim = pools.clients.find((c) => pools.secrets.has(c))!;
    const { verifier, challenge } = pkce();
    const pending = await pendingRequest(victim, challenge);
    const decided = await api("POST", `/api/oauth/requests/${pending}/decision`, { approve: true });
    const code = new URL(decided.body.redirectTo).searchParams.get("code")!;
    const tokens = await form("/oauth/token", {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: APP_REDIRECT,
      client_id: victim,
      client_secret: pools.secrets.get(victim)!,
    });
    if (tokens.status !== 200) throw new Error(`victim tokens: ${tokens.status} ${JSON.stringify(tokens.body)}`);
    pools.codes.push(code);
    pools.refresh.push(tokens.body.refresh_token);
    pools.tokens.push(tokens.body.access_token);
    pools.verifiers.push(verifier);

    snapshot = await tableSnapshot(t.container.database, VOLATILE_TABLES);
    table = routes();
  });

  afterAll(async () => {
    const seconds = ((Date.now() - stats.started) / 1000).toFixed(1);
    // eslint-disable-next-line no-console
    console.log(
      `fuzz: ${stats.cases} cases (${stats.runs} runs, seed ${SEED}, ${RUNS} runs per route; ${stats.compared} all-refused batches checked for changed rows) in ${seconds} s, status counts ${JSON.stringify(stats.statuses)}`,
    );
    if (process.env.FUZZ_VERBOSE === "1")
      console.warn(
        Object.entries(stats.byRoute)
          .map(([route, c]) => `  ${route}: ${JSON.stringify(c)}`)
          .join("\n"),
      );
    const list = COLLECT ? [...collected.values()] : [...failures.values()];
    if (list.length > 0)
      console.warn(
        `fuzz: ${list.length} ${COLLECT ? "distinct problems" : "failing routes (minimal inputs)"}:\n${list.map(explain).join("\n")}`,
      );
    await t?.close();
  });

  it("has a fuzzer for every route in AUTHZ_MATRIX", () => {
    expect(Object.keys(AUTHZ_MATRIX).filter((key) => !(key in table))).toEqual([]);
  });

  const keys = [
    ...Object.keys(AUTHZ_MATRIX),
    "GET /oauth/authorize",
    "POST /oauth/authorize",
    "POST /oauth/token (form)",
    "POST /oauth/token (Basic)",
    "POST /oauth/revoke",
    "POST /oauth/register",
  ];
  keys.forEach((key, index) => {
    it(`${key}: no 5xx, no HTML, JSON errors, no row changed when refused`, { timeout: 60_000 }, async () => {
      await topUp();
      const fuzz = table[key];
      if (!fuzz) throw new Error(`no fuzzer for ${key}`);
      await fc.assert(
        fc.asyncProperty(fc.array(fuzz.arb, { minLength: 1, maxLength: 3 }), (batch) => runBatch(key, fuzz, batch)),
        { seed: SEED + index, numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(ROUTE_BUDGET_MS)] },
      );
    });
  });

  // Above 16 KB of request line and headers Node's HTTP parser answers by itself, before the app.
  it("an oversized URL or header block is answered with a JSON error", async () => {
    const oversized = [
      printable({ method: "GET", url: `/api/users?q=${"a".repeat(20_000)}`, headers: { cookie: adminCookie } }),
      printable({
        method: "POST",
        url: "/oauth/token",
        headers: { authorization: `Basic ${"a".repeat(20_000)}`, "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials",
      }),
    ];
    const problems: string[] = [];
    for (const r of oversized) {
      const res = await send(t.baseUrl, r);
      stats.cases++;
      count("oversized request", res.status);
      const found = answerProblems(res);
      if (found.length > 0) problems.push(explain(record("oversized request", r, res, found)));
    }
    expect(problems).toEqual([]);
  });

  it("is still alive: GET /api/mcp/health answers 200", async () => {
    const res = await fetch(`${t.baseUrl}/api/mcp/health`);
    expect(res.status).toBe(200);
    if (COLLECT) expect([...collected.values()].map(explain)).toEqual([]);
  });
});
