/**
 * The outbound proxy companies put between their servers and Atlassian: HTTPS_PROXY (and
 * HTTP_PROXY for http: upstreams) with NO_PROXY exceptions, read as curl and most tools read them
 * (either case; NO_PROXY entries are host names, domain suffixes with or without a leading dot,
 * optional ports, IP addresses, or `*`). A private CA is NODE_EXTRA_CA_CERTS, which Node itself
 * applies to every TLS connection, the proxied ones included.
 */
export interface OutboundProxy {
  /** The proxy to reach `origin` through, or null to connect directly. */
  proxyFor(origin: string): string | null;
}

export interface OutboundProxySettings {
  httpsProxy?: string | undefined;
  httpProxy?: string | undefined;
  noProxy?: string | undefined;
}

/** The settings from the environment (upper case first, as curl does for all but HTTP_PROXY's lower-case form). */
export const proxySettingsFrom = (env: NodeJS.ProcessEnv): OutboundProxySettings => ({
  httpsProxy: env.HTTPS_PROXY || env.https_proxy || undefined,
  httpProxy: env.http_proxy || env.HTTP_PROXY || undefined,
  noProxy: env.NO_PROXY || env.no_proxy || undefined,
});

export function createOutboundProxy(settings: OutboundProxySettings, options: { bypassLoopback?: boolean } = {}): OutboundProxy | null {
  if (!settings.httpsProxy && !settings.httpProxy) return null;
  const rules = (settings.noProxy ?? "")
    .split(/[\s,]+/)
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean);
  const bypass = (url: URL): boolean => {
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    // A proxy cannot reach this machine's loopback: those always connect directly (as Go and others do).
    if (options.bypassLoopback !== false && (host === "localhost" || host === "::1" || /^127\./.test(host))) return true;
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    return rules.some((rule) => {
      if (rule === "*") return true;
      const [name, rulePort] = rule.startsWith("[")
        ? [rule.slice(1, rule.indexOf("]")), rule.split("]:")[1]]
        : (rule.split(":") as [string, string | undefined]);
      if (rulePort && rulePort !== port) return false;
      const domain = name.replace(/^\*?\./, "");
      return host === domain || host.endsWith(`.${domain}`);
    });
  };
  return {
    proxyFor(origin: string): string | null {
      const url = new URL(origin);
      if (bypass(url)) return null;
      return (url.protocol === "https:" ? (settings.httpsProxy ?? settings.httpProxy) : settings.httpProxy) ?? null;
    },
  };
}
