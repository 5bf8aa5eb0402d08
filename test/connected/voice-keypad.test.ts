/**
 * Invariant: keys the caller presses reach the model as one user turn per sequence ("[The caller pressed
 * 4 2 # on the keypad]", ended by `#` or a pause) and stay in the transcript; a key the agent defines as a
 * shortcut acts at once without the model (0 = transfer: a hold line, then the call is moved with `<Dial>`;
 * the record shows the transfer); a shortcut key inside a typed sequence is just a digit; the call's one
 * duration limit says the closing line before it, hangs up through Twilio at it and records
 * `max_duration`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCaller } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { liveCall, startVoicePlatform, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;
/** The user turns the model was shown, per request. */
const seen: string[][] = [];

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'Hello there.', finalDelayMs: 50 },
    llm: {
      ttftMs: 20,
      tokensPerSecond: 400,
      reply: (req) => {
        if (/summar/i.test(req.messages.system)) return { text: 'Summary.' };
        seen.push(req.messages.turns.filter((t) => t.role === 'user').map((t) => t.text));
        return { text: 'Got it.' };
      },
    },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
    // A short limit, so a test can reach it (the keypad tests end well before it: about 3.5 s at most); a
    // short closing line (1.4 s of audio) that fits in the 2 s before it.
    session: { maxDurationMs: 6_000, closingLineBeforeMs: 2_000, closingPhrase: 'Time is up, goodbye!' },
  });
});
afterAll(async () => {
  await vp?.stop();
});

async function connect(agentOverrides: Parameters<VoicePlatform['agent']>[0]) {
  const agent = await vp.agent({ first_message: 'Hi, press a key.', ...agentOverrides });
  const { numberId, callSid } = await liveCall(vp);
  const caller = await SimulatedCaller.connect({ url: vp.mediaUrl, callSid, customParameters: { token: await vp.token(agent, callSid, { numberId }) } });
  await caller.waitFor((m) => m.event === 'mark');
  await caller.whenIdle();
  return { caller, callSid };
}

const record = async (callId: string) => (await getHistoryRecord(vp.deps.db, vp.workspaceId, callId)) as unknown as Record<string, any>;

describe('keypad', () => {
  it('gives the model the keys as one turn per sequence, a shortcut key inside a sequence included', async () => {
    seen.length = 0;
    const { caller } = await connect({ dtmf_shortcuts: { '0': { action: 'transfer', destination: '+14155550142', mode: 'cold' } } });
    for (const key of ['4', '0', '2', '#']) caller.press(key);
    await caller.waitForNext((m) => m.event === 'mark');
    await caller.whenIdle();
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(seen.at(-1)).toEqual(['[The caller pressed 4 0 2 # on the keypad]']);
    const r = await record(ended.callId);
    expect(String(r.callTranscript).split('\n')).toEqual(['agent: Hi, press a key.', 'user: [The caller pressed 4 0 2 # on the keypad]', 'agent: Got it.']);
    expect(r.transfer).toBeUndefined();
  });

  it('runs a shortcut key without the model: 0 transfers after the hold line, and the record shows it', async () => {
    seen.length = 0;
    const { caller, callSid } = await connect({ dtmf_shortcuts: { '0': { action: 'transfer', destination: 'sip:desk@pbx.example.com', mode: 'cold' } } });
    const twilio = vp.platform.twilio!;
    twilio.clearRequests();
    caller.press('0');
    const closed = await caller.closed;
    expect(closed.code).toBe(1000);
    const update = twilio.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${callSid}.json`));
    expect(update?.form.Twiml).toBe('<Response><Dial><Sip>sip:desk@pbx.example.com</Sip></Dial></Response>');
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('transferred');
    expect(seen).toEqual([]);
    const r = await record(ended.callId);
    expect(r.callEndReason).toBe('transferred');
    expect(r.transfer).toEqual({ destination: 'sip:desk@pbx.example.com', mode: 'cold', outcome: 'transferred' });
    expect(String(r.callTranscript).split('\n')).toEqual(['agent: Hi, press a key.', 'agent: Please hold while I connect you.']);
  });
});

describe('duration limit', () => {
  it('says the closing line before the limit, then hangs up through Twilio and records max_duration', async () => {
    const { caller, callSid } = await connect({});
    const twilio = vp.platform.twilio!;
    twilio.clearRequests();
    const closed = await caller.closed;
    expect(closed.code).toBe(1000);
    const hangUp = twilio.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${callSid}.json`));
    expect(hangUp?.form.Status).toBe('completed');
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('max_duration');
    const r = await record(ended.callId);
    expect(r.callEndReason).toBe('max_duration');
    expect(String(r.callTranscript).split('\n')).toEqual(['agent: Hi, press a key.', 'agent: Time is up, goodbye!']);
  });
});
