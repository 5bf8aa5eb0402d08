/**
 * Invariant: nothing a client can send makes the API answer 5xx, and every error it answers carries the
 * documented body `{"error": {"code": "snake_case", "message": "...", "details": [...] | {...}}}`.
 *
 * At least 10,000 requests per run, generated with fast-check, go through the local server to every route
 * of lib/infra/routes.ts that takes input: nearly valid bodies with one to three fields broken (wrong types,
 * huge or odd strings, lone surrogates, control characters, nested junk, Object.prototype names as keys),
 * wholly random JSON, malformed JSON, bodies over the limit, wrong content types, bad and odd query
 * parameters, bad path ids (other workspaces' ids included), wrong methods, broken multipart uploads and CSV
 * files of junk, and Twilio webhooks of junk fields, signed with the platform account's token, unsigned or
 * wrongly signed. Ids in paths and bodies are mostly of records that exist (created before and during the
 * run, history records and meeting links included), so requests that pass validation reach the services
 * behind each route. 429 (rate limiting) is an ordinary 4xx here. The seed is printed with any failure.
 */
import { PROVIDER_KEY_VENDORS } from '../../lib/domain/provider-key.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { newId } from '../../lib/domain/ids.js';
import { MEETING_ASSET_FILES } from '../../lib/web/meeting/assets.js';
import { publicUrl } from '../../lib/config.js';
import { putNewHistoryRecord } from '../../lib/store/history.js';
import { createSessionKey } from '../../lib/store/users.js';
import { createApiKey } from '../../lib/store/workspaces.js';
import { parseForm, twilioSignature } from '../../lib/vendors/telephony/twilio-webhook.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PROGRESS_BOUNDED_TEST_MS, watchProgress } from '../support/progress.js';
import { BASES, CREATES, type Resource, agentBody, contactBody, toolBody, webhookBody } from './fuzz-bodies.js';
import { INPUT_ROUTES, type Spec, requestArb } from './fuzz-requests.js';

/** The run's size: the issue asks for at least 10,000 requests. */
const REQUESTS = 10_000;
/** Requests in flight: four keep both cores as busy as sixteen (26.6 s and 27.7 s for a run, 3 December) and queue
 * less ahead of the other files in the DynamoDB Local they share. */
const CONCURRENCY = 4;
/** A new seed each run, so runs add up; a failure prints it, and FUZZ_SEED=<seed> replays that run. */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() ^ (Math.random() * 0x7fffffff);

let t: TestPlatform;
/** The workspace the fuzzer acts as, with a key the test created in the store (so limits are its own). */
let own: { workspaceId: string; apiKey: string };
let other: { workspaceId: string; apiKey: string };

/** Ids that exist, per resource (own workspace), growing as creates succeed; and some of another workspace. */
const pools: Record<Resource, string[]> = {
  agent: [],
  tool: [],
  contact: [],
  phoneNumber: [],
  history: [],
  call: [],
  asset: [...Object.keys(MEETING_ASSET_FILES), 'swagger-ui.css'],
  webhook: [],
  // Provider-key routes name a vendor, not a record: every vendor, and names that are none.
  provider: [...PROVIDER_KEY_VENDORS, 'OpenAI', 'twilio', 'constructor'],
  apiKey: [],
  campaign: [],
  // Do-not-call entries are named by their number (+ written as %2B in a path).
  dnc: [],
};
const foreign: string[] = [];
/** A dashboard owner's session key for the fuzzed workspace (the user-only routes refuse API keys). */
let sessionKey: string;
/** Real meeting-link tokens (each opens its link once). */
const tokens: string[] = [];
/** The platform's own telephony account on the stand-in: webhooks signed with its token pass the check. */
let platformAccount: { accountSid: string; authToken: string };

beforeAll(async () => {
  // Ten thousand requests from one key in well under a minute is a flood the per-key limit is there to stop;
  // this suite is about what each request gets past the limiter (test/connected/rate-limits.test.ts tests it).
  process.env.RATE_LIMIT_KEY ??= '1000000/60s';
  process.env.RATE_LIMIT_WEBHOOK ??= '1000000/60s';
  t = await startTestPlatform();
  // No credits: a call or meeting link that passes validation stops at the credit check (402) instead of
  // dialling the stand-in; everything before that check is still exercised.
  own = await t.workspace(0);
  platformAccount = (await t.deps.telephony.platformAccount())!;
  other = await t.workspace(100);
  for (let i = 0; i < 3; i += 1) {
    pools.agent.push((await t.api(own.apiKey, 'POST', '/api/agents', agentBody(own.workspaceId))).body._id);
    pools.tool.push((await t.api(own.apiKey, 'POST', '/api/tools', toolBody(own.workspaceId))).body._id);
    pools.contact.push((await t.api(own.apiKey, 'POST', '/api/contacts', contactBody(own.workspaceId, 900 + i))).body._id);
    pools.webhook.push((await t.api(own.apiKey, 'POST', '/api/webhooks', webhookBody(own.workspaceId))).body._id);
  }
  // Session keys live 15 minutes: longer than this suite runs.
  sessionKey = (await createSessionKey(t.deps.db, { userId: 'fuzz-user', workspaceId: own.workspaceId, role: 'owner' })).apiKey;
  for (let i = 0; i < 3; i += 1) pools.apiKey.push((await createApiKey(t.deps.db, own.workspaceId, `Fuzz key ${i}`)).keyId);
  // A number to call from (buying costs no credits), then campaigns and do-not-call entries to aim at.
  const available = await t.api(own.apiKey, 'GET', '/api/phone-numbers/available?country=US&areaCode=628');
  pools.phoneNumber.push((await t.api(own.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: available.body.data.at(-1).number })).body._id);
  for (let i = 0; i < 2; i += 1) {
    const campaign = await t.api(own.apiKey, 'POST', '/api/campaigns', JSON.parse(fill(JSON.stringify(BASES.createCampaign!(i)))));
    pools.campaign.push(campaign.body._id);
    const number = `+1415555${String(7_000 + i)}`;
    await t.api(own.apiKey, 'POST', '/api/do-not-call', { phoneNumber: number });
    pools.dnc.push(encodeURIComponent(number));
  }
  foreign.push((await t.api(other.apiKey, 'POST', '/api/agents', agentBody(other.workspaceId))).body._id);
  foreign.push((await t.api(other.apiKey, 'POST', '/api/contacts', contactBody(other.workspaceId, 1))).body._id);
  // History exists only once a call ended: written straight to the store, as the call service would.
  for (let i = 0; i < 3; i += 1) {
    const _id = newId('call');
    await putNewHistoryRecord(t.deps.db, {
      _id, agentType: 'voice', fullName: 'Ann', mobileNumber: '+14155552671', callDuration: 12, callEndReason: 'customer_hangup',
      callTranscript: 'agent: hi', callSummary: '', callCost: 1, callRecordingUrl: '', workspace_id: own.workspaceId, createdAt: new Date().toISOString(),
    });
    pools.history.push(_id);
  }
  // Meeting links need credits, which the fuzzed workspace lacks; the other workspace makes a few, so that
  // generated tokens are tried against links that exist.
  for (let i = 0; i < 2; i += 1) {
    const link = await t.api(other.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: foreign[0], workspaceId: other.workspaceId });
    if (link.status === 201) {
      pools.call.push(link.body.call_id);
      tokens.push(new URL(link.body.room_url).searchParams.get('token')!);
    }
  }
  expect([...pools.agent, ...pools.tool, ...pools.contact, ...foreign].every((id) => typeof id === 'string')).toBe(true);
  for (const [what, list] of Object.entries(pools)) if (what !== 'asset' && what !== 'provider') for (const id of list) seeded.add(id);
});
afterAll(() => t?.stop());

// ---------------------------------------------------------------------------------------------------------
// Sending and judging.

const pick = (list: readonly string[], fallback: string) => (list.length > 0 ? list[Math.floor(Math.random() * list.length)]! : fallback);

/**
 * The records made before the run are never aimed at by a DELETE: deletes take only records the run
 * created, so every pool keeps records that exist (a run that deleted its few agents early saw every later
 * agent request answered 404).
 */
const seeded = new Set<string>();

/** Fills the placeholders with what exists now (for a DELETE, only what the run created). */
function fill(text: string, deleting = false): string {
  // Placeholders may have been percent-encoded with the query or form they sit in (@ is %40).
  return text.replace(/(?:@@|%40%40)(\w+)(?:@@|%40%40)/g, (_m, what: string) => {
    if (what === 'ws') return own.workspaceId;
    if (what === 'key') return own.apiKey;
    if (what === 'session') return sessionKey;
    if (what === 'otherkey') return other.apiKey;
    if (what === 'foreign') return pick(foreign, 'none');
    if (what === 'token') return pick(tokens, 'none');
    if (what === 'accountsid') return platformAccount.accountSid;
    if (what in pools) return pick(deleting ? pools[what as Resource].filter((id) => !seeded.has(id)) : pools[what as Resource], `${what}_none`);
    return _m;
  });
}

const ERROR_BODY = z.object({
  error: z.object({
    code: z.string().regex(/^[a-z][a-z0-9_]*$/),
    message: z.string().min(1),
    details: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]),
  }),
});

interface Outcome {
  readonly spec: Spec;
  readonly status: number;
  readonly problem?: string;
}

async function send(spec: Spec): Promise<Outcome> {
  const headers = Object.fromEntries(Object.entries(spec.headers).map(([k, v]) => [k, fill(v)]));
  // fetch refuses a body on GET; a route's method swapped for GET goes without one.
  // Binary bodies are filled through latin1, which maps bytes to characters one to one.
  const body = spec.method === 'GET' || spec.body === undefined ? undefined
    : typeof spec.body === 'string' ? fill(spec.body) : Buffer.from(fill(Buffer.from(spec.body).toString('latin1')), 'latin1');
  const url = `${t.baseUrl}${fill(spec.path, spec.method === 'DELETE')}${fill(spec.query)}`;
  if (headers['x-twilio-signature'] === '@@sign@@') {
    // Over the URL as the server will see it (the URL parser may re-encode the query) and the form sent.
    const sent = new URL(url);
    const signedUrl = publicUrl(t.deps.config, sent.pathname) + sent.search;
    headers['x-twilio-signature'] = twilioSignature(platformAccount.authToken, signedUrl, parseForm(typeof body === 'string' ? body : ''));
  }
  const res = await fetch(url, { method: spec.method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (res.status >= 500) return { spec, status: res.status, problem: `5xx: ${text.slice(0, 300)}` };
  if (res.status === 201 && spec.route !== 'unknown' && CREATES[spec.route]) {
    const id = (JSON.parse(text) as { _id?: string })._id;
    if (id) pools[CREATES[spec.route]!].push(id);
  }
  if (res.status >= 200 && res.status < 300 && spec.method === 'DELETE') {
    // A deleted record leaves its pool: picked again, every later request on it could only be a 404, and
    // a run that deleted the few agents early could see no agent update succeed (once in 13 runs, 28 November).
    const gone = decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');
    for (const [what, list] of Object.entries(pools)) if (what !== 'provider' && list.includes(gone)) list.splice(list.indexOf(gone), 1);
  }
  if (res.status >= 400) {
    // The meeting pages answer a browser: a used or unknown link is an HTML page, by design. A dot segment
    // in a generated id ('.', '..') is resolved by the URL parser before the request leaves: the request
    // is then another route's, a meeting page's when the path left is one (`/meeting/assets/.` is
    // `/meeting/assets/`, the page of a link named "assets": once in a run, 28 November).
    const meetingPage = /^\/meeting\/[^/]+\/?$/.test(new URL(url).pathname);
    if ((spec.route === 'openMeeting' || spec.route === 'joinMeeting' || meetingPage) && type.startsWith('text/html')) return { spec, status: res.status };
    if (!type.startsWith('application/json')) return { spec, status: res.status, problem: `error with content-type "${type}": ${text.slice(0, 200)}` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { spec, status: res.status, problem: `error body is not JSON: ${text.slice(0, 200)}` };
    }
    const shape = ERROR_BODY.safeParse(parsed);
    if (!shape.success) return { spec, status: res.status, problem: `error body shape: ${text.slice(0, 300)}` };
  }
  return { spec, status: res.status };
}

const describeSpec = (o: Outcome) => {
  const body = o.spec.body === undefined ? '' : typeof o.spec.body === 'string' ? o.spec.body : Buffer.from(o.spec.body).toString('latin1');
  return `${o.spec.method} ${o.spec.path.slice(0, 200)}${o.spec.query.slice(0, 200)} [${o.spec.route}] -> ${o.status}: ${o.problem}\n  headers ${JSON.stringify(o.spec.headers)}\n  body ${JSON.stringify(body.slice(0, 600))}`;
};

describe('fuzzing every route that takes input', () => {
  it(`${REQUESTS} generated requests: no 5xx, every error in the documented shape`, async () => {
    const specs = fc.sample(requestArb, { numRuns: REQUESTS, seed: SEED });
    const outcomes: Outcome[] = [];
    let next = 0;
    const inFlight = new Set<Spec>();
    // However long the machine takes for 10,000 requests, the run fails only if none is answered for a minute.
    await watchProgress(
      Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < specs.length) {
            const spec = specs[next++]!;
            inFlight.add(spec);
            try {
              // Once more on a network error: a kept-alive socket the server closed just as the client reused
              // it fails the request without the server ever seeing it. Twice is the server's doing.
              outcomes.push(await send(spec).catch(() => send(spec)));
            } catch (error) {
              const cause = (error as Error & { cause?: Error }).cause;
              outcomes.push({ spec, status: 0, problem: `request failed twice: ${(error as Error).message} ${cause?.message ?? ''}` });
            } finally {
              inFlight.delete(spec);
            }
          }
        }),
      ),
      {
        what: `seed ${SEED}: the fuzz run`,
        progress: () => outcomes.length,
        describe: () => `waiting on ${[...inFlight].map((r) => `${r.method} ${r.path.slice(0, 80)} [${r.route}]`).join(', ')}`,
      },
    );

    expect(outcomes).toHaveLength(REQUESTS);

    const failures = outcomes.filter((o) => o.problem);
    // One example per route and kind of failure, so a report stays readable.
    const examples = new Map<string, Outcome>();
    for (const f of failures) examples.set(`${f.spec.route} ${f.status} ${f.problem!.slice(0, 40)}`, f);
    expect(failures.length, `seed ${SEED}: ${failures.length} bad answers\n${[...examples.values()].slice(0, 15).map(describeSpec).join('\n')}`).toBe(0);

    // The run reached every input route, and got past validation often enough to exercise the services.
    const byRoute = new Map<string, number[]>();
    for (const o of outcomes) byRoute.set(o.spec.route, [...(byRoute.get(o.spec.route) ?? []), o.status]);
    for (const [name] of INPUT_ROUTES) expect(byRoute.get(name)?.length ?? 0, name).toBeGreaterThan(20);
    const succeeding = ['createAgent', 'updateAgent', 'createTool', 'updateTool', 'createContact', 'updateContact', 'uploadContacts', 'buyPhoneNumber', 'listContacts', 'listHistory', 'searchPhoneNumbers', 'twilioVoice', 'twilioStatus'] as const;
    for (const name of succeeding) {
      const statuses = byRoute.get(name) ?? [];
      const histogram = statuses.reduce<Record<number, number>>((h, s) => ({ ...h, [s]: (h[s] ?? 0) + 1 }), {});
      expect(statuses.some((s) => s >= 200 && s < 300), `seed ${SEED}: ${name} never succeeded: ${JSON.stringify(histogram)}`).toBe(true);
    }
  }, PROGRESS_BOUNDED_TEST_MS);
});
