import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Where upstream calls may go (issue 9, server-side request forgery): an integration's URL is
 * chosen by an operator, so without this rule it could point at the loopback interface, the
 * private network or a cloud metadata service and read them back through the proxy. Addresses
 * are checked after DNS resolution and on every connection (the resolver is hooked into the
 * connection pool), so a name that later resolves elsewhere (DNS rebinding) is caught too.
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT; 100.100.100.200 is a cloud metadata service
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local; 169.254.169.254 is the metadata service of most clouds
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments; 192.0.0.192 is a metadata service
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  BLOCKED.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local; fd00:ec2::254 is a metadata service
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["64:ff9b::", 96], // NAT64 of any IPv4 address, private ones included
  ["2002::", 16], // 6to4, which embeds an IPv4 address
] as const)
  BLOCKED.addSubnet(net, bits, "ipv6");

/** "::ffff:10.0.0.1" is 10.0.0.1. */
const unmapped = (address: string): string => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;

export function isPrivateAddress(address: string): boolean {
  const plain = unmapped(address.replace(/^\[|\]$/g, ""));
  const family = isIP(plain);
  if (family === 0) return true; // not an address at all: never trusted
  return BLOCKED.check(plain, family === 4 ? "ipv4" : "ipv6");
}

export interface HostPolicyOptions {
  /** UPSTREAM_ALLOW_PRIVATE: any address (tests, the demo's sandbox, an on-premises Jira). */
  allowPrivate: boolean;
  /** UPSTREAM_ALLOWED_HOSTS: host names, addresses or CIDRs allowed although private. */
  allowedHosts: readonly string[];
}

export class HostNotAllowedError extends Error {
  override name = "HostNotAllowedError";
  readonly code = "EHOSTNOTALLOWED";
}

export const hostRuleMessage = (host: string, address: string) =>
  `${host} resolves to ${address}, a loopback, private, link-local or metadata address; upstream calls go only to public addresses unless UPSTREAM_ALLOW_PRIVATE=true or UPSTREAM_ALLOWED_HOSTS names the host`;

export function createHostPolicy(options: HostPolicyOptions) {
  const names = new Set<string>();
  const allowedNets = new BlockList();
  for (const entry of options.allowedHosts) {
    const [ip, bits] = entry.split("/");
    const family = isIP(ip ?? "");
    if (family === 0) names.add(entry.toLowerCase());
    else if (bits === undefined) allowedNets.addAddress(ip!, family === 4 ? "ipv4" : "ipv6");
    else allowedNets.addSubnet(ip!, Number(bits), family === 4 ? "ipv4" : "ipv6");
  }
  const allowedAddress = (address: string) => {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && allowedNets.check(plain, family === 4 ? "ipv4" : "ipv6");
  };

  /** Whether a connection to `address`, reached through the name `host`, may be made. */
  const permits = (host: string, address: string): boolean =>
    options.allowPrivate || names.has(host.toLowerCase().replace(/^\[|\]$/g, "")) || allowedAddress(address) || !isPrivateAddress(address);

  /** dns.lookup for the connection pool: refuses a connection to an address the rule forbids. */
  function lookup(
    hostname: string,
    opts: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void {
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, opts.all ? [] : "", undefined);
      const refused = addresses.find((a) => !permits(hostname, a.address));
      if (refused) return callback(new HostNotAllowedError(hostRuleMessage(hostname, refused.address)), opts.all ? [] : "", undefined);
      if (opts.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  }

  return {
    permits,
    lookup,
    /** Checks a host (at save time, and for literal addresses, which never pass through DNS): the problem, or null. */
    async problem(host: string): Promise<string | null> {
      const bare = host.replace(/^\[|\]$/g, "");
      if (isIP(bare)) return permits(bare, bare) ? null : hostRuleMessage(bare, bare);
      const addresses = await new Promise<LookupAddress[]>((resolve) =>
        dnsLookup(bare, { all: true }, (err, list) => resolve(err ? [] : list)),
      );
      const refused = addresses.find((a) => !permits(bare, a.address));
      return refused ? hostRuleMessage(bare, refused.address) : null;
    },
  };
}

export type HostPolicy = ReturnType<typeof createHostPolicy>;
