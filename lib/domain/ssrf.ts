import { isIP } from 'node:net';

/**
 * The SSRF policy for tool URLs, shared by the API (refused at create/update time when the URL names a
 * literal address or an internal host name) and the streaming service (checked again at call time, on every
 * address the name resolves to). A tool URL is written by a workspace user and called from inside our
 * network, so it must never reach private, loopback, link-local, metadata or otherwise non-public addresses.
 *
 * An address must be public unicast: outside every special-purpose range of the IANA registries (the IPv4
 * and IPv6 Special-Purpose Address Registries, as ipaddr.js 2.5 tabulates them; test/unit/ssrf-ranges.test.ts
 * checks this classifier against ipaddr.js on every range edge and on random addresses). Written out here
 * rather than imported because every Lambda that checks a URL carries it (issue 17's 500 KB bundles). IPv6
 * forms that carry an IPv4 address are judged by that address, or refused outright where the carried address
 * cannot be known from the IPv6 address alone.
 */

type Range = readonly [prefix: readonly number[], bits: number];

/** IPv4 special-purpose ranges (octets). */
const V4_SPECIAL: readonly Range[] = [
  [[0, 0, 0, 0], 8], // "this network"
  [[255, 255, 255, 255], 32], // limited broadcast
  [[224, 0, 0, 0], 4], // multicast (RFC 3171)
  [[169, 254, 0, 0], 16], // link-local (RFC 3927), the metadata services among them
  [[127, 0, 0, 0], 8], // loopback
  [[100, 64, 0, 0], 10], // carrier-grade NAT (RFC 6598)
  [[10, 0, 0, 0], 8], // private (RFC 1918)
  [[172, 16, 0, 0], 12],
  [[192, 168, 0, 0], 16],
  [[192, 0, 0, 0], 24], // IETF protocol assignments, documentation, benchmarking, 6to4 relay, reserved
  [[192, 0, 2, 0], 24],
  [[192, 88, 99, 0], 24],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[240, 0, 0, 0], 4],
  [[192, 175, 48, 0], 24], // AS112 (RFC 7534, 7535)
  [[192, 31, 196, 0], 24],
  [[192, 52, 193, 0], 24], // AMT (RFC 7450)
];

/** IPv6 special-purpose ranges (16-bit groups) other than the forms judged by the IPv4 address they carry. */
const V6_SPECIAL: readonly Range[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128], // unspecified
  [[0xfe80], 10], // link-local
  [[0xff00], 8], // multicast
  [[0, 0, 0, 0, 0, 0, 0, 1], 128], // loopback
  [[0xfc00], 7], // unique local
  [[0xfec0], 10], // deprecated site-local (RFC 3879)
  [[0x100, 0, 0, 0], 64], // discard (RFC 6666)
  [[0x2001, 0x2, 0], 48], // benchmarking (RFC 5180)
  [[0x2001, 0x3], 32], // AMT (RFC 7450)
  [[0x2001, 0x4, 0x112], 48], // AS112 (RFC 7535, 7534)
  [[0x2620, 0x4f, 0x8000], 48],
  [[0x2001, 0x10], 28], // ORCHID, ORCHIDv2, drone remote ID (RFC 4843, 7343, 9374)
  [[0x2001, 0x20], 28],
  [[0x2001, 0x30], 28],
  [[0x5f00], 16], // segment routing (RFC 9602)
  [[0x2001, 0], 23], // IETF protocol assignments (RFC 2928), documentation (RFC 3849, 9637)
  [[0x2001, 0xdb8], 32],
  [[0x3fff], 20],
];

/** Whether `value` (numbers of `width` bits each) starts with the range's first `bits` bits. */
function inRange(value: readonly number[], [prefix, bits]: Range, width: number): boolean {
  for (let i = 0; bits > 0; i += 1, bits -= width) {
    const mask = bits >= width ? (1 << width) - 1 : ((1 << width) - 1) ^ ((1 << (width - bits)) - 1);
    if (((value[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

const publicV4 = (octets: readonly number[]) => !V4_SPECIAL.some((r) => inRange(octets, r, 8));
const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];

/** The eight 16-bit groups of an IPv6 address in the hex form the WHATWG URL parser writes. */
function groupsOf(normalized: string): number[] | undefined {
  const halves = normalized.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const groups = halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** Whether an IPv6 address (its groups) may be reached: public unicast, or carrying a public IPv4 address. */
function publicV6(p: readonly number[]): boolean {
  // IPv4-compatible ::a.b.c.d (RFC 4291, deprecated; also :: and ::1): no network routes it on purpose, and
  // some stacks hand it to IPv4, so `[::127.0.0.1]` must not be a way round the IPv4 rules.
  if (p.slice(0, 6).every((x) => x === 0)) return false;
  // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (IPv4-translated, RFC 6145): the IPv4 address decides.
  if (p.slice(0, 5).every((x) => x === 0) && p[5] === 0xffff) return publicV4(v4Of(p[6]!, p[7]!));
  if (p.slice(0, 4).every((x) => x === 0) && p[4] === 0xffff && p[5] === 0) return publicV4(v4Of(p[6]!, p[7]!));
  if (p[0] === 0x64 && p[1] === 0xff9b) {
    // Well-known NAT64 prefix 64:ff9b::/96 carries the address in its last 32 bits. The local-use prefix
    // 64:ff9b:1::/48 (RFC 8215) places it wherever the operator's prefix length says: refused outright.
    if (p.slice(2, 6).every((x) => x === 0)) return publicV4(v4Of(p[6]!, p[7]!));
    if (p[2] === 1) return false;
  }
  if (p[0] === 0x2002) return publicV4(v4Of(p[1]!, p[2]!)); // 6to4 2002:AABB:CCDD::/48 (RFC 3056)
  // Teredo 2001::/32 (RFC 4380): the client address is obfuscated and the relay is anyone's; refused outright.
  if (p[0] === 0x2001 && p[1] === 0) return false;
  return !V6_SPECIAL.some((r) => inRange(p, r, 16));
}

/** Whether an IP address (v4 or v6, any form that embeds v4 included) is one a tool may never reach. */
export function isForbiddenAddress(address: string): boolean {
  // node:net's isIP accepts only the canonical dotted-quad and IPv6 forms, not "0x7f.1" or "2130706433",
  // which are not addresses a resolver returns nor a URL host keeps.
  const version = isIP(address);
  if (version === 4) return !publicV4(address.split('.').map(Number));
  if (version !== 6) return true;
  let normalized: string;
  try {
    // The URL parser writes every IPv6 address in one hex form ("::a.b.c.d" becomes "::808:808"), so each
    // is classified by its real bits. A zone id ("fe80::1%eth0") does not survive it: refused, as
    // link-local is anyway.
    normalized = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return true;
  }
  const groups = groupsOf(normalized);
  return !groups || !publicV6(groups);
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
