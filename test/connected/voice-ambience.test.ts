/**
 * Invariant: a call with ambience on (phone or browser) carries the bed to the caller for the whole call, and the recording
 * keeps it as the caller heard it: at the agent's volume in the silences, with the agent well above it
 * while it speaks; barge-in works as without the bed (the bed never reaches the recognizer or the VAD).
 * And an agent's pronunciations reach each voice vendor in its own syntax (Cartesia `<<…>>`, ElevenLabs
 * SSML on Flash v2, Deepgram plain words), while the transcript keeps the written words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BED_REFERENCE_RMS } from '../../lib/domain/ambience.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { SimulatedWebCaller } from '../../lib/local/callers/simulated-web-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { recordingKey } from '../../lib/store/recordings.js';
import { rms } from '../../lib/vendors/shared/pcm.js';
import { INTERRUPTED_MARKER } from '../../streaming-service/src/session/speech-handle.js';
import { startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

const LONG_REPLY = 'Sure thing. Our specials tonight are a mushroom risotto and a lemon tart with cream. We also have a fine wine list.';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => ['What are the specials?', 'Stop, please.'][utterance] ?? 'Okay.', finalDelayMs: 50 },
    llm: {
      ttftMs: 50,
      // Slow enough that the reply is still streaming when the caller interrupts.
      tokensPerSecond: 8,
      reply: (req) => {
        if (/summar/i.test(req.messages.system)) return { text: 'Summary.' };
        return req.messages.turns.filter((t) => t.role === 'user').length === 1 ? { text: LONG_REPLY } : { text: 'Of course.' };
      },
    },
    // Faster than real time, as vendors stream: the voice's last audio is buffered ahead when it ends.
    tts: { firstByteDelayMs: 30, realtimeFactor: 4 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

const record = async (callId: string) => (await getHistoryRecord(vp.deps.db, vp.workspaceId, callId)) as unknown as Record<string, any>;

/**
 * The call's recording, agent track (what the caller heard), in 50 ms windows: the bed at `volume` in the
 * last second before the hang-up (silence), no window without sound, and the agent's voice well above the bed.
 */
async function expectBedInRecording(callId: string, rate: number, volume: number): Promise<void> {
  const url = await vp.deps.recordings.presignGet(recordingKey(vp.workspaceId, callId), 60);
  const wav = Buffer.from(await (await fetch(url)).arrayBuffer());
  expect(wav.readUInt32LE(24)).toBe(rate);
  const agentTrack = Int16Array.from({ length: (wav.length - 44) / 4 }, (_, i) => wav.readInt16LE(44 + i * 4 + 2));
  const size = rate / 20;
  const windows = Array.from({ length: Math.floor(agentTrack.length / size) }, (_, i) => rms(agentTrack, i * size, i * size + size));
  const bedLevel = volume * BED_REFERENCE_RMS;
  // The caller's track may run on past the agent's (its clock started before the session's): the agent's
  // track ends at its last sound.
  const end = windows.findLastIndex((w) => w > bedLevel * 0.5);
  expect(end).toBeGreaterThan(40);
  // The second before the hang-up is silence: the bed alone, at its level within mu-law's rounding and the
  // window's own variation.
  for (const w of windows.slice(end - 20, end)) expect(Math.abs(w / bedLevel - 1)).toBeLessThan(0.25);
  // No hole anywhere: from the bed's first frame (the first call of a process waits for the bed to be made)
  // to the last, every window has the bed or the agent.
  const start = windows.findIndex((w) => w > bedLevel * 0.5);
  const holes = windows.flatMap((w, i) => (i > start && i < end && w <= bedLevel * 0.7 ? [`${i * 50} ms: ${w.toFixed(0)}`] : []));
  expect(holes).toEqual([]);
  // The greeting is heard over it.
  expect(Math.max(...windows)).toBeGreaterThan(bedLevel * 4);
}

/** A phone call to `agent` whose caller hears the greeting's first phrase, stays `pauseMs` and hangs up; the call as it ended. */
async function hangUpAfterGreeting(agent: Parameters<typeof vp.call>[0], pauseMs: number) {
  const caller = await vp.call(agent);
  await caller.waitFor((m) => m.event === 'mark');
  await caller.pause(pauseMs);
  caller.hangUp();
  return vp.nextCallEnded();
}

describe('ambience', () => {
  it('the recording has the bed at the set level in the silences and the agent well above it', async () => {
    const volume = 0.3;
    const agent = await vp.agent({ first_message: 'Hello there, welcome.', recording_enabled: true, ambience_enabled: true, ambience: { sound: 'static', volume } });
    // A silence after the greeting: only the bed plays.
    const ended = await hangUpAfterGreeting(agent, 1_500);
    expect((await record(ended.callId)).callTranscript).toBe('agent: Hello there, welcome.');

    await expectBedInRecording(ended.callId, 8_000, volume);
  });

  it('a browser call (16 kHz PCM) has the bed in its recording too', async () => {
    const volume = 0.3;
    const agent = await vp.agent({ first_message: 'Hello there, welcome.', recording_enabled: true, ambience_enabled: true, ambience: { sound: 'static', volume } });
    const meeting = await vp.meeting(agent);
    const page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    await waitUntil(() => (page.captions('agent').includes('Hello there, welcome.') ? true : undefined));
    await new Promise((r) => setTimeout(r, 2_500));
    page.hangUp();
    await vp.nextCallEnded();
    await expectBedInRecording(meeting.callId, 16_000, volume);
  });

  it('barge-in is unaffected: the reply is cut where the caller came in, and the greeting was heard whole', async () => {
    const agent = await vp.agent({ first_message: 'Hello, Luigi speaking.', ambience_enabled: true, ambience: { sound: 'call_center', volume: 1 } });
    // The model's requests of this call (the first test's summary came before).
    const before = vp.platform.voice.llm.control.requestsFor('openai').length;
    // The reply's requests (not an earlier call's summary, which may still be on its way).
    const requests = () => vp.platform.voice.llm.control.requestsFor('openai').slice(before).filter((r) => !/summar/i.test(JSON.stringify(r.body)));
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.pause(300);
    await caller.play(tone(600));
    const reply = await waitUntil(() => requests()[0], WAIT_MS);
    // The reply's first phrase has played (a mark echoed after its request began); the caller talks over the rest.
    const echoedBefore = caller.echoed.length;
    await waitUntil(() => caller.echoed.slice(echoedBefore).find((e) => !e.flushed), WAIT_MS);
    await caller.play(tone(700));
    expect(await reply.settled).toBe('aborted');
    await waitUntil(() => (requests().length >= 2 ? true : undefined), WAIT_MS);
    await caller.pause(1_000);
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    const lines = String((await record(ended.callId)).callTranscript).split('\n');
    expect(lines[0]).toBe('agent: Hello, Luigi speaking.');
    expect(lines[1]).toBe('user: What are the specials?');
    const cut = lines.find((l) => l.startsWith('agent: Sure thing.'));
    expect(cut === 'agent: Sure thing.' || cut?.endsWith(INTERRUPTED_MARKER)).toBe(true);
    expect(lines).toContain('user: Stop, please.');
  });

  it('a custom file that cannot be had leaves the call without a bed, and its timeline says why', async () => {
    // Stored as an older record might have it: the fetch at call time is guarded as at save time.
    const agent = await vp.agent({ first_message: 'Hello there.', ambience_enabled: true, ambience: { sound: 'https://127.0.0.1:9/lobby.wav?sig=s3cr3t-token', volume: 0.3 } });
    const ended = await hangUpAfterGreeting(agent, 500);
    expect((await record(ended.callId)).callTranscript).toBe('agent: Hello there.');
    const events = ((await vp.api('GET', `/api/history/${ended.callId}/events`, undefined)).body as { data: { type: string; message?: string }[] }).data;
    const unavailable = events.filter((e) => e.type === 'ambience_unavailable');
    expect(unavailable).toHaveLength(1);
    expect(unavailable[0]!.message).toMatch(/127\.0\.0\.1|private|not allowed/i);
    expect(JSON.stringify(events)).not.toContain('s3cr3t-token');
    expect(events.some((e) => e.type === 'error')).toBe(false);
  });
});

describe('pronunciations on the wire', () => {
  const said = 'Dr Nguyen at AWS says hello.';
  const pronunciations = [
    { word: 'nguyen', phoneme: 'w ɪ n', alphabet: 'ipa' as const },
    { word: 'AWS', say_as: 'A W S' },
  ];
  const greet = async (tts: 'cartesia' | 'elevenlabs' | 'deepgram', list: typeof pronunciations | typeof pronunciations[1][]) => {
    const agent = await vp.agent({ first_message: said, tts_provider: tts, tts_voice_id: DEFAULT_VOICE[tts], pronunciations: list });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark');
    // Every phrase of the greeting played: no new mark echo for a while.
    for (let seen = -1; caller.echoed.length !== seen; ) {
      seen = caller.echoed.length;
      await caller.pause(800);
    }
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    // The transcript keeps the written words.
    expect((await record(ended.callId)).callTranscript).toBe(`agent: ${said}`);
    const standin = vp.platform.voice.tts.control[tts]!;
    const connection = standin.connections.at(-1)!;
    const texts = connection.received.map((m) => String(m.json?.transcript ?? m.json?.text ?? '')).join('');
    return { connection, texts };
  };

  it('Cartesia gets the IPA between << >> and the spelled-out word', async () => {
    const { texts } = await greet('cartesia', pronunciations);
    expect(texts).toContain('Dr <<w|ɪ|n>> at A W S says hello.');
  });

  it('ElevenLabs speaks with Flash v2 and gets an SSML phoneme tag', async () => {
    const { connection, texts } = await greet('elevenlabs', pronunciations);
    expect(connection.query.model_id).toBe('eleven_flash_v2');
    expect(texts).toContain('Dr <phoneme alphabet="ipa" ph="wɪn">Nguyen</phoneme> at A W S says hello.');
  });

  it('Deepgram gets the words substituted', async () => {
    const { texts } = await greet('deepgram', [pronunciations[1]!]);
    expect(texts).toContain('Dr Nguyen at A W S says hello.');
  });
});
