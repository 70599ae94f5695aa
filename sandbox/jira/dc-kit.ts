import { DC_CONTEXT } from "../core/datacenter";
import { Router, type Handler, type Reply, type SandboxRequest } from "../core/http";
import type { JiraState } from "./model";
import { makeView, type View } from "./presenters";

/**
 * How the Data Center flavour reuses the cloud imitation's routes. Jira DC's REST v2 is, resource
 * for resource, the v2 the cloud also serves: what differs is who a user is (a username), what a
 * rich-text body is (wiki markup, stored as written), where links point (under the context path)
 * and a handful of endpoints (search by offset, users by username, the paged create metadata, the
 * attachment servlet). So the cloud's route functions register on a `DataCenterMount`, which keeps
 * their v2 and Agile routes, drops v3, and lets each difference replace or adapt its one route; the
 * view they build from the Data Center state (presenters.ts, `dataCenter`) presents users and bodies
 * Data Center's way.
 */

/** What a Data Center route does with the cloud's handler for the same method and path: adapt it, or serve nothing there (null). */
export type Adapter = (cloud: Handler) => Handler | null;

/** `jira.search.views.default.max`: the most issues one search page holds on a default Data Center instance. */
export const SEARCH_MAX_RESULTS = 1000;

/** The state getter the Data Center routes use: the Data Center state, marked as such for its views. */
export const dataCenterState =
  (state: () => JiraState): (() => JiraState) =>
  () => {
    const s = state();
    s.dataCenter ??= { searchMaxResults: SEARCH_MAX_RESULTS };
    return s;
  };

/** The request as a Data Center route sees it: its `origin` is the instance's base URL (the context path included), for `self` links. */
const underContext = (handler: Handler): Handler => {
  return (req) => handler({ ...req, origin: `${req.origin}${DC_CONTEXT.jira}` });
};

/** The view of a Data Center request (origin already under the context path): REST v2, wiki bodies. */
export const dcView = (state: () => JiraState, req: SandboxRequest): View => makeView(state(), req.origin, 2, req.caller);

/**
 * A router the cloud's route functions register on, mounting their routes on the Data Center
 * router: v3 left out (Data Center has none), every `adapters` entry applied to its route. Each
 * adapter must meet its route: `assertAllUsed` fails the sandbox's start when a cloud route it
 * names has moved, rather than leave the cloud's behaviour on Data Center unnoticed.
 */
export class DataCenterMount extends Router {
  private readonly unused: Set<string>;

  constructor(
    private readonly target: Router,
    private readonly adapters: Readonly<Record<string, Adapter>>,
  ) {
    super();
    this.unused = new Set(Object.keys(adapters));
  }

  override add(method: string, pattern: string, handler: Handler): this {
    if (pattern.startsWith("/rest/api/3/")) return this;
    const key = `${method} ${pattern}`;
    const adapter = this.adapters[key];
    this.unused.delete(key);
    const mounted = adapter ? adapter(handler) : handler;
    if (mounted) this.target.add(method, pattern, underContext(mounted));
    return this;
  }

  /** A route Data Center has and the cloud does not. */
  own(method: string, pattern: string, handler: Handler): void {
    this.target.add(method, pattern, underContext(handler));
  }

  assertAllUsed(): void {
    if (this.unused.size) throw new Error(`Jira Data Center adapters meet no cloud route: ${[...this.unused].join(", ")}`);
  }
}

/** A reply's JSON body, whether a handler gave it as a value or (a cached GET, kit.ts) as serialised text. */
export function replyJson(reply: Reply): unknown {
  if (reply.body !== undefined) return reply.body;
  return reply.text !== undefined && reply.text !== "" ? (JSON.parse(reply.text) as unknown) : undefined;
}

/** The request with one query parameter left out (Data Center ignores what its API does not define). */
export function withoutParam(req: SandboxRequest, name: string): SandboxRequest {
  const query = new URLSearchParams(req.query);
  query.delete(name);
  return { ...req, query };
}
