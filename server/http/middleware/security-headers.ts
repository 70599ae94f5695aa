import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * CSP for the console: everything from our own origin, no inline script, no framing (the consent
 * page must never be framed: clickjacking). Inline styles stay allowed because Radix positions
 * popovers with style attributes. `devMode` relaxes script-src for Vite's HMR preamble only.
 */
export function securityHeaders(headers: SecurityHeaders): RequestHandler {
  return (_req, res, next) => {
    headers.apply(res);
    next();
  };
}

/** The security headers every response carries, computed once; also applied by the MCP pipeline (mcp/pipeline.ts). */
export interface SecurityHeaders {
  apply(res: Pick<ServerResponse, "setHeader">): void;
}

export function securityHeaderList(options: { devMode: boolean }): SecurityHeaders {
  const headers = headersOf(helmetFor(options));
  return {
    apply(res) {
      for (const [name, value] of headers) res.setHeader(name, value);
    },
  };
}

/**
 * The headers a helmet middleware sets. Ours has no per-request parts (no nonces), so helmet runs
 * once, here, and every response gets the same list: helmet stays the source of the values, and a
 * request pays for a dozen setHeader calls instead of its chain of fourteen middlewares.
 */
function headersOf(middleware: ReturnType<typeof helmet>): [string, string][] {
  const headers: [string, string][] = [];
  const probe = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let finished = false;
  middleware({} as never, probe as never, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  if (!finished) throw new Error("helmet did not finish synchronously");
  return headers;
}

function helmetFor(options: { devMode: boolean }) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: options.devMode ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: options.devMode ? ["'self'", "ws:", "wss:"] : ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
}
