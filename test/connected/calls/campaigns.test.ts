/**
 * Invariant: a campaign calls each of its contacts through the Twilio stand-in (the API's call path, with
 * its credits) only inside the contact's calling hours, never more than its concurrency at once and never
 * two calls to one number at once; every call's outcome (answered, voicemail, busy, no answer, failed) is
 * counted, retried by its rule and listed with its call ids; pausing stops new dials and resuming goes on;
 * do-not-call numbers (API, CSV, and a callee's `opt_out`) are never dialed; running out of credits pauses
 * the campaign (`insufficient_credits`) and loses nobody; two schedulers over one table, and a scheduler
 * that died between a claim and its call, dial nobody twice and lose nobody; refused requests change
 * nothing; one workspace never sees or touches another's campaigns. The scheduler runs on a fake clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalleeBehaviour } from '../../../lib/local/standins/twilio/callee.js';
import { ABANDONED_CLAIM_MS, runCampaignTick } from '../../../lib/services/campaign-scheduler.js';
import { claimDial, dueTargets, tombstoneCall } from '../../../lib/store/campaigns.js';
import { findDncEntry } from '../../../lib/store/dnc.js';
import { addCredits } from '../../../lib/store/workspaces.js';
import { csv } from '../../support/contact-files.js';
import { cycleTranscripts, DEFAULT_TRANSCRIPTS } from '../../../lib/local/standins/stt.js';
import { eventually, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';
import { PROGRESS_BOUNDED_TEST_MS, untilDone, WAIT_MS } from '../../support/progress.js';

let p: CallsPlatform;
/**
 * The file's dates are written for late 2026 and moved on by whole 52-week years until they lie ahead of the
 * real clock: the API stamps a campaign's start with the real time, and a fake clock behind it would find no
 * contact due. 364 days keep each weekday, and late November to December stays EST in New York.
 */
const DAY_MS = 86_400_000;
const SHIFT_MS = 364 * DAY_MS * Math.max(0, Math.ceil((Date.now() + 7 * DAY_MS - Date.parse('2026-11-30T15:00:00Z')) / (364 * DAY_MS)));
/** A date of the file's calendar, moved on with the rest. */
const at = (iso: string) => Date.parse(iso) + SHIFT_MS;

/** The fake clock every tick reads: Monday 30 November 2026, 15:00 UTC (10:00 in New York), moved on. */
let clock = at('2026-11-30T15:00:00Z');
const tick = () => runCampaignTick(p.deps, { now: () => clock, dialsPerSecond: 1_000 });

beforeAll(async () => {
  // With the default limits: the 200-contact campaign's ~1,300 signed Twilio callbacks come from 127.0.0.1
  // in well under a minute, past the per-address webhook window (1,200 a minute), which counts only refused
  // webhooks. Until 28 November it counted them all and this file raised it: a refused callback is lost,
  // and its call held its slot until the lost-callback reconciliation.
  p = await startCallsPlatform({ campaignScheduler: false });
  // A callee who asks not to be called again gets the opt_out tool called; everyone else a short answer.
  p.platform.voice.llm.control.set({
    ttftMs: 10,
    tokensPerSecond: 0,
    reply: (req) => {
      if (/summar/i.test(req.messages.system)) return { text: 'Summary: a reminder call.' };
      if (req.messages.endsWithToolResult) return { text: 'Understood, you will not be called again. Goodbye.', toolCalls: [{ name: 'end_call', arguments: {} }] };
      const last = req.messages.turns.at(-1);
      if (last?.role === 'user' && /stop calling/i.test(last.text) && req.tools.includes('opt_out')) {
        return { toolCalls: [{ name: 'opt_out', arguments: {} }] };
      }
      return { text: 'Thanks, see you then.' };
    },
  });
});
afterAll(async () => {
  await p?.stop();
});

/** A workspace with an agent (voicemail detection on, one `{{appointment}}` variable) and a number. */
async function setup(credits = 2_000) {
  const s = await p.callerSetup(credits);
  const patched = await p.api(s.apiKey, 'PATCH', `/api/agents/${s.agentId}`, {
    system_prompt: 'You remind {{contactName}} of the appointment on {{appointment}}.',
    voicemail_detection: 'detect',
    voicemail_action: 'hang_up',
  });
  expect(patched.status).toBe(200);
  return s;
}

async function upload(apiKey: string, path: string, file: Buffer, workspaceId?: string) {
  const form = new FormData();
  if (workspaceId) form.append('workspaceId', workspaceId);
  form.append('file', new Blob([new Uint8Array(file)]), 'list.csv');
  const res = await fetch(`${p.baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

/** Numbers of one test: +1 415 555 0000 + base + i, unique per test so callee rules never collide. */
const number = (base: number, i: number) => `+1415${String(5_550_000 + base + i).padStart(7, '0')}`;

const campaignBody = (s: { agentId: string; numberId: string }, contacts: object, extra: object = {}) => ({
  name: 'Reminders',
  agentId: s.agentId,
  phoneNumberIds: [s.numberId],
  contacts,
  callingWindow: { start: '09:00', end: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], timeZone: 'America/New_York' },
  retry: { no_answer: { retries: 1, delayMinutes: 5 }, busy: { retries: 1, delayMinutes: 5 }, voicemail: { retries: 0, delayMinutes: 60 }, failed: { retries: 0, delayMinutes: 60 } },
  ...extra,
});

/** Every call the stand-in was asked to place, by destination. */
function placedTo(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of p.platform.twilio!.requests) {
    const to = String(r.form.To);
    if (r.method === 'POST' && r.path.endsWith('/Calls.json') && r.status === 201) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}

/**
 * Ticks (two schedulers at once when `twice`) until the campaign is completed, moving the clock past retry
 * delays. A tick every 250 ms (production's is 1 s): each tick and the progress read after it are a dozen
 * table requests, and at 100 ms the polling was a third of the 200-contact test's 11,600 (about 8 s of CPU)
 * while the calls themselves, not the ticks, set its pace. It fails only when the campaign's progress has not
 * moved for a minute: 200 contacts took 35 s here and over 240 s on a slower machine, which is no failure.
 */
async function runToCompletion(apiKey: string, id: string, options: { twice?: boolean; maxInFlight?: { value: number } } = {}) {
  return untilDone(async () => {
    await (options.twice ? Promise.all([tick(), tick()]) : tick());
    const c = (await p.api(apiKey, 'GET', `/api/campaigns/${id}`)).body;
    if (options.maxInFlight) options.maxInFlight.value = Math.max(options.maxInFlight.value, c.progress.contacts.inFlight);
    if (c.status === 'completed') return { done: c, progress: c.progress };
    // Nothing in flight and nothing due now: the next retry is minutes away on the fake clock.
    if (c.progress.contacts.inFlight === 0 && c.progress.nextAttempts.length > 0) clock = Math.max(clock, Date.parse(c.progress.nextAttempts[0].at));
    return { progress: { status: c.status, progress: c.progress } };
  }, { what: `campaign ${id} to complete`, intervalMs: 250 });
}

describe('a campaign of a few hundred contacts', () => {
  it('calls everyone once per attempt within the limits, retries by outcome, and reports per contact', async () => {
    const s = await setup();
    const N = 200;
    const rows = ['contactName,phoneNumber,appointment'];
    const behaviour = (i: number): CalleeBehaviour =>
      i % 20 === 0 ? { kind: 'answer', lines: ['Yes, thanks.'] }
        : i % 20 === 1 ? { kind: 'machine', greeting: 'Leave a message.' }
          : i % 4 === 2 ? { kind: 'busy' }
            : i % 4 === 3 ? { kind: 'no-answer' }
              : i % 10 === 4 ? { kind: 'failed' } : { kind: 'busy' };
    for (let i = 0; i < N; i++) {
      // Three contacts lack the appointment the agent's prompt names: reported and skipped, never called.
      rows.push(`Person ${i},${number(0, i)},${i >= N - 3 ? '' : 'Tuesday 10:00'}`);
      p.platform.callSimulator!.setRule(number(0, i), behaviour(i));
    }
    const imported = await upload(s.apiKey, '/api/contacts/upload', csv(rows), s.workspaceId);
    expect(imported.body).toMatchObject({ imported: N, importId: expect.stringMatching(/^imp_/) });

    const created = await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { importId: imported.body.importId }, { concurrency: 20 }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'draft', progress: { contacts: { total: N, skipped: 3, pending: N - 3 } } });
    const id = created.body._id;
    const skipped = await p.api(s.apiKey, 'GET', `/api/campaigns/${id}/results?state=skipped`);
    expect(skipped.body.data.map((r: any) => [r.skipReason, r.missingVariables])).toEqual(Array(3).fill(['missing_variables', ['appointment']]));

    // A draft is never dialed.
    await tick();
    expect(placedTo().get(number(0, 0))).toBeUndefined();
    expect((await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/start`)).body.status).toBe('scheduled');

    const maxInFlight = { value: 0 };
    const done = await runToCompletion(s.apiKey, id, { twice: true, maxInFlight });
    expect(maxInFlight.value).toBeLessThanOrEqual(20);

    const expected = { answered: 0, voicemail: 0, busy: 0, no_answer: 0, failed: 0 };
    const attempts = { ...expected };
    for (let i = 0; i < N - 3; i++) {
      const b = behaviour(i).kind;
      const outcome = b === 'answer' ? 'answered' : b === 'machine' ? 'voicemail' : b === 'no-answer' ? 'no_answer' : (b as 'busy' | 'failed');
      expected[outcome] += 1;
      attempts[outcome] += outcome === 'busy' || outcome === 'no_answer' ? 2 : 1;
    }
    expect(done.progress.outcomes).toEqual(expected);
    expect(done.progress.attempts).toEqual(attempts);
    expect(done.progress.contacts).toEqual({ total: N, pending: 0, inFlight: 0, finished: N - 3, skipped: 3 });

    // Each number was dialed exactly as many times as its contact's attempts, with one call id per attempt.
    const placed = placedTo();
    const results: any[] = [];
    for (let page = 1; results.length < N; page++) results.push(...(await p.api(s.apiKey, 'GET', `/api/campaigns/${id}/results?limit=100&page=${page}`)).body.data);
    for (const r of results) {
      expect(placed.get(r.phoneNumber) ?? 0, r.phoneNumber).toBe(r.attempts);
      expect(new Set(r.callIds).size).toBe(r.attempts);
    }
    // The calls are ordinary calls: history records with the contact's name.
    const one = results.find((r) => r.lastOutcome === 'answered');
    const record = await eventually(async () => {
      const res = await p.api(s.apiKey, 'GET', `/api/history/${one.callIds[0]}`);
      return res.status === 200 ? res.body : undefined;
    });
    expect(record).toMatchObject({ fullName: one.contactName, mobileNumber: one.phoneNumber });
  }, PROGRESS_BOUNDED_TEST_MS);
});

describe('calling windows', () => {
  it("dials nobody outside the contact's hours and starts at the window's opening", async () => {
    const s = await setup();
    p.platform.callSimulator!.setRule(number(300, 0), { kind: 'busy' });
    const contact = await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'Ada', phoneNumber: number(300, 0), externalFields: { appointment: 'Monday' } });
    const created = await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { contactIds: [contact.body._id] }, { retry: { busy: { retries: 0, delayMinutes: 5 } } }));
    await p.api(s.apiKey, 'POST', `/api/campaigns/${created.body._id}/start`);
    // Saturday 5 December 2026, 16:00 UTC: a weekend in New York.
    clock = at('2026-12-05T16:00:00Z');
    await tick();
    await tick();
    const waiting = (await p.api(s.apiKey, 'GET', `/api/campaigns/${created.body._id}`)).body;
    expect(placedTo().get(number(300, 0))).toBeUndefined();
    // Deferred to Monday 09:00 in New York (EST, UTC-5).
    expect(waiting.progress.nextAttempts).toEqual([{ contactId: contact.body._id, at: new Date(at('2026-12-07T14:00:00Z')).toISOString() }]);
    clock = at('2026-12-07T13:59:00Z');
    await tick();
    expect(placedTo().get(number(300, 0))).toBeUndefined();
    clock = at('2026-12-07T14:00:00Z');
    await runToCompletion(s.apiKey, created.body._id);
    expect(placedTo().get(number(300, 0))).toBe(1);
  }, PROGRESS_BOUNDED_TEST_MS);
});

describe('pause, resume, credits', () => {
  it('pauses itself when credits run out, loses nobody, and goes on after a top-up and resume', async () => {
    // One call's reservation (10 credits) and a half: the second dial cannot reserve.
    const s = await setup(15);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      p.platform.callSimulator!.setRule(number(400, i), { kind: 'busy' });
      ids.push((await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: `C${i}`, phoneNumber: number(400, i), externalFields: { appointment: 'Monday' } })).body._id);
    }
    const created = await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { contactIds: ids }, { concurrency: 3, retry: { busy: { retries: 0, delayMinutes: 5 } } }));
    const id = created.body._id;
    await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/start`);
    clock = at('2026-12-08T15:00:00Z');
    await tick();
    await tick();
    const paused = (await p.api(s.apiKey, 'GET', `/api/campaigns/${id}`)).body;
    expect(paused).toMatchObject({ status: 'paused', statusReason: 'insufficient_credits' });
    // Only the one dial that reserved went out; the others are pending with no attempt counted.
    const pending = (await p.api(s.apiKey, 'GET', `/api/campaigns/${id}/results?state=pending`)).body;
    expect(pending.total).toBe(2);
    expect(pending.data.every((r: any) => r.attempts === 0 && r.callIds.length === 0)).toBe(true);

    // Paused: ticks dial nobody new. The pending contacts' own numbers are watched (the one dial that went out
    // may still be on its way to Twilio, and other tests' campaigns share the number range).
    const pendingNumbers = pending.data.map((r: any) => {
      expect(ids).toContain(r.contactId);
      return number(400, ids.indexOf(r.contactId));
    });
    expect(pendingNumbers).toHaveLength(2);
    await tick();
    for (const n of pendingNumbers) expect(placedTo().get(n), n).toBeUndefined();
    expect((await p.api(s.apiKey, 'GET', `/api/campaigns/${id}/results?state=pending`)).body.total).toBe(2);

    await addCredits(p.deps.db, s.workspaceId, 100);
    const resumed = await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/resume`);
    expect(resumed.body).toMatchObject({ status: 'scheduled' });
    expect(resumed.body.statusReason).toBeUndefined();
    const done = await runToCompletion(s.apiKey, id);
    expect(done.progress.outcomes.busy).toBe(3);
    for (let i = 0; i < 3; i++) expect(placedTo().get(number(400, i))).toBe(1);
  }, PROGRESS_BOUNDED_TEST_MS);

  it('a paused campaign dials nobody until resumed', async () => {
    const s = await setup();
    p.platform.callSimulator!.setRule(number(450, 0), { kind: 'busy' });
    const c = await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'P', phoneNumber: number(450, 0), externalFields: { appointment: 'Monday' } });
    const id = (await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { contactIds: [c.body._id] }, { retry: { busy: { retries: 0, delayMinutes: 5 } } }))).body._id;
    await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/start`);
    expect((await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/pause`)).body.status).toBe('paused');
    await tick();
    await tick();
    expect(placedTo().get(number(450, 0))).toBeUndefined();
    await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/resume`);
    await runToCompletion(s.apiKey, id);
    expect(placedTo().get(number(450, 0))).toBe(1);
  }, PROGRESS_BOUNDED_TEST_MS);
});

describe('do not call', () => {
  it('skips numbers on the list (API and CSV), and a callee who opts out joins it', async () => {
    const s = await setup();
    const numbers = [0, 1, 2, 3].map((i) => number(500, i));
    p.platform.callSimulator!.setRule(numbers[2]!, { kind: 'answer', lines: ['Please stop calling me.'] });
    // The transcriber stand-in hears what its script says: here, the callee's request.
    p.platform.voice.stt.control.deepgram!.setScript({ transcripts: () => 'Please stop calling me.', finalDelayMs: 50 });
    p.platform.callSimulator!.setRule(numbers[3]!, { kind: 'busy' });
    const added = await p.api(s.apiKey, 'POST', '/api/do-not-call', { phoneNumber: numbers[0], reason: 'asked by email' });
    expect(added).toMatchObject({ status: 201, body: { phoneNumber: numbers[0], source: 'api' } });
    const uploaded = await upload(s.apiKey, '/api/do-not-call/upload', csv(['phoneNumber', numbers[1]!, 'not a number']));
    expect(uploaded.body).toEqual({ added: 1, existing: 0, errors: [{ row: 3, value: 'not a number', message: expect.any(String) }] });
    const ids: string[] = [];
    for (const [i, n] of numbers.entries()) ids.push((await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: `D${i}`, phoneNumber: n, externalFields: { appointment: 'Monday' } })).body._id);
    const id = (await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { contactIds: ids }, { concurrency: 4, retry: { busy: { retries: 0, delayMinutes: 5 } } }))).body._id;
    await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/start`);
    clock = at('2026-12-09T15:00:00Z');
    const done = await runToCompletion(s.apiKey, id);
    expect(done.progress.contacts).toMatchObject({ skipped: 2, finished: 2 });
    const skipped = (await p.api(s.apiKey, 'GET', `/api/campaigns/${id}/results?state=skipped`)).body.data;
    expect(skipped.map((r: any) => r.skipReason)).toEqual(['do_not_call', 'do_not_call']);
    expect(placedTo().get(numbers[0]!)).toBeUndefined();
    expect(placedTo().get(numbers[1]!)).toBeUndefined();

    // The callee who said "stop calling me" is on the list now, with the call it happened in.
    const optedOut = await eventually(async () => findDncEntry(p.deps.db, s.workspaceId, numbers[2]!), WAIT_MS, 'the opt-out');
    expect(optedOut).toMatchObject({ source: 'opt_out', callId: expect.stringMatching(/^call_/) });
    const listed = await p.api(s.apiKey, 'GET', `/api/do-not-call/${encodeURIComponent(numbers[2]!)}`);
    expect(listed.body).toMatchObject({ phoneNumber: numbers[2], source: 'opt_out' });
    // A later campaign skips them.
    const again = (await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { contactIds: [ids[2]] }))).body._id;
    await p.api(s.apiKey, 'POST', `/api/campaigns/${again}/start`);
    const second = await runToCompletion(s.apiKey, again);
    expect(second.progress.contacts.skipped).toBe(1);
    expect(placedTo().get(numbers[2]!)).toBe(1);
    p.platform.voice.stt.control.deepgram!.setScript({ transcripts: cycleTranscripts(DEFAULT_TRANSCRIPTS) });
  }, PROGRESS_BOUNDED_TEST_MS);
});

describe('restart safety', () => {
  /**
   * A one-contact campaign (a busy callee, no retries) started on a Saturday, whose contact a scheduler
   * claims as Monday's calling hours open (`saturday` + 2 days, 14:00 UTC) and then dies before writing
   * the claim's call `deadCall`. The clock is left at that Monday's opening.
   */
  async function abandonedClaim(base: number, name: string, saturday: string, deadCall: string) {
    const s = await setup();
    p.platform.callSimulator!.setRule(number(base, 0), { kind: 'busy' });
    const c = await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: name, phoneNumber: number(base, 0), externalFields: { appointment: 'Monday' } });
    const id = (await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { contactIds: [c.body._id] }, { retry: { busy: { retries: 0, delayMinutes: 5 } } }))).body._id;
    await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/start`);
    // A Saturday tick starts the campaign and defers the contact to Monday 09:00 New York.
    clock = at(`${saturday}T16:00:00Z`);
    await tick();
    clock += 2 * 24 * 3_600_000 - 2 * 3_600_000;
    const [target] = await dueTargets(p.deps.db, id, new Date(clock).toISOString(), 10);
    const claimed = await claimDial(p.deps.db, {
      target: target!, callId: deadCall, now: new Date(clock).toISOString(), lockExpiresAt: Math.floor(clock / 1000) + 900,
      rate: { partition: 'platform', startMs: clock, limit: 1_000 },
    });
    expect(claimed).toBe('claimed');
    return { s, id };
  }

  it('a claim whose scheduler died is given back after the grace and dialed once; its call can never be written late', async () => {
    // A scheduler claims the contact and dies before writing its call.
    const deadCall = 'call_01KQ0000000000000000000000';
    const { s, id } = await abandonedClaim(600, 'R', '2026-12-12', deadCall);
    expect(clock).toBe(at('2026-12-14T14:00:00Z'));
    // The restarted scheduler leaves the claim alone within the grace: nobody is dialed.
    clock += 60_000;
    await Promise.all([tick(), tick()]);
    expect(placedTo().get(number(600, 0))).toBeUndefined();
    // After the grace the claim is given back and the contact dialed, once, by one of two schedulers.
    clock += ABANDONED_CLAIM_MS;
    const done = await runToCompletion(s.apiKey, id, { twice: true });
    expect(done.progress.attempts.busy).toBe(1);
    expect(placedTo().get(number(600, 0))).toBe(1);
    const [result] = (await p.api(s.apiKey, 'GET', `/api/campaigns/${id}/results`)).body.data;
    expect(result.callIds).toHaveLength(1);
    expect(result.callIds).not.toContain(deadCall);
    // The dead scheduler's call, written late, fails: its id is taken by an ended placeholder.
    const { placeOutboundCall } = await import('../../../lib/services/outbound-calls.js');
    await expect(
      placeOutboundCall(p.deps, { workspaceId: s.workspaceId, agent: { _id: s.agentId }, from: { _id: s.numberId, number: s.number }, to: number(600, 0), callId: deadCall, nowMs: clock }),
    ).rejects.toThrow();
    expect(placedTo().get(number(600, 0))).toBe(1);
  }, PROGRESS_BOUNDED_TEST_MS);

  it("a scheduler that finds another's placeholder for an abandoned claim gives the claim back, not a failed attempt", async () => {
    // Two schedulers reconcile at once: one has written the placeholder and not yet given the claim back when
    // the other reads the claim's call. Seen under load: the second counted a failed attempt, the contact was
    // dialed again as a retry, and the results listed the dead scheduler's call id.
    const deadCall = 'call_01KQ0000000000000000000001';
    const { s, id } = await abandonedClaim(650, 'T', '2026-12-19', deadCall);
    clock += ABANDONED_CLAIM_MS + 60_000;
    // The first scheduler's half-done give-back: the placeholder only.
    expect(await tombstoneCall(p.deps.db, s.workspaceId, deadCall, new Date(clock).toISOString())).toBe(true);

    const done = await runToCompletion(s.apiKey, id);
    expect(done.progress.attempts).toEqual({ answered: 0, voicemail: 0, busy: 1, no_answer: 0, failed: 0 });
    expect(placedTo().get(number(650, 0))).toBe(1);
    const [result] = (await p.api(s.apiKey, 'GET', `/api/campaigns/${id}/results`)).body.data;
    expect(result).toMatchObject({ attempts: 1, lastOutcome: 'busy' });
    expect(result.callIds).toHaveLength(1);
    expect(result.callIds).not.toContain(deadCall);
  }, PROGRESS_BOUNDED_TEST_MS);
});

describe('refusals and workspaces', () => {
  it('refuses bad requests and wrong moves with 4xx and changes nothing', async () => {
    const s = await setup();
    const c = await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'Z', phoneNumber: number(700, 0), externalFields: { appointment: 'Monday' } });
    const listBefore = (await p.api(s.apiKey, 'GET', '/api/campaigns')).body.total;
    const bad = [
      campaignBody(s, { contactIds: ['ct_01KQ0000000000000000000000'] }),
      campaignBody(s, { contactIds: [c.body._id] }, { concurrency: 0 }),
      campaignBody(s, { contactIds: [c.body._id] }, { callingWindow: { start: '20:00', end: '09:00' } }),
      campaignBody(s, { contactIds: [c.body._id] }, { callingWindow: { timeZone: 'Mars/Olympus' } }),
      campaignBody(s, { search: 'nobody-matches-this' }),
      { ...campaignBody(s, { contactIds: [c.body._id] }), surprise: true },
    ];
    for (const body of bad) {
      const res = await p.api(s.apiKey, 'POST', '/api/campaigns', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { contactIds: [c.body._id] }, { agentId: 'agt_01KQ0000000000000000000000' }))).status).toBe(404);
    expect((await p.api(s.apiKey, 'GET', '/api/campaigns')).body.total).toBe(listBefore);

    const id = (await p.api(s.apiKey, 'POST', '/api/campaigns', campaignBody(s, { contactIds: [c.body._id] }))).body._id;
    for (const action of ['pause', 'resume']) {
      const res = await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/${action}`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('invalid_campaign_state');
    }
    expect((await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/cancel`)).body.status).toBe('cancelled');
    expect((await p.api(s.apiKey, 'POST', `/api/campaigns/${id}/start`)).status).toBe(409);
    expect((await p.api(s.apiKey, 'GET', `/api/campaigns/${id}`)).body.status).toBe('cancelled');
    expect((await p.api(s.apiKey, 'POST', '/api/do-not-call', { phoneNumber: '12' })).status).toBe(400);
    expect((await p.api(s.apiKey, 'DELETE', `/api/do-not-call/${encodeURIComponent(number(700, 99))}`)).status).toBe(404);
  }, PROGRESS_BOUNDED_TEST_MS);

  it("never shows or moves another workspace's campaign, and keeps do-not-call lists apart", async () => {
    const a = await setup();
    const b = await setup();
    const c = await p.api(a.apiKey, 'POST', '/api/contacts', { contactName: 'W', phoneNumber: number(800, 0), externalFields: { appointment: 'Monday' } });
    const id = (await p.api(a.apiKey, 'POST', '/api/campaigns', campaignBody(a, { contactIds: [c.body._id] }))).body._id;
    for (const [method, path] of [['GET', ''], ['GET', '/results'], ['POST', '/start'], ['POST', '/cancel']] as const) {
      const res = await p.api(b.apiKey, method, `/api/campaigns/${id}${path}`);
      expect(res.status, path).toBe(404);
    }
    expect((await p.api(a.apiKey, 'GET', `/api/campaigns/${id}`)).body.status).toBe('draft');
    expect((await p.api(b.apiKey, 'GET', '/api/campaigns')).body.total).toBe(0);
    // B's contacts and numbers are not A's to campaign with.
    expect((await p.api(b.apiKey, 'POST', '/api/campaigns', campaignBody(b, { contactIds: [c.body._id] }))).status).toBe(400);
    expect((await p.api(a.apiKey, 'POST', '/api/campaigns', campaignBody({ agentId: a.agentId, numberId: b.numberId }, { contactIds: [c.body._id] }))).status).toBe(404);
    await p.api(a.apiKey, 'POST', '/api/do-not-call', { phoneNumber: number(800, 1) });
    expect((await p.api(b.apiKey, 'GET', `/api/do-not-call/${encodeURIComponent(number(800, 1))}`)).status).toBe(404);
    expect((await p.api(b.apiKey, 'GET', '/api/do-not-call')).body.total).toBe(0);
  }, PROGRESS_BOUNDED_TEST_MS);
});
