/**
 * Invariant: when the caller talks over the agent, the agent's utterance stops everywhere at once — Twilio
 * is told to `clear` its buffer, the LLM request is aborted at the vendor, the TTS context is cancelled at
 * the vendor — and the conversation keeps only the phrases the caller actually heard (mark echoes before
 * the clear, plus the words already played of the phrase it cut, marked as cut), so the transcript and the
 * next LLM request never contain words that were not played.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { INTERRUPTED_MARKER } from '../../streaming-service/src/session/speech-handle.js';
import { startVoicePlatform, type VoicePlatform, waitUntil } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

const LONG_REPLY =
  'Sure thing. Our specials tonight are a mushroom risotto and a lemon tart with cream. ' +
  'We also have a fine wine list and a tasting menu from the chef.';

let vp: VoicePlatform;

/** `text` is "Sure thing." then nothing or a cut prefix of the second phrase ending in the marker. */
function heardPrefix(text: string): boolean {
  // Cut right after the first phrase (marked as cut since the marker follows the last phrase heard).
  if (text === 'Sure thing.' || text === `Sure thing.${INTERRUPTED_MARKER}`) return true;
  if (!text.startsWith('Sure thing. ') || !text.endsWith(INTERRUPTED_MARKER)) return false;
  const cut = text.slice('Sure thing. '.length, -INTERRUPTED_MARKER.length);
  return cut.length > 0 && LONG_REPLY.slice('Sure thing. '.length).startsWith(`${cut} `);
}

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => ['What are the specials?', 'Stop, please.'][utterance] ?? 'Okay.', finalDelayMs: 50 },
    llm: {
      ttftMs: 50,
      // Slow enough that the reply is still streaming when the caller interrupts.
      tokensPerSecond: 8,
      reply: (req) => {
        if (/summar/i.test(req.messages.system)) return { text: 'Summary: asked about specials, then interrupted.' };
        const users = req.messages.turns.filter((t) => t.role === 'user');
        return users.length === 1 ? { text: LONG_REPLY } : { text: 'Of course, stopping now.' };
      },
    },
    // Real-time synthesis keeps the second phrase's TTS context open while it plays.
    tts: { firstByteDelayMs: 30, realtimeFactor: 1 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

describe('barge-in', () => {
  it('clears Twilio, aborts the LLM and TTS, and keeps only the played phrases', async () => {
    const agent = await vp.agent({ first_message: 'Hello, Luigi speaking.' });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    await caller.pause(100);
    const echoedBefore = caller.echoed.length;

    // Turn 1: the long reply starts; wait until its first phrase has played (its mark echoed) and the
    // second phrase's audio is arriving.
    await caller.play(tone(600));
    const firstPlayed = await waitUntil(() => caller.echoed.slice(echoedBefore).find((e) => !e.flushed));
    const afterFirst = caller.received.findIndex((m) => m.atMs >= firstPlayed.atMs);
    await caller.waitForNext((m) => m.event === 'media', WAIT_MS, afterFirst === -1 ? caller.received.length : afterFirst);

    // Barge in.
    const bargeAt = caller.received.length;
    await caller.play(tone(700));
    await caller.waitForNext((m) => m.event === 'clear', WAIT_MS, bargeAt);

    const llmRequests = vp.platform.voice.llm.control.requestsFor('openai');
    expect(await llmRequests[0]!.settled).toBe('aborted');
    const eleven = vp.platform.voice.tts.control.elevenlabs!;
    const contexts = eleven.connections.flatMap((c) => [...c.contexts.values()]);
    expect(contexts.some((c) => c.cancelledAtMs !== undefined)).toBe(true);

    // The caller's interruption becomes the next turn, answered normally.
    const afterClear = caller.received.length;
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, afterClear);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();

    const ended = await vp.nextCallEnded();
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    const lines = String(record.callTranscript).split('\n');
    expect(lines.filter((_, i) => i !== 2)).toEqual([
      'agent: Hello, Luigi speaking.',
      'user: What are the specials?',
      'user: Stop, please.',
      'agent: Of course, stopping now.',
    ]);
    // The first phrase whole, then the words of the second that had played when the caller cut in (how many
    // depends on timing), marked as cut.
    expect(heardPrefix(lines[2]!.replace(/^agent: /, ''))).toBe(true);
    // The model's next request saw only what was played.
    const second = vp.platform.voice.llm.control.requestsFor('openai')[1]!.body as { messages: { role: string; content: unknown }[] };
    const said = second.messages.filter((m) => m.role === 'assistant').map((m) => String(m.content));
    expect(said.some((text) => text.startsWith('Sure thing.') && heardPrefix(text))).toBe(true);
    expect(JSON.stringify(second.messages)).not.toContain('risotto');
  });
});
