/**
 * Invariant: every non-public range a tool URL or webhook may not reach is refused from its first address to
 * its last, and the public addresses just outside it are allowed; host names, the allow-list and call-time
 * resolution refuse exactly what lib/domain/ssrf.ts and lib/outbound/target-guard.ts describe, with the
 * reason named. The table is written out by hand from the
 * IANA special-purpose registries (RFC 6890 and successors), not read from the library the guard uses, so a
 * range dropped from the guard or from a library upgrade fails here.
 */
import { describe, expect, it } from 'vitest';
import { isAllowedHost, isForbiddenAddress, isForbiddenHostName, refuseToolUrl } from '../../lib/domain/ssrf.js';
import { pinnedLookup, resolveToolTarget, ToolTargetRefusedError, type ResolvedTarget, type Resolver } from '../../lib/outbound/target-guard.js';

/** A refused range: its first and last address, and public neighbours just outside it (none where the neighbour is itself refused). */
interface Range {
  readonly range: string;
  readonly first: string;
  readonly last: string;
  readonly outside: readonly string[];
}

const IPV4: readonly Range[] = [
  { range: '0.0.0.0/8 this network', first: '0.0.0.0', last: '0.255.255.255', outside: ['1.0.0.0'] },
  { range: '10.0.0.0/8 private', first: '10.0.0.0', last: '10.255.255.255', outside: ['9.255.255.255', '11.0.0.0'] },
  { range: '100.64.0.0/10 carrier-grade NAT', first: '100.64.0.0', last: '100.127.255.255', outside: ['100.63.255.255', '100.128.0.0'] },
  { range: '127.0.0.0/8 loopback', first: '127.0.0.0', last: '127.255.255.255', outside: ['126.255.255.255', '128.0.0.0'] },
  { range: '169.254.0.0/16 link-local and cloud metadata', first: '169.254.0.0', last: '169.254.255.255', outside: ['169.253.255.255', '169.255.0.0'] },
  { range: '172.16.0.0/12 private', first: '172.16.0.0', last: '172.31.255.255', outside: ['172.15.255.255', '172.32.0.0'] },
  { range: '192.0.0.0/24 IETF protocol assignments (metadata on some clouds)', first: '192.0.0.0', last: '192.0.0.255', outside: ['191.255.255.255', '192.0.1.0'] },
  { range: '192.0.2.0/24 TEST-NET-1', first: '192.0.2.0', last: '192.0.2.255', outside: ['192.0.1.255', '192.0.3.0'] },
  { range: '192.31.196.0/24 AS112', first: '192.31.196.0', last: '192.31.196.255', outside: ['192.31.195.255', '192.31.197.0'] },
  { range: '192.52.193.0/24 AMT', first: '192.52.193.0', last: '192.52.193.255', outside: ['192.52.192.255', '192.52.194.0'] },
  { range: '192.88.99.0/24 6to4 relay anycast', first: '192.88.99.0', last: '192.88.99.255', outside: ['192.88.98.255', '192.88.100.0'] },
  { range: '192.168.0.0/16 private', first: '192.168.0.0', last: '192.168.255.255', outside: ['192.167.255.255', '192.169.0.0'] },
  { range: '192.175.48.0/24 AS112 direct delegation', first: '192.175.48.0', last: '192.175.48.255', outside: ['192.175.47.255', '192.175.49.0'] },
  { range: '198.18.0.0/15 benchmarking', first: '198.18.0.0', last: '198.19.255.255', outside: ['198.17.255.255', '198.20.0.0'] },
  { range: '198.51.100.0/24 TEST-NET-2', first: '198.51.100.0', last: '198.51.100.255', outside: ['198.51.99.255', '198.51.101.0'] },
  { range: '203.0.113.0/24 TEST-NET-3', first: '203.0.113.0', last: '203.0.113.255', outside: ['203.0.112.255', '203.0.114.0'] },
  { range: '224.0.0.0/4 multicast', first: '224.0.0.0', last: '239.255.255.255', outside: ['223.255.255.255'] },
  { range: '240.0.0.0/4 reserved', first: '240.0.0.0', last: '255.255.255.254', outside: [] },
  { range: '255.255.255.255/32 broadcast', first: '255.255.255.255', last: '255.255.255.255', outside: [] },
];

const MAX_TAIL = 'ffff:ffff:ffff:ffff:ffff';
const IPV6: readonly Range[] = [
  { range: '::/128 unspecified', first: '::', last: '::', outside: [] },
  { range: '::1/128 loopback', first: '::1', last: '::1', outside: [] },
  { range: '::ffff:0:0/96 IPv4-mapped (of a private address)', first: '::ffff:10.0.0.0', last: '::ffff:127.255.255.255', outside: ['::ffff:8.8.8.8'] },
  { range: '::ffff:0:0:0/96 IPv4-translated (of a private address)', first: '::ffff:0:10.0.0.0', last: '::ffff:0:169.254.255.255', outside: ['::ffff:0:8.8.8.8'] },
  { range: '64:ff9b::/96 NAT64 (of a private address)', first: '64:ff9b::10.0.0.0', last: '64:ff9b::192.168.255.255', outside: ['64:ff9b::8.8.8.8'] },
  { range: '64:ff9b:1::/48 local-use NAT64', first: '64:ff9b:1::', last: `64:ff9b:1:${MAX_TAIL}`, outside: [] },
  { range: '100::/64 discard-only', first: '100::', last: '100::ffff:ffff:ffff:ffff', outside: [] },
  { range: '2001::/23 IETF protocol assignments (Teredo, benchmarking, AMT, AS112, ORCHID)', first: '2001::', last: '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', outside: ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:200::'] },
  { range: '2001::/32 Teredo', first: '2001::', last: `2001:0:${MAX_TAIL}:ffff`, outside: [] },
  { range: '2001:2::/48 benchmarking', first: '2001:2::', last: `2001:2:0:${MAX_TAIL}`, outside: [] },
  { range: '2001:db8::/32 documentation', first: '2001:db8::', last: `2001:db8:${MAX_TAIL}:ffff`, outside: ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::'] },
  { range: '2002::/16 6to4 (of a private address)', first: '2002:a00::', last: '2002:c0a8:ffff:ffff:ffff:ffff:ffff:ffff', outside: ['2002:808:808::'] },
  { range: '2620:4f:8000::/48 AS112-v6', first: '2620:4f:8000::', last: `2620:4f:8000:${MAX_TAIL}`, outside: ['2620:4f:7fff:ffff:ffff:ffff:ffff:ffff', '2620:4f:8001::'] },
  { range: '3fff::/20 documentation', first: '3fff::', last: '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', outside: ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::'] },
  { range: '5f00::/16 segment routing', first: '5f00::', last: '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', outside: ['5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '5f01::'] },
  { range: 'fc00::/7 unique local', first: 'fc00::', last: 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', outside: [] },
  { range: 'fe80::/10 link-local', first: 'fe80::', last: 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', outside: [] },
  { range: 'fec0::/10 site-local (deprecated)', first: 'fec0::', last: 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', outside: [] },
  { range: 'ff00::/8 multicast', first: 'ff00::', last: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', outside: [] },
];

const cases = (ranges: readonly Range[]) =>
  ranges.flatMap((r) => [
    { range: r.range, address: r.first, forbidden: true },
    { range: r.range, address: r.last, forbidden: true },
    ...r.outside.map((address) => ({ range: r.range, address, forbidden: false })),
  ]);

/** A URL naming the address literally, as a tool's `config.url` would. */
const urlOf = (address: string) => new URL(address.includes(':') ? `http://[${address}]/x` : `http://${address}/x`);

describe.each([
  ['IPv4', IPV4],
  ['IPv6', IPV6],
])('%s special-purpose ranges', (_family, ranges) => {
  it.each(cases(ranges))('$range: $address forbidden=$forbidden', ({ address, forbidden }) => {
    expect(isForbiddenAddress(address)).toBe(forbidden);
    // The API's save-time check reads the same literal out of a URL (brackets, normalization).
    expect(refuseToolUrl(urlOf(address), []) !== undefined).toBe(forbidden);
  });
});

describe('the edges of the policy', () => {
  it('refuses addresses written in forms a resolver never returns, even when they spell a public address', () => {
    // 8.8.8.8 as one integer, in hex and with octal-looking octets: libraries read them, URL hosts do not keep them.
    for (const spelled of ['134744072', '0x8.8.8.8', '0x08080808', '010.8.8.8']) expect(isForbiddenAddress(spelled), spelled).toBe(true);
  });

  it('judges host names by their last labels, case and a trailing dot aside', () => {
    for (const host of ['home.arpa', 'printer.home.arpa', 'api.localhost.', 'metadata.google.internal.', 'API.LOCALHOST', 'nas.local', 'box.localdomain', 'metadata']) {
      expect(isForbiddenHostName(host), host).toBe(true);
    }
    for (const host of ['localhost.example.com', 'internal.example.com', 'example.com.', 'mylocal.example', 'notinternal.com']) {
      expect(isForbiddenHostName(host), host).toBe(false);
    }
  });

  it('allow-lists exact hosts: a bare entry any port, `host:port` that port (default ports included), IPv6 in brackets', () => {
    expect(isAllowedHost(new URL('https://api.example.test/'), ['api.example.test:443'])).toBe(true);
    expect(isAllowedHost(new URL('http://api.example.test/'), ['api.example.test:80'])).toBe(true);
    expect(isAllowedHost(new URL('http://api.example.test/'), ['api.example.test:443'])).toBe(false);
    expect(isAllowedHost(new URL('https://api.example.test/'), ['api.example.test:80'])).toBe(false);
    expect(isAllowedHost(new URL('http://api.example.test:8080/'), ['api.example.test:8080'])).toBe(true);
    expect(isAllowedHost(new URL('http://api.example.test:8080/'), ['api.example.test:8081'])).toBe(false);
    expect(isAllowedHost(new URL('http://api.example.test:8080/'), ['api.example.test'])).toBe(true);
    expect(isAllowedHost(new URL('http://api.example.test/'), [' API.Example.TEST '])).toBe(true);
    expect(isAllowedHost(new URL('http://[fd00::a]:8080/'), ['[FD00::A]:8080'])).toBe(true);
    expect(isAllowedHost(new URL('http://other.example.test/'), ['api.example.test'])).toBe(false);
  });

  it('refuseToolUrl: the scheme first, then the allow-list, then the literal or the name', () => {
    expect(refuseToolUrl(new URL('ftp://api.example.test/'), [])).toBe('only http and https URLs are allowed');
    expect(refuseToolUrl(new URL('ftp://127.0.0.1/'), ['127.0.0.1'])).toBe('only http and https URLs are allowed');
    expect(refuseToolUrl(new URL('http://127.0.0.1:4000/'), ['127.0.0.1:4000'])).toBeUndefined();
    expect(refuseToolUrl(new URL('http://localhost:3000/'), ['localhost:3000'])).toBeUndefined();
    expect(refuseToolUrl(new URL('http://127.0.0.1:4000/'), [])).toBe(
      '127.0.0.1 is a private, loopback, link-local, metadata or reserved address; for local development, start the platform with TOOL_ALLOWED_HOSTS=127.0.0.1:4000 to allow it (an operator setting, empty in production; docs/webhooks.md)',
    );
    expect(refuseToolUrl(new URL('http://[::1]/'), [])).toMatch(/^::1 is a private, loopback, link-local, metadata or reserved address; .*TOOL_ALLOWED_HOSTS=\[::1\]:80 /);
    expect(refuseToolUrl(new URL('http://db.internal/'), [])).toMatch(/^db\.internal names a local or internal host; .*TOOL_ALLOWED_HOSTS=db\.internal:80 /);
    expect(refuseToolUrl(new URL('https://api.example.test/'), [])).toBeUndefined();
    expect(refuseToolUrl(new URL('https://8.8.8.8/'), [])).toBeUndefined();
  });
});

describe('call-time resolution', () => {
  const noDns: Resolver = async () => {
    throw new Error('no DNS in this test');
  };
  const answers = (list: ResolvedTarget[]): Resolver => async () => list;
  const refusal = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ToolTargetRefusedError);

  it('connects to a literal address as written, without asking DNS', async () => {
    await expect(resolveToolTarget(new URL('http://93.184.216.34/x'), [], noDns)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(resolveToolTarget(new URL('https://[2606:4700:4700::1111]/x'), [], noDns)).resolves.toEqual({ address: '2606:4700:4700::1111', family: 6 });
  });

  it('names each refusal: bad_scheme, forbidden_address, unresolvable', async () => {
    const scheme = await refusal(resolveToolTarget(new URL('ws://api.example.test/'), [], noDns));
    expect(scheme).toMatchObject({ name: 'ToolTargetRefusedError', reason: 'bad_scheme', message: 'refused: only http and https URLs are allowed' });
    const literal = await refusal(resolveToolTarget(new URL('http://10.0.0.1/'), [], noDns));
    expect(literal).toMatchObject({ reason: 'forbidden_address', host: '10.0.0.1' });
    const resolved = await refusal(resolveToolTarget(new URL('http://api.example.test/'), [], answers([{ address: '10.0.0.1', family: 4 }])));
    expect(resolved).toMatchObject({ reason: 'forbidden_address', message: 'refused: api.example.test is a private, loopback, link-local or metadata address' });
    const failed = await refusal(resolveToolTarget(new URL('http://api.example.test/'), [], noDns));
    expect(failed).toMatchObject({ reason: 'unresolvable', message: 'refused: api.example.test does not resolve' });
    expect(await refusal(resolveToolTarget(new URL('http://api.example.test/'), [], answers([])))).toMatchObject({ reason: 'unresolvable' });
  });

  it('accepts http and https names that resolve to public addresses, and allow-listed ones that do not', async () => {
    const publicAnswer = answers([{ address: '93.184.216.34', family: 4 }]);
    await expect(resolveToolTarget(new URL('http://api.example.test/'), [], publicAnswer)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(resolveToolTarget(new URL('https://api.example.test/'), [], publicAnswer)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    const privateAnswer = answers([{ address: '10.0.0.9', family: 4 }]);
    await expect(resolveToolTarget(new URL('http://api.example.test:8443/'), ['api.example.test:8443'], privateAnswer)).resolves.toEqual({ address: '10.0.0.9', family: 4 });
  });

  it('uses the system resolver by default (an allow-listed localhost from /etc/hosts)', async () => {
    const target = await resolveToolTarget(new URL('http://localhost:4000/'), ['localhost:4000']);
    expect(['127.0.0.1', '::1']).toContain(target.address);
    expect(target.family).toBe(target.address === '::1' ? 6 : 4);
  });

  it('pins the lookup to the checked address, in both callback forms', () => {
    const lookup = pinnedLookup({ address: '93.184.216.34', family: 4 });
    const calls: unknown[][] = [];
    lookup('api.example.test', { all: true }, (...args) => calls.push(args));
    lookup('api.example.test', {}, (...args) => calls.push(args));
    expect(calls).toEqual([
      [null, [{ address: '93.184.216.34', family: 4 }]],
      [null, '93.184.216.34', 4],
    ]);
  });
});
