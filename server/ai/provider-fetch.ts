import { isIP } from "node:net";
import { Agent, Dispatcher, fetch as undiciFetch } from "undici";
import { HostNotAllowedError, hostRuleMessage, type HostPolicy } from "../upstream/host-policy";

/**
 * The fetch every AI provider call goes through: the same upstream host rules as the
 * integrations (a provider's base URL may not reach a loopback, private, link-local or metadata
 * address unless UPSTREAM_ALLOW_PRIVATE or UPSTREAM_ALLOWED_HOSTS says so), a keep-alive pool of
 * its own, and no automatic redirects to somewhere else.
 */
export type ProviderFetch = typeof globalThis.fetch & {
  /** The same fetch, calling `onSent` once each request (headers and body) is on the wire. */
  notifying(onSent: () => void): typeof globalThis.fetch;
  /** Ends the pool's keep-alive connections (the container's close). */
  close(): Promise<void>;
};

/**
 * The pool, telling `onSent` when each request (headers and body) is written out: undici's
 * onRequestSent, which a composed interceptor does not see. The handler is otherwise untouched.
 */
class NotifyingDispatcher extends Dispatcher {
  constructor(
    private readonly pool: Dispatcher,
    private readonly onSent: () => void,
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const onSent = this.onSent;
    return this.pool.dispatch(
      options,
      new Proxy(handler, {
        get(target, key) {
          const value: unknown = Reflect.get(target, key);
          if (key !== "onRequestSent") return typeof value === "function" ? value.bind(target) : value;
          return (...args: unknown[]) => {
            onSent();
            return typeof value === "function" ? value.apply(target, args) : undefined;
          };
        },
      }),
    );
  }
}

export function createProviderFetch(options: { hostPolicy?: HostPolicy; connectTimeoutMs?: number }): ProviderFetch {
  const hostRule = options.hostPolicy;
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    connections: 32,
    connect: { timeout: options.connectTimeoutMs ?? 10_000, ...(hostRule ? { lookup: hostRule.lookup } : {}) },
  });
  const fetchVia = (dispatcher: Dispatcher) =>
    (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
      // A literal address never passes through DNS (nor the pool's lookup): checked here.
      const host = url.hostname.replace(/^\[|\]$/g, "");
      if (hostRule && isIP(host) && !hostRule.permits(host, host)) throw new HostNotAllowedError(hostRuleMessage(host, host));
      return undiciFetch(url, { ...(init as object), dispatcher, redirect: "error" } as Parameters<typeof undiciFetch>[1]);
    }) as unknown as typeof globalThis.fetch;
  const fetch = fetchVia(agent);
  return Object.assign(fetch, {
    notifying: (onSent: () => void) => fetchVia(new NotifyingDispatcher(agent, onSent)),
    close: () => agent.close(),
  });
}
