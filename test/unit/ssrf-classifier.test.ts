/**
 * Invariant: lib/domain/ssrf.ts's address classifier (its own tables, kept out of ipaddr.js so the Lambdas
 * that check URLs stay small) refuses exactly what the same policy written with ipaddr.js 2.5's IANA tables
 * refuses: on every special range's edges and neighbours, on the forms that embed IPv4, and on random
 * addresses. ssrf-ranges.test.ts pins the ranges from the registries by hand; this one catches a slip in the
 * bit arithmetic or a range the hand tables lack.
 */
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isForbiddenAddress } from '../../lib/domain/ssrf.js';

/** The policy as it was written with ipaddr.js: the reference. */
function referenceForbidden(address: string): boolean {
  if (isIP(address) === 0) return true;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(isIP(address) === 6 ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);
  } catch {
    return true;
  }
  if (ip.kind() === 'ipv4') return (ip as ipaddr.IPv4).range() !== 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]).range() !== 'unicast';
  if (p.slice(0, 6).every((x) => x === 0)) return true;
  switch (v6.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return v4(p[6]!, p[7]!);
    case 'rfc6052':
      return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? v4(p[6]!, p[7]!) : true;
    case '6to4':
      return v4(p[1]!, p[2]!);
    case 'teredo':
      return true;
    default:
      return v6.range() !== 'unicast';
  }
}

/** A seeded generator, so a failure names an address that fails again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s;
  };
}

const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const v6 = (groups: readonly number[]) => groups.map((g) => g.toString(16)).join(':');

/** First, last and the neighbours of each of ipaddr.js's special ranges. */
function rangeEdges(): string[] {
  const out: string[] = [];
  // The tables ipaddr.js classifies by (on its prototypes; its types do not declare them).
  const tables = (kind: typeof ipaddr.IPv4 | typeof ipaddr.IPv6) => Object.values((kind.prototype as unknown as { SpecialRanges: Record<string, unknown> }).SpecialRanges);
  const ranges = [...tables(ipaddr.IPv4), ...tables(ipaddr.IPv6)].flatMap((r) => (Array.isArray((r as unknown[])[0]) ? (r as [ipaddr.IPv4 | ipaddr.IPv6, number][]) : [r as [ipaddr.IPv4 | ipaddr.IPv6, number]]));
  for (const [base, bits] of ranges) {
    const bytes = base.toByteArray();
    const asBig = bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
    const width = BigInt(bytes.length * 8);
    const size = 1n << (width - BigInt(bits));
    for (const n of [asBig - 1n, asBig, asBig + 1n, asBig + size - 1n, asBig + size, asBig + size / 2n]) {
      if (n < 0n || n >= 1n << width) continue;
      if (bytes.length === 4) out.push(v4(Number(n)));
      else out.push(v6(Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn))));
    }
  }
  return out;
}

describe('the SSRF address classifier', () => {
  it('agrees with the ipaddr.js policy on every special range edge and neighbour', () => {
    const edges = rangeEdges();
    expect(edges.length).toBeGreaterThan(150);
    expect(edges.filter((a) => isForbiddenAddress(a) !== referenceForbidden(a))).toEqual([]);
  });

  it('agrees on the forms that carry an IPv4 address, with public and private ones inside', () => {
    const carried = ['8.8.8.8', '10.0.0.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '1.1.1.1', '192.0.2.1'];
    const forms = carried.flatMap((a) => {
      const [b0, b1, b2, b3] = a.split('.').map(Number) as [number, number, number, number];
      const hi = ((b0 << 8) | b1).toString(16);
      const lo = ((b2 << 8) | b3).toString(16);
      return [`::ffff:${a}`, `::ffff:0:${a}`, `64:ff9b::${a}`, `64:ff9b:1::${a}`, `2002:${hi}:${lo}::1`, `2001:0:${hi}:${lo}::1`, `::${a}`, `::ffff:${hi}:${lo}`];
    });
    expect(forms.filter((a) => isForbiddenAddress(a) !== referenceForbidden(a))).toEqual([]);
  });

  it('agrees on 20,000 random IPv4 and IPv6 addresses, and refuses what is no address', () => {
    const next = random(17);
    const addresses: string[] = [];
    for (let i = 0; i < 10_000; i += 1) addresses.push(v4(next()));
    // IPv6: mostly random prefixes of the interesting blocks, so the special ranges are hit often.
    const firsts = [0, 0x64, 0x100, 0x2001, 0x2002, 0x2620, 0x3fff, 0x5f00, 0xfc00, 0xfe80, 0xfec0, 0xff00];
    for (let i = 0; i < 10_000; i += 1) {
      const groups = Array.from({ length: 8 }, () => (next() >>> 16) & (next() % 3 === 0 ? 0 : 0xffff));
      groups[0] = next() % 2 === 0 ? firsts[next() % firsts.length]! : (next() >>> 16) & 0xffff;
      addresses.push(v6(groups));
    }
    expect(addresses.filter((a) => isForbiddenAddress(a) !== referenceForbidden(a))).toEqual([]);
    for (const bad of ['', 'example.com', '0x7f.1', '2130706433', '1.2.3', '::1::2', 'fe80::1%eth0', '1:2:3:4:5:6:7:8:9']) expect(isForbiddenAddress(bad), bad).toBe(true);
  });
});
