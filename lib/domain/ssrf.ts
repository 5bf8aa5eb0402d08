import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * The SSRF policy for tool URLs, shared by the API (refused at create/update time when the URL names a
 * literal address or an internal host name) and the streaming service (checked again at call time, on every
 * address the name resolves to). A tool URL is written by a workspace user and called from inside our
 * network, so it must never reach private, loopback, link-local, metadata or otherwise non-public addresses.
 *
 * Addresses are classified with ipaddr.js's special-range tables, so the policy follows the IANA registries
 * rather than a hand list: an IPv4 address must be `unicast` (public), and so must an IPv6 one. IPv6 forms
 * that carry an IPv4 address are judged by that address, or refused outright where the carried address
 * cannot be known from the IPv6 address alone.
 */

/** Why an IPv6 range is refused outright even though its embedded IPv4 address could be public. */
const REFUSED_OUTRIGHT = 'refused outright';

/**
 * The IPv4 address an IPv6 address carries, when it is one of the forms that embed one; REFUSED_OUTRIGHT
 * for forms we refuse whatever they carry; undefined for a plain IPv6 address.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | typeof REFUSED_OUTRIGHT | undefined {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  // IPv4-compatible ::a.b.c.d (RFC 4291, deprecated; also :: and ::1): no network routes it on purpose, and
  // some stacks hand it to IPv4, so `[::127.0.0.1]` must not be a way round the IPv4 rules.
  if (p.slice(0, 6).every((x) => x === 0)) return REFUSED_OUTRIGHT;
  switch (ip.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // IPv4-translated ::ffff:0:a.b.c.d (SIIT)
      return v4(p[6]!, p[7]!);
    case 'rfc6052':
      // Well-known NAT64 prefix 64:ff9b::/96 carries the address in its last 32 bits. The local-use prefix
      // 64:ff9b:1::/48 (RFC 8215) places it wherever the operator's prefix length says: refused outright.
      return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? v4(p[6]!, p[7]!) : REFUSED_OUTRIGHT;
    case '6to4': // 2002:AABB:CCDD::/48 (RFC 3056)
      return v4(p[1]!, p[2]!);
    case 'teredo':
      // 2001::/32 (RFC 4380): the client address is obfuscated and the relay is anyone's; refused outright.
      return REFUSED_OUTRIGHT;
    default:
      return undefined;
  }
}

/** Whether an IP address (v4 or v6, any form that embeds v4 included) is one a tool may never reach. */
export function isForbiddenAddress(address: string): boolean {
  // node:net's isIP accepts only the canonical dotted-quad and IPv6 forms; ipaddr.js would also read
  // "0x7f.1" or "2130706433", which are not addresses a resolver returns nor a URL host keeps.
  if (isIP(address) === 0) return true;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // ipaddr.js reads "::a.b.c.d" as IPv4-mapped (::ffff:a.b.c.d), which it is not: give it the hex form
    // the WHATWG URL parser writes (::808:808), so every IPv6 address is classified by its real bits.
    // A zone id ("fe80::1%eth0") does not survive the URL parser: refused, as link-local is anyway.
    ip = ipaddr.parse(isIP(address) === 6 ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);
  } catch {
    return true;
  }
  if (ip.kind() === 'ipv4') return (ip as ipaddr.IPv4).range() !== 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded === REFUSED_OUTRIGHT) return true;
  if (embedded) return embedded.range() !== 'unicast';
  return v6.range() !== 'unicast';
}

/**
 * Host names that name this machine or a private network whatever DNS says: `localhost` and `*.localhost`
 * (RFC 6761), `*.internal` (reserved for private use in 2024; includes `metadata.google.internal` and
 * AWS's `*.ec2.internal`), `*.local` (mDNS), `*.localdomain`, `*.home.arpa`, and single-label names, which a
 * resolver completes with the network's search domains (`metadata`, `redis`, `kubernetes`).
 */
export function isForbiddenHostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (!host.includes('.')) return true;
  return /(^|\.)(localhost|localdomain|local|internal|home\.arpa)$/.test(host);
}

/** A URL's host without IPv6 brackets. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Hosts a tool may reach even when they are private: local development and tests only (TOOL_ALLOWED_HOSTS,
 * empty in production). Entries are host names or IP literals, optionally with `:port`; matching is exact.
 */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = bareHost(url).toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowedHosts.some((entry) => {
    const e = entry.trim().toLowerCase();
    return e === host || e === `${host}:${port}` || e === url.host.toLowerCase();
  });
}

/**
 * What can be judged from the URL alone, before any DNS query: the scheme, a literal address, an internal
 * host name. Returns the reason the URL is refused, or undefined when only resolution can tell (or the host
 * is allow-listed).
 */
export function refuseToolUrl(url: URL, allowedHosts: readonly string[]): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs are allowed';
  if (isAllowedHost(url, allowedHosts)) return undefined;
  const host = bareHost(url);
  if (isIP(host)) {
    return isForbiddenAddress(host) ? `${host} is a private, loopback, link-local, metadata or reserved address${localEscapeHatch(url)}` : undefined;
  }
  return isForbiddenHostName(host) ? `${host} names a local or internal host${localEscapeHatch(url)}` : undefined;
}

/**
 * The documented way to reach such a host in local development, named in the refusal so a developer
 * pointing a webhook or tool at a server on their laptop learns it: the operator's TOOL_ALLOWED_HOSTS, with
 * the URL's own host and port (empty in production, where nothing an API user sends can change it).
 */
function localEscapeHatch(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `; for local development, start the platform with TOOL_ALLOWED_HOSTS=${url.hostname}:${port} to allow it (an operator setting, empty in production; docs/webhooks.md)`;
}
