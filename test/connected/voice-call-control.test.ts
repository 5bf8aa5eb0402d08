/**
 * Invariant: a stream without a valid stream token (missing, forged, expired, or issued for another call)
 * is closed at once with a policy-violation code and nothing is processed or recorded; a transfer tool
 * moves the caller through the telephony port (the call is updated with `<Dial>` to the tool's number) and
 * ends the call as `transferred`, after the words before it were played; the built-in `end_call` says
 * goodbye, hangs up through the telephony port and ends as `agent_hangup`; with `recording_enabled` the
 * call's two sides are stored in S3 as a stereo WAV whose address is on the history record.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCaller, tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord, listHistory } from '../../lib/store/history.js';
import { recordingKey } from '../../lib/store/recordings.js';
import { POLICY_VIOLATION } from '../../streaming-service/src/service.js';
import { liveCall, startVoicePlatform, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'Please transfer me.', finalDelayMs: 50 },
    llm: {
      ttftMs: 30,
      tokensPerSecond: 400,
      reply: (req) => {
        const { system, turns, endsWithToolResult, toolResults } = req.messages;
        if (/summar/i.test(system)) return { text: 'Summary: the caller asked to be transferred.' };
        // A failed transfer comes back as a tool result: say so instead of trying again.
        if (endsWithToolResult) return { text: `Sorry: ${toolResults.at(-1)?.content ?? ''}` };
        if (req.tools.includes('front_desk') && turns.some((t) => t.role === 'user')) {
          return { text: 'Transferring you now.', toolCalls: [{ name: 'front_desk', arguments: {} }] };
        }
        return { text: 'Goodbye and thanks!', toolCalls: [{ name: 'end_call', arguments: {} }] };
      },
    },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

describe('admission', () => {
  it('closes streams without a valid token at once and records nothing', async () => {
    const agent = await vp.agent();
    const sttBefore = vp.platform.voice.stt.control.deepgram!.connections;
    const refused: string[] = [];
    const off = vp.platform.voice.streaming.onRefused((e) => refused.push(e.reason));
    const callSid = `CA${randomBytes(16).toString('hex')}`;
    const otherSid = `CA${randomBytes(16).toString('hex')}`;
    const cases: Record<string, string>[] = [
      {},
      { token: 'vst1.e30.AAAA' },
      { token: await vp.token(agent, callSid, { exp: Math.floor(Date.now() / 1000) - 5 }) },
      { token: await vp.token(agent, otherSid) },
    ];
    for (const customParameters of cases) {
      const caller = await SimulatedCaller.connect({ url: vp.mediaUrl, callSid, customParameters });
      const closed = await caller.closed;
      expect(closed.code).toBe(POLICY_VIOLATION);
      // Nothing was sent to the caller: no greeting, no marks.
      expect(caller.received).toHaveLength(0);
    }
    off();
    expect(refused).toEqual(['stream token missing_token', 'stream token bad_signature', 'stream token expired', 'stream token call_mismatch']);
    expect(vp.platform.voice.stt.control.deepgram!.connections).toBe(sttBefore);
    expect(vp.platform.voice.streaming.activeSessions).toBe(0);
    const history = await listHistory(vp.deps.db, vp.workspaceId, { page: 1, limit: 10 });
    expect(history.total).toBe(0);
  });

  it('serves its health with the number of active sessions', async () => {
    const res = await fetch(`${vp.platform.baseUrl}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', activeSessions: 0 });
  });
});

describe('call control', () => {
  it('transfers through the telephony port after the words before it played, and records both sides', async () => {
    const created = await fetch(`${vp.platform.baseUrl}/api/tools`, {
      method: 'POST',
      headers: { 'x-api-key': vp.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Front desk',
        type: 'transfer',
        description: 'Transfer the caller to the front desk',
        config: { url: 'tel:+14155550142' },
        workspaceId: vp.workspaceId,
      }),
    });
    expect(created.status).toBe(201);
    const agent = await vp.agent({ first_message: 'Hello there, welcome.', recording_enabled: true });
    const { numberId, callSid } = await liveCall(vp);
    const twilio = vp.platform.twilio!;
    twilio.clearRequests();
    const caller = await SimulatedCaller.connect({ url: vp.mediaUrl, callSid, customParameters: { token: await vp.token(agent, callSid, { numberId, from: '+14155550100' }) } });
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    await caller.play(tone(600));

    const closed = await caller.closed;
    expect(closed.code).toBe(1000);
    const update = twilio.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${callSid}.json`));
    expect(update?.form.Twiml).toBe('<Response><Dial>+14155550142</Dial></Response>');
    // The words before the transfer were played before the call was moved.
    const transferWordsPlayed = caller.echoed.filter((e) => !e.flushed).at(-1)!;
    expect(transferWordsPlayed.atMs).toBeLessThanOrEqual(closed.atMs);

    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('transferred');
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(record.callEndReason).toBe('transferred');
    expect(String(record.callTranscript).split('\n')).toEqual([
      'agent: Hello there, welcome.',
      'user: Please transfer me.',
      'agent: Transferring you now.',
    ]);
    // The timeline has the transfer with its destination and outcome, then the end.
    const events = ((await vp.api('GET', `/api/history/${ended.callId}/events`, undefined)).body as { data: { type: string }[] }).data;
    expect(events.filter((e) => e.type === 'transfer')).toEqual([expect.objectContaining({ destination: '+14155550142', mode: 'cold', outcome: 'transferred' })]);
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([expect.objectContaining({ status: 'ok' })]);
    expect(events.at(-1)).toMatchObject({ type: 'ended', reason: 'transferred' });

    // The recording: a stereo 8 kHz 16-bit WAV in S3, caller (tone) on the left, agent on the right.
    expect(record.callRecordingUrl).toBe(`s3://voice-agents-recordings/${recordingKey(vp.workspaceId, ended.callId)}`);
    const url = await vp.deps.recordings.presignGet(recordingKey(vp.workspaceId, ended.callId), 60);
    const wav = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    let left = 0;
    let right = 0;
    for (let i = 44; i + 3 < wav.length; i += 4) {
      left = Math.max(left, Math.abs(wav.readInt16LE(i)));
      right = Math.max(right, Math.abs(wav.readInt16LE(i + 2)));
    }
    expect(left).toBeGreaterThan(2_000);
    expect(right).toBeGreaterThan(2_000);
  });

  it('ends the call politely with end_call: goodbye played, then hung up through the telephony port', async () => {
    const agent = await vp.agent({ first_message: 'Hi, anything else?' });
    vp.platform.voice.stt.control.deepgram!.setScript({ transcripts: () => 'No, that is all.', finalDelayMs: 50 });
    vp.platform.voice.llm.control.set({
      reply: (req) =>
        /summar/i.test(req.messages.system)
          ? { text: 'Summary: the caller was done.' }
          : { text: 'Goodbye and thanks!', toolCalls: [{ name: 'end_call', arguments: {} }] },
    });
    const { numberId, callSid } = await liveCall(vp);
    const twilio = vp.platform.twilio!;
    twilio.clearRequests();
    const caller = await SimulatedCaller.connect({ url: vp.mediaUrl, callSid, customParameters: { token: await vp.token(agent, callSid, { numberId }) } });
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    await caller.play(tone(600));
    const closed = await caller.closed;
    expect(closed.code).toBe(1000);
    const hangUp = twilio.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${callSid}.json`));
    expect(hangUp?.form.Status).toBe('completed');

    const ended = await vp.nextCallEnded();
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(record.callEndReason).toBe('agent_hangup');
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Hi, anything else?', 'user: No, that is all.', 'agent: Goodbye and thanks!']);
    expect(record.callSummary).toBe('Summary: the caller was done.');
  });
});
