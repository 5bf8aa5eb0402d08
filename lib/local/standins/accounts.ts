import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { catalogueList, listNeedsNoKey } from './catalog-lists.js';

/**
 * The stand-ins' account books. A real vendor accepts the key of every account it issued, not one key: the
 * platform's own key is one account, and a workspace that brings its own key (docs/provider-keys.md) holds
 * another. Each stand-in opens an account for the key it hands the platform (or the key a test requires);
 * {@link issueStandinKey} opens one more, as signing up at the vendor would. Every key presented is noted
 * per vendor, so a test can tell whose key a call used.
 *
 * A vendor's cheap authenticated request (what `POST /api/provider-keys/{provider}/test` sends) is answered
 * from these books alone, so an unknown key is refused there even by a stand-in that lets any key stream.
 */

export type StandinVendor = 'openai' | 'anthropic' | 'google' | 'deepgram' | 'assemblyai' | 'speechmatics' | 'elevenlabs' | 'cartesia';

const accounts = new Map<StandinVendor, Set<string>>();
const presented = new Map<StandinVendor, string[]>();
/** Notes kept per vendor: enough for a test, bounded for a long `npm start`. */
const MAX_NOTED = 500;

const book = (vendor: StandinVendor): Set<string> => {
  let set = accounts.get(vendor);
  if (!set) accounts.set(vendor, (set = new Set()));
  return set;
};

/** Opens an account for `key` at the vendor (idempotent). */
export function openStandinAccount(vendor: StandinVendor, key: string): void {
  book(vendor).add(key);
}

/** Opens a fresh account at the vendor and returns its key, shaped like the vendor's keys are. */
export function issueStandinKey(vendor: StandinVendor): string {
  const key = `${vendor === 'openai' ? 'sk-proj-' : vendor === 'anthropic' ? 'sk-ant-api03-' : ''}${randomBytes(20).toString('hex')}`;
  openStandinAccount(vendor, key);
  return key;
}

/** Whether the key belongs to an account at the vendor; notes that it was presented. */
export function standinAccountHolds(vendor: StandinVendor, key: string | undefined): boolean {
  if (!key) return false;
  const notes = presented.get(vendor) ?? [];
  notes.push(key);
  if (notes.length > MAX_NOTED) notes.shift();
  presented.set(vendor, notes);
  return book(vendor).has(key);
}

/** The keys presented to the vendor's stand-ins, oldest first (and forgets them, so each test reads its own). */
export function takePresentedKeys(vendor: StandinVendor): string[] {
  const notes = presented.get(vendor) ?? [];
  presented.delete(vendor);
  return notes;
}

/** A stand-in's answer to a vendor's key-check request. */
export interface KeyCheckAnswer {
  readonly status: number;
  readonly body: unknown;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const bearer = (req: IncomingMessage) => /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '')?.[1];

/**
 * Each vendor's cheap authenticated request, as lib/vendors/key-check.ts sends it, and the vendor's answers:
 * a small success body, or its refusal of a bad key.
 */
const KEY_CHECKS: Record<Exclude<StandinVendor, 'speechmatics'>, { method: string; path: RegExp; key(req: IncomingMessage, url: URL): string | undefined; ok: unknown; refused: KeyCheckAnswer }> = {
  openai: {
    method: 'GET', path: /^\/v1\/models$/, key: bearer,
    ok: { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'system' }] },
    refused: { status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } },
  },
  anthropic: {
    method: 'GET', path: /^\/v1\/models$/, key: (req) => header(req, 'x-api-key') ?? bearer(req),
    ok: { data: [{ type: 'model', id: 'claude-3-5-haiku-20241022', display_name: 'Claude Haiku 3.5', created_at: '2024-10-22T00:00:00Z' }], has_more: false, first_id: null, last_id: null },
    refused: { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } },
  },
  google: {
    method: 'GET', path: /^\/v1beta\/models$/, key: (req, url) => header(req, 'x-goog-api-key') ?? url.searchParams.get('key') ?? undefined,
    ok: { models: [{ name: 'models/gemini-2.0-flash', displayName: 'Gemini 2.0 Flash' }] },
    refused: { status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } } },
  },
  deepgram: {
    method: 'GET', path: /^\/v1\/projects$/, key: (req) => /^(?:Token|Bearer)\s+(\S+)$/i.exec(header(req, 'authorization') ?? '')?.[1],
    ok: { projects: [{ project_id: '3f5e8c1a-0000-4000-8000-000000000001', name: 'Standin project' }] },
    refused: { status: 401, body: { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.' } },
  },
  assemblyai: {
    method: 'GET', path: /^\/v3\/token$/, key: (req) => header(req, 'authorization'),
    ok: { token: randomBytes(16).toString('hex'), expires_in_seconds: 60 },
    refused: { status: 401, body: { error: 'Invalid API key' } },
  },
  elevenlabs: {
    method: 'GET', path: /^\/v1\/models$/, key: (req) => header(req, 'xi-api-key'),
    ok: [{ model_id: 'eleven_flash_v2_5', name: 'Eleven Flash v2.5' }],
    refused: { status: 401, body: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } } },
  },
  cartesia: {
    method: 'GET', path: /^\/voices\/?$/, key: (req) => header(req, 'x-api-key') ?? bearer(req),
    ok: { data: [{ id: 'a0e99841-438c-4a64-b679-ae501e7d6091', name: 'Barbershop Man' }], has_more: false },
    refused: { status: 401, body: { error: 'Invalid API key' } },
  },
};

/**
 * The answer to the vendor's key-check request when `req` is one; undefined for any other request (the
 * stand-in handles it as before). The answer depends only on the account books. (Speechmatics' check is its
 * temporary-key request, which its stand-in serves itself, from the same books.)
 */
export function answerKeyCheck(vendor: Exclude<StandinVendor, 'speechmatics'>, req: IncomingMessage): KeyCheckAnswer | undefined {
  const check = KEY_CHECKS[vendor];
  const url = new URL(req.url ?? '/', 'http://standin');
  // The vendor's list endpoints (models, voices: catalog-lists.ts), behind the same key as its key check.
  const list = req.method === 'GET' ? catalogueList(vendor, url) : undefined;
  if (list !== undefined) {
    return listNeedsNoKey(vendor, url) || standinAccountHolds(vendor, check.key(req, url)) ? { status: 200, body: list } : check.refused;
  }
  if (req.method !== check.method || !check.path.test(url.pathname)) return undefined;
  return standinAccountHolds(vendor, check.key(req, url)) ? { status: check.method === 'POST' ? 201 : 200, body: check.ok } : check.refused;
}

/**
 * Answers the vendor's key-check request on an HTTP stand-in; false when `req` is not one. Before the
 * stand-in's own routing, so its request log and scripts see only the traffic of calls.
 */
export function serveKeyCheck(vendor: Exclude<StandinVendor, 'speechmatics'>, req: IncomingMessage, res: ServerResponse): boolean {
  const check = answerKeyCheck(vendor, req);
  if (!check) return false;
  res.writeHead(check.status, { 'content-type': 'application/json' }).end(JSON.stringify(check.body));
  return true;
}
