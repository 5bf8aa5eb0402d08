/**
 * Invariant: a live phone call and a live meeting are steered through the API while they run: `say`
 * makes the agent speak the line (heard by the caller, in the transcript), `context` reaches the model's
 * next request as a system message without being spoken, `transfer` moves a phone call through the
 * telephony port (`<Dial>`) and ends it `transferred` (a meeting has no phone line: 409), and `end` says the
 * closing line, hangs up and ends the call `ended_by_api` (a second end answers the same). `GET
 * /api/calls/{id}` shows the transcript so far and the agent. A listener on the signed URL receives both
 * sides' audio on their own channels, the captions and the end, and changes nothing. Another workspace's
 * call is a 404, a call that is over a 409, a bad body a 400 that does nothing.
 */
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCaller, tone } from '../../lib/local/callers/simulated-caller.js';
import { SimulatedWebCaller } from '../../lib/local/callers/simulated-web-caller.js';
import { readListenFrame } from '../../lib/domain/live-control.js';
import type { ScriptRequest } from '../../lib/local/standins/llm-script.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { liveCall, startVoicePlatform, transcriptOf, waitUntil, type VoicePlatform } from './voice-harness.js';

/** Every model request, to see what the model was given. */
const requests: ScriptRequest[] = [];
let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'Can you hear me?', finalDelayMs: 50 },
    llm: {
      ttftMs: 20,
      tokensPerSecond: 400,
      reply: (req) => {
        requests.push(req);
        const { system } = req.messages;
        if (/summar/i.test(system)) return { text: 'Summary.' };
        return { text: /VIP/.test(system) ? 'Welcome back.' : 'Yes.' };
      },
    },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
});
afterAll(async () => vp?.stop());

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, apiKey = vp.apiKey) {
  const res = await fetch(`${vp.platform.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A listener on the call's signed URL: what it received, split into audio per channel and JSON events. */
async function listen(callId: string) {
  const res = await api('POST', `/api/calls/${callId}/listen`);
  expect(res.status).toBe(201);
  const ws = new WebSocket(res.body.url);
  const audio: Record<number, number> = { 0: 0, 1: 0 };
  const loud: Record<number, number> = { 0: 0, 1: 0 };
  const events: any[] = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) return void events.push(JSON.parse(String(data)));
    const frame = readListenFrame(data as Buffer);
    audio[frame.channel] = (audio[frame.channel] ?? 0) + frame.pcm.length;
    if (frame.pcm.some((s) => Math.abs(s) > 1_000)) loud[frame.channel] = (loud[frame.channel] ?? 0) + 1;
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await waitUntil(() => events.find((e) => e.type === 'start'));
  return { info: res.body, ws, audio, loud, events, closed };
}

const captions = (events: any[], role: string) => events.filter((e) => e.type === 'caption' && e.role === role && e.final).map((e) => e.text as string);

/** A phone call on a number of the workspace, connected and past its greeting; its call id from the token. */
async function phoneCall(firstMessage = 'Hello there.') {
  const agent = await vp.agent({ name: 'Ava', first_message: firstMessage });
  const { numberId, callSid } = await liveCall(vp);
  const token = await vp.token(agent, callSid, { numberId, from: '+14155550100' });
  const callId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).callId as string;
  const caller = await SimulatedCaller.connect({ url: vp.mediaUrl, callSid, customParameters: { token } });
  await caller.waitFor((m) => m.event === 'mark');
  await caller.whenIdle();
  return { agent, callId, callSid, caller };
}

describe('a live phone call', () => {
  it('is steered (say, context), shown with its transcript, listened to, and transferred', async () => {
    const { agent, callId, callSid, caller } = await phoneCall();
    const listener = await listen(callId);
    expect(listener.info.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 8000, channels: ['caller', 'agent'], headerBytes: 8 });
    expect(listener.events[0]).toMatchObject({ type: 'start', callId, format: { sampleRate: 8000 } });

    const said = await api('POST', `/api/calls/${callId}/say`, { text: 'A supervisor joined.', mode: 'interrupt' });
    expect(said.status).toBe(200);
    expect(said.body).toEqual({ id: callId, status: 'speaking' });
    await waitUntil(() => captions(listener.events, 'agent').find((t) => t === 'A supervisor joined.'));
    await caller.whenIdle();

    // Context: seen by the model's next request as a system message, never spoken. Sent twice with one key: done once.
    const note = { message: 'The caller is a VIP.' };
    const first = await api('POST', `/api/calls/${callId}/context`, note, { 'Idempotency-Key': 'ctx-1' });
    expect(first).toMatchObject({ status: 200, body: { id: callId, status: 'context_added' } });
    const again = await api('POST', `/api/calls/${callId}/context`, note, { 'Idempotency-Key': 'ctx-1' });
    expect(again).toMatchObject({ status: 200, body: { id: callId, status: 'context_added', replayed: true } });
    const reused = await api('POST', `/api/calls/${callId}/context`, { message: 'Other.' }, { 'Idempotency-Key': 'ctx-1' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    const before = requests.length;
    await caller.play(tone(600));
    await waitUntil(() => captions(listener.events, 'agent').find((t) => t === 'Welcome back.'));
    await caller.whenIdle();
    const turn = requests.slice(before).find((r) => !/summar/i.test(r.messages.system))!;
    expect(turn.messages.system.split('The caller is a VIP.').length).toBe(2);

    const view = await api('GET', `/api/calls/${callId}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ id: callId, agent: { id: agent._id, name: 'Ava' }, endReason: null });
    expect(view.body.transcript).toEqual([
      { role: 'agent', text: 'Hello there.' },
      { role: 'agent', text: 'A supervisor joined.' },
      { role: 'user', text: 'Can you hear me?' },
      { role: 'agent', text: 'Welcome back.' },
    ]);
    expect(['listening', 'thinking', 'speaking']).toContain(view.body.agentState);

    // Bad bodies are 400s that do nothing; another workspace's call is a 404.
    for (const [path, body] of [
      ['say', { text: '' }],
      ['say', { text: 'Hi.', mode: 'shout' }],
      ['say', { text: 'Hi.', extra: 1 }],
      ['context', {}],
      ['transfer', { to: 'front desk' }],
      ['transfer', { to: '+14155550142', mode: 'hot' }],
      ['end', { message: 'x'.repeat(1001) }],
    ] as const) {
      const res = await api('POST', `/api/calls/${callId}/${path}`, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const other = await createWorkspace(vp.deps.db, { name: 'other', credits: 10 });
    const valid: Record<string, unknown> = { say: { text: 'Hi.' }, context: { message: 'Hi.' }, end: {}, transfer: { to: '+14155550142' }, listen: undefined };
    for (const [path, body] of Object.entries(valid)) {
      const res = await api('POST', `/api/calls/${callId}/${path}`, body, {}, other.apiKey);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await api('GET', `/api/calls/${callId}`, undefined, {}, other.apiKey)).status).toBe(404);

    const twilio = vp.platform.twilio!;
    twilio.clearRequests();
    const moved = await api('POST', `/api/calls/${callId}/transfer`, { to: '+14155550142', mode: 'cold' });
    expect(moved).toMatchObject({ status: 202, body: { id: callId, status: 'transferring' } });
    await caller.closed;
    const update = twilio.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${callSid}.json`));
    expect(update?.form.Twiml).toBe('<Response><Dial>+14155550142</Dial></Response>');
    const ended = await vp.nextCallEnded();
    expect(ended).toMatchObject({ callId, outcome: { reason: 'transferred' } });

    // The listener: both channels (the caller's tone, the agent's voice), the captions, the transfer and the end.
    expect(await listener.closed).toBe(1000);
    expect(listener.loud[0]).toBeGreaterThan(0);
    expect(listener.loud[1]).toBeGreaterThan(0);
    expect(captions(listener.events, 'user')).toEqual(['Can you hear me?']);
    expect(listener.events.some((e) => e.type === 'state' && e.state === 'speaking')).toBe(true);
    expect(listener.events.find((e) => e.type === 'transfer')).toEqual({ type: 'transfer', to: '+14155550142', ok: true, outcome: 'transferred' });
    expect(listener.events.at(-1)).toEqual({ type: 'ended', reason: 'transferred' });
    // The listener changed nothing: the transcript is the conversation alone.
    expect(await transcriptOf(vp, callId)).toEqual(['agent: Hello there.', 'agent: A supervisor joined.', 'user: Can you hear me?', 'agent: Welcome back.']);

    // Over: every command is a 409, and so is a listen URL.
    for (const path of ['say', 'context', 'end', 'transfer']) {
      const res = await api('POST', `/api/calls/${callId}/${path}`, valid[path]);
      expect(res.status, path).toBe(409);
      expect(res.body.error.code).toBe('call_ended');
    }
    expect((await api('POST', `/api/calls/${callId}/listen`)).status).toBe(409);
    expect((await api('GET', `/api/calls/${callId}`)).body).toMatchObject({ transcript: null, agent: null, agentState: null });
  });

  it('ends after its closing line, hangs up, and a second end answers the same', async () => {
    const { callId, callSid, caller } = await phoneCall();
    const listener = await listen(callId);
    const twilio = vp.platform.twilio!;
    twilio.clearRequests();
    const [a, b] = await Promise.all([
      api('POST', `/api/calls/${callId}/end`, { message: 'Goodbye from us.' }),
      api('POST', `/api/calls/${callId}/end`, { message: 'Goodbye from us.' }),
    ]);
    expect(a).toEqual({ status: 200, body: { id: callId, status: 'ending' } });
    expect(b).toEqual({ status: 200, body: { id: callId, status: 'ending' } });
    await caller.closed;
    const ended = await vp.nextCallEnded();
    expect(ended).toMatchObject({ callId, outcome: { reason: 'ended_by_api' } });
    expect(await transcriptOf(vp, callId)).toEqual(['agent: Hello there.', 'agent: Goodbye from us.']);
    // Hung up at the provider: nobody hung up there.
    const hangUp = twilio.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${callSid}.json`));
    expect(hangUp?.form.Status).toBe('completed');
    expect(listener.events.at(-1)).toEqual({ type: 'ended', reason: 'ended_by_api' });
    // Ended by the API: ending again is the same answer, not a conflict.
    expect(await api('POST', `/api/calls/${callId}/end`, {})).toEqual({ status: 200, body: { id: callId, status: 'ended' } });
    expect((await api('POST', `/api/calls/${callId}/say`, { text: 'Hi.' })).status).toBe(409);
  });

  it('a listen URL is bound to its call and refused when forged', async () => {
    const { callId } = await phoneCall('Hi.');
    const res = await api('POST', `/api/calls/${callId}/listen`);
    const url = new URL(res.body.url);
    const token = url.searchParams.get('token')!;
    const [v, payload, sig] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, callId: 'call_other' })).toString('base64url');
    url.searchParams.set('token', `${v}.${forged}.${sig}`);
    const ws = new WebSocket(url.toString());
    const got: any[] = [];
    ws.on('message', (d) => got.push(JSON.parse(String(d))));
    const code = await new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    expect(code).toBe(1008);
    expect(got).toEqual([{ type: 'error', code: 'bad_token', message: 'This listen URL is not valid.' }]);
    expect((await api('POST', `/api/calls/${callId}/end`, {})).status).toBe(200);
    await vp.nextCallEnded();
  });
});

describe('a live meeting', () => {
  it('is steered, listened to at 16 kHz, cannot be transferred, and is ended through the API', async () => {
    const agent = await vp.agent({ name: 'Ava', first_message: 'Welcome to the meeting.' });
    const meeting = await vp.meeting(agent);
    const page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    await waitUntil(() => (page.captions('agent').includes('Welcome to the meeting.') ? true : undefined));
    await page.whenIdle();
    const callId = meeting.callId;
    const listener = await listen(callId);
    expect(listener.info.format.sampleRate).toBe(16000);
    // Many may listen: a second listener gets the same call.
    const second = await listen(callId);

    expect((await api('POST', `/api/calls/${callId}/say`, { text: 'A supervisor joined.' })).body).toEqual({ id: callId, status: 'speaking' });
    await waitUntil(() => (page.captions('agent').includes('A supervisor joined.') ? true : undefined));
    await page.whenIdle();
    expect((await api('POST', `/api/calls/${callId}/context`, { message: 'The caller is a VIP.' })).status).toBe(200);
    await page.say('Can you hear me?');
    await waitUntil(() => (page.captions('agent').includes('Welcome back.') ? true : undefined));
    await page.whenIdle();

    const transfer = await api('POST', `/api/calls/${callId}/transfer`, { to: 'sip:desk@example.com', mode: 'warm' });
    expect(transfer.status).toBe(409);
    expect(transfer.body.error.code).toBe('no_phone_line');

    const view = await api('GET', `/api/calls/${callId}`);
    expect(view.body).toMatchObject({ type: 'video', agent: { id: agent._id, name: 'Ava' } });
    expect(view.body.transcript.map((e: { text: string }) => e.text)).toEqual(['Welcome to the meeting.', 'A supervisor joined.', 'Can you hear me?', 'Welcome back.']);

    expect((await api('POST', `/api/calls/${callId}/end`, {})).body).toEqual({ id: callId, status: 'ending' });
    const ended = await vp.nextCallEnded();
    expect(ended).toMatchObject({ callId, outcome: { reason: 'ended_by_api' } });
    await waitUntil(() => page.received.find((m) => m.type === 'ended'));
    expect(await listener.closed).toBe(1000);
    expect(listener.loud[0]).toBeGreaterThan(0);
    expect(listener.loud[1]).toBeGreaterThan(0);
    expect(captions(listener.events, 'user')).toEqual(['Can you hear me?']);
    expect(captions(listener.events, 'agent')).toEqual(expect.arrayContaining(['A supervisor joined.', 'Welcome back.']));
    expect(listener.events.at(-1)).toEqual({ type: 'ended', reason: 'ended_by_api' });
    expect(await second.closed).toBe(1000);
    expect(second.loud[0]).toBeGreaterThan(0);
    expect(captions(second.events, 'user')).toEqual(['Can you hear me?']);
    expect(second.events.at(-1)).toEqual({ type: 'ended', reason: 'ended_by_api' });
  });

  it('a meeting nobody joined yet is not connected: 409', async () => {
    const agent = await vp.agent({});
    const created = await api('POST', '/api/optimus/meeting-link', { assistantId: agent._id });
    const res = await api('POST', `/api/calls/${created.body.call_id}/say`, { text: 'Hi.' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('call_not_connected');
  });
});
