import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";
import type { Env } from "../env";

/** Whether the hop at `address`, `hop` steps from us, is a proxy we trust to name the client (X-Forwarded-For). */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY compiled once, as Express compiles its "trust proxy" setting: Express is given this
 * function, and the MCP pipeline (which runs before Express) reads addresses with it too, so both
 * see the same client.
 */
export function trustProxyOf(setting: Env["TRUST_PROXY"]): TrustProxy {
  if (setting === false) return () => false;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return proxyaddr.compile(setting);
}

/** The client's address, as Express's `req.ip` gives it. */
export const clientAddress = (req: IncomingMessage, trust: TrustProxy): string => proxyaddr(req, trust);
