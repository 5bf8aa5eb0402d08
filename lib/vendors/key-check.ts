import type { Config } from '../config.js';
import type { KeyTestResult, ProviderKeyVendor } from '../domain/provider-key.js';

/**
 * Tests a vendor key with the vendor's cheapest authenticated request: a read that costs nothing and
 * changes nothing (a model or project list, or a short-lived token). It goes where the call adapters go:
 * the base URL variables when set (a stand-in on loopback under `npm start` and in tests), the vendor's
 * service otherwise. Plain `fetch`, no vendor SDK: the API handler that runs this stays small.
 *
 * The production URLs are repeated from the adapters on purpose: importing an adapter module would pull
 * its SDK (several hundred KB) into the API function's bundle.
 */

export interface KeyCheckOutcome {
  readonly result: KeyTestResult;
  readonly vendorStatus?: number;
  readonly message: string;
}

/** A key test waits this long: vendors answer these reads in well under a second; an API call must not hang. */
const KEY_CHECK_TIMEOUT_MS = 8_000;

interface KeyCheckRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
}

const httpOrigin = (base: string): string => {
  const url = new URL(base);
  url.protocol = url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
  return url.origin;
};
const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

type KeyCheckConfig = Pick<
  Config,
  | 'OPENAI_BASE_URL'
  | 'OPENAI_STT_BASE_URL'
  | 'ANTHROPIC_BASE_URL'
  | 'GOOGLE_BASE_URL'
  | 'DEEPGRAM_BASE_URL'
  | 'ASSEMBLYAI_BASE_URL'
  | 'SPEECHMATICS_AUTH_URL'
  | 'ELEVENLABS_BASE_URL'
  | 'CARTESIA_BASE_URL'
>;

/** Each vendor's request. Documented per vendor in docs/provider-keys.md. */
const REQUESTS: Record<ProviderKeyVendor, (c: KeyCheckConfig, key: string) => KeyCheckRequest> = {
  openai: (c, key) => ({
    url: join(c.OPENAI_BASE_URL ?? c.OPENAI_STT_BASE_URL ?? 'https://api.openai.com/v1', '/models'),
    method: 'GET',
    headers: { authorization: `Bearer ${key}` },
  }),
  anthropic: (c, key) => ({
    url: join(c.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com', '/v1/models?limit=1'),
    method: 'GET',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
  }),
  google: (c, key) => ({
    url: join(c.GOOGLE_BASE_URL ?? 'https://generativelanguage.googleapis.com', '/v1beta/models?pageSize=1'),
    method: 'GET',
    headers: { 'x-goog-api-key': key },
  }),
  deepgram: (c, key) => ({
    url: join(httpOrigin(c.DEEPGRAM_BASE_URL ?? 'https://api.deepgram.com'), '/v1/projects'),
    method: 'GET',
    headers: { authorization: `Token ${key}` },
  }),
  // The streaming host's temporary-token request: the same host and key the calls use.
  assemblyai: (c, key) => ({
    url: join(httpOrigin(c.ASSEMBLYAI_BASE_URL ?? 'wss://streaming.assemblyai.com'), '/v3/token?expires_in_seconds=60'),
    method: 'GET',
    headers: { authorization: key },
  }),
  // The temporary-key request the real-time client makes before every session (lib/vendors/stt/speechmatics.ts).
  speechmatics: (c, key) => ({
    url: join(c.SPEECHMATICS_AUTH_URL ?? 'https://mp.speechmatics.com/v1', '/api_keys?type=rt'),
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ttl: 60 }),
  }),
  elevenlabs: (c, key) => ({
    url: join(c.ELEVENLABS_BASE_URL ?? 'https://api.elevenlabs.io', '/v1/models'),
    method: 'GET',
    headers: { 'xi-api-key': key },
  }),
  cartesia: (c, key) => ({
    url: join(c.CARTESIA_BASE_URL ?? 'https://api.cartesia.ai', '/voices?limit=1'),
    method: 'GET',
    headers: { 'x-api-key': key, 'cartesia-version': '2025-04-16' },
  }),
};

/**
 * The vendor's verdict on `key`: `valid` (2xx), `invalid` (401 or 403, and Google's 400 for a bad key), or
 * `unreachable` (anything else: a timeout, a network error, a 5xx or a 429). Never throws; the key is never
 * part of the message.
 */
export async function checkVendorKey(config: KeyCheckConfig, vendor: ProviderKeyVendor, key: string): Promise<KeyCheckOutcome> {
  const request = REQUESTS[vendor](config, key);
  let status: number;
  try {
    const res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body ? { body: request.body } : {}),
      signal: AbortSignal.timeout(KEY_CHECK_TIMEOUT_MS),
    });
    status = res.status;
    await res.body?.cancel();
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    return { result: 'unreachable', message: timedOut ? `${vendor} did not answer within ${KEY_CHECK_TIMEOUT_MS / 1000} s.` : `${vendor} could not be reached.` };
  }
  if (status >= 200 && status < 300) return { result: 'valid', vendorStatus: status, message: `${vendor} accepted the key.` };
  if (status === 401 || status === 403 || (vendor === 'google' && status === 400)) {
    return { result: 'invalid', vendorStatus: status, message: `${vendor} refused the key (HTTP ${status}).` };
  }
  return { result: 'unreachable', vendorStatus: status, message: `${vendor} answered HTTP ${status}; the key could not be tested. Try again later.` };
}
