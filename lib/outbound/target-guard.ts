import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { bareHost, isAllowedHost, isForbiddenAddress, refuseToolUrl } from '../domain/ssrf.js';

export { isAllowedHost, isForbiddenAddress };

/**
 * The SSRF guard for requests to URLs our users name: HTTP tools (streaming-service/src/tools/http.ts) and
 * webhook deliveries (lib/services/webhook-delivery.ts). A tool URL is written by a workspace user and called from inside our
 * network, so it must never reach private, loopback, link-local or cloud-metadata addresses (the policy is
 * lib/domain/ssrf.ts, which the API also applies when a tool is saved). The check runs on the addresses the
 * name resolves to, and the request then connects to exactly the address that was checked
 * ({@link pinnedLookup}), so a DNS answer that changes between check and connect (rebinding) cannot slip
 * through. Every resolved address must be public: one bad answer refuses the call. Tools saved before a
 * rule existed are judged by today's rules here, so the call-time check repeats the URL-only one.
 */
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
  const host = bareHost(url);
  if (refuseToolUrl(url, allowedHosts)) throw new ToolTargetRefusedError(host, 'forbidden_address');
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
