import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard for tool calls. A tool URL is written by a workspace user and called from inside our
 * network, so it must never reach private, loopback, link-local or cloud-metadata addresses. The check runs
 * on the addresses the name resolves to, and the request then connects to exactly the address that was
 * checked ({@link pinnedLookup}), so a DNS answer that changes between check and connect (rebinding) cannot
 * slip through. Every resolved address must be public: one bad answer refuses the call.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches localhost on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, also used inside some clouds
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, including 169.254.169.254 (instance metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments (includes 192.0.0.192 Oracle metadata)
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 maps onto IPv4, which may be private
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local, including fd00:ec2::254 (EC2 metadata over IPv6)
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6, IPv4-mapped v6 included) is one a tool may never reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address: judge that one.
    const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4') || isForbiddenAddress(mapped[1]!);
    return BLOCKED.check(address, 'ipv6');
  }
  return BLOCKED.check(address, 'ipv4');
}

/**
 * Hosts a tool may reach even when they resolve to a private address: local development and tests only
 * (TOOL_ALLOWED_HOSTS). Entries are host names or IP literals, optionally with `:port`; matching is exact.
 */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowedHosts.some((entry) => {
    const e = entry.trim().toLowerCase();
    return e === host || e === `${host}:${port}` || e === url.host.toLowerCase();
  });
}

export class ToolTargetRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly reason: 'forbidden_address' | 'unresolvable' | 'bad_scheme',
  ) {
    super(
      reason === 'forbidden_address'
        ? `refused: ${host} is a private, loopback, link-local or metadata address`
        : reason === 'unresolvable'
          ? `refused: ${host} does not resolve`
          : 'refused: only http and https URLs are allowed',
    );
    this.name = 'ToolTargetRefusedError';
  }
}

export interface ResolvedTarget {
  readonly address: string;
  readonly family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ResolvedTarget[]>;

const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * Resolves the URL's host and checks every address; returns the one to connect to. Throws
 * {@link ToolTargetRefusedError} when the target is not allowed.
 */
export async function resolveToolTarget(
  url: URL,
  allowedHosts: readonly string[],
  resolver: Resolver = systemResolver,
): Promise<ResolvedTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolTargetRefusedError(url.hostname, 'bad_scheme');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: ResolvedTarget[];
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolver(host);
    } catch {
      throw new ToolTargetRefusedError(host, 'unresolvable');
    }
  }
  if (addresses.length === 0) throw new ToolTargetRefusedError(host, 'unresolvable');
  if (!isAllowedHost(url, allowedHosts) && addresses.some((a) => isForbiddenAddress(a.address))) {
    throw new ToolTargetRefusedError(host, 'forbidden_address');
  }
  return addresses[0]!;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/** A `lookup` for http.request that always answers with the checked address (no second DNS query). */
export function pinnedLookup(target: ResolvedTarget) {
  return (_host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
