/**
 * Invariant: every text-to-speech provider turns phrases into Twilio-ready audio (raw mu-law, 8 kHz) in
 * order and only after its first-byte delay; one utterance's audio never mixes with another's on the same
 * session; a cancel ends the utterance's audio at once and stops the vendor with that vendor's own cancel
 * message (ElevenLabs close_context, Deepgram Clear, Cartesia cancel); and the messages on the wire are
 * exactly the vendor's documented protocol. One suite per provider, run against its stand-in always and
 * against the real vendor when its key is set (STYLE 13).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { synthesizeTone } from '../../lib/local/standins/tts-audio.js';
import { createTtsProvider } from '../../lib/vendors/tts/index.js';
import type { TtsSession } from '../../lib/vendors/tts/port.js';
import { LONG, PHRASES, SCRIPT, VARIANTS, collect, expectAudible, expectedTone, speakAndCancel, speakTwoPhrases, variantSuite } from './tts-contract-support.js';
import { WAIT_MS } from '../support/progress.js';

// ---- against the stand-ins -------------------------------------------------------------------------------

// The vendors' suites, the keepalive and startTtsStandins run side by side: each starts its own stand-ins, and
// most of their time is audio paced by those stand-ins. Inside a vendor's suite the tests run one after
// another (`it.sequential`), as they reprogram and read its stand-in.
describe.concurrent.each(VARIANTS)('$id text-to-speech against its stand-in', (variant) => {
  const rig = variantSuite(variant);


  it.sequential('connects: the socket is open before the first utterance', async () => {
    const before = rig.standin.connections.length;
    const session = await rig.connect();
    expect(rig.standin.connections.length).toBe(before + 1);
    expect(rig.lastConnection().closedAtMs).toBeUndefined();
    await session.close();
    await vi.waitFor(() => expect(rig.lastConnection().closedAtMs).toBeDefined(), { timeout: WAIT_MS });
  });

  it.sequential('turns two flushed phrases into exactly the audio the script gives that text, and completes after end', async () => {
    const session = await rig.connect();
    const u = session.utterance('two-phrases');
    speakTwoPhrases(u);
    const { chunks, bytes } = await collect(u);
    expect(chunks.every((c) => c.audio instanceof Uint8Array && typeof c.atMs === 'number')).toBe(true);
    expect(bytes.length).toBe(expectedTone(...PHRASES).length);
    expect(bytes).toEqual(expectedTone(...PHRASES));
    expectAudible(bytes);
    // Chunks arrive in order: receipt times never go backwards.
    for (let i = 1; i < chunks.length; i += 1) expect(chunks[i]!.atMs).toBeGreaterThanOrEqual(chunks[i - 1]!.atMs);
    await session.close();
  });

  it.sequential('says where each flushed phrase ends: phrasesDone counts 1 once the first phrase is all here, then 2', async () => {
    const session = await rig.connect();
    expect(session.phraseEnds).toBe(true);
    const u = session.utterance('phrase-ends');
    speakTwoPhrases(u);
    const { chunks } = await collect(u);
    const firstDone = chunks.findIndex((c) => (c.phrasesDone ?? 0) >= 1);
    const audioBefore = chunks.slice(0, firstDone + 1).reduce((n, c) => n + c.audio.length, 0);
    expect(firstDone).toBeGreaterThanOrEqual(0);
    // The count is reported once the first phrase's audio is in, and before the second's has come.
    expect(audioBefore).toBe(expectedTone(PHRASES[0]).length);
    expect(Math.max(...chunks.map((c) => c.phrasesDone ?? 0))).toBeLessThanOrEqual(2);
    await session.close();
  });

  it.sequential('delivers the first chunk only after the first-byte delay, and reports it in the rig.metrics', async () => {
    const session = await rig.connect();
    const u = session.utterance('first-byte');
    const flushedAt = speakTwoPhrases(u);
    const { chunks } = await collect(u);
    const firstByte = chunks[0]!.atMs - flushedAt;
    expect(firstByte).toBeGreaterThanOrEqual(SCRIPT.firstByteDelayMs - 5);
    const m = rig.metrics.find((x) => x.utteranceId === 'first-byte');
    expect(m).toMatchObject({ provider: variant.id, outcome: 'complete', audioBytes: expectedTone(...PHRASES).length });
    expect(m?.firstByteMs).toBeGreaterThanOrEqual(SCRIPT.firstByteDelayMs - 5);
    await session.close();
  });

  it.sequential('keeps two utterances on one session apart, even when both are in flight at once', async () => {
    const session = await rig.connect();
    const a = session.utterance('a');
    const b = session.utterance('b');
    a.pushText('First answer, spoken first.');
    a.end();
    b.pushText('Second answer.');
    b.flush();
    b.pushText('With two phrases.');
    b.end();
    const [ra, rb] = await Promise.all([collect(a), collect(b)]);
    expect(ra.bytes).toEqual(expectedTone('First answer, spoken first.'));
    expect(rb.bytes).toEqual(expectedTone('Second answer.', 'With two phrases.'));
    // A later utterance on the same session, after both, is clean too.
    const c = session.utterance('c');
    c.pushText('Third.');
    c.end();
    expect((await collect(c)).bytes).toEqual(expectedTone('Third.'));
    await session.close();
  });

  it.sequential('cancel mid-audio ends the audio at once, sends the vendor its cancel, and leaves nothing behind', async () => {
    const session = await rig.connect();
    const u = session.utterance('barge-in');
    const { received, chunksAfterCancel } = await speakAndCancel(u);
    expect(chunksAfterCancel).toBe(0);
    expect(received).toBeLessThan(synthesizeTone(LONG).length);
    const connection = rig.lastConnection();
    await vi.waitFor(() => expect(variant.cancelSeen(connection, 'barge-in')).toBeDefined(), { timeout: WAIT_MS });
    // The vendor was stopped mid-audio: it still had audio to send when the cancel arrived.
    expect(variant.cancelSeen(connection, 'barge-in')!.pendingBytes).toBeGreaterThan(0);
    // The next utterance gets its own audio and none of the interrupted one's.
    const next = session.utterance('after-barge-in');
    next.pushText('Sorry, go ahead.');
    next.end();
    expect((await collect(next)).bytes).toEqual(expectedTone('Sorry, go ahead.'));
    const m = rig.metrics.find((x) => x.utteranceId === 'barge-in');
    expect(m?.outcome).toBe('cancelled');
    await session.close();
  });

  it.sequential('cancelling an utterance does not take the one queued behind it down too', async () => {
    const session = await rig.connect();
    const first = session.utterance('interrupted');
    first.pushText(LONG);
    first.flush();
    // The reply after it is ready before the barge-in lands (the pipeline prepares the next turn early).
    const second = session.utterance('queued');
    second.pushText('The answer you asked for.');
    second.end();
    const secondAudio = collect(second);
    for await (const chunk of first.audio) {
      if (chunk.audio.length > 0) first.cancel();
    }
    expect((await secondAudio).bytes).toEqual(expectedTone('The answer you asked for.'));
    await session.close();
  });

  it.sequential('speaks exactly the documented wire sequence', async () => {
    const session = await rig.connect();
    const connection = rig.lastConnection();
    const u1 = session.utterance('u1');
    speakTwoPhrases(u1);
    await collect(u1);
    await speakAndCancel(session.utterance('u2'));
    await vi.waitFor(() => expect(variant.cancelSeen(connection, 'u2')).toBeDefined(), { timeout: WAIT_MS });
    await session.close();
    await vi.waitFor(() => expect(connection.closedAtMs).toBeDefined(), { timeout: WAIT_MS });
    variant.expectWire(connection, rig.voiceId);
  });

});

export const env = loadConfig();

for (const variant of VARIANTS) {
  describe.runIf(Boolean(env[variant.keyVariable]))(`${variant.id} text-to-speech against the real vendor`, () => {
    let session: TtsSession;
    beforeAll(async () => {
      session = await createTtsProvider(variant.id, env).connect({ voiceId: DEFAULT_VOICE[variant.id] });
    });
    afterAll(async () => {
      await session?.close();
    });

    it('speaks two phrases as audible mu-law and completes after end', async () => {
      const u = session.utterance('real-two-phrases');
      speakTwoPhrases(u);
      const { bytes } = await collect(u);
      expectAudible(bytes);
      // At least about a second of speech for two short sentences, at most a minute.
      expect(bytes.length).toBeGreaterThan(8_000 * 0.8);
      expect(bytes.length).toBeLessThan(8_000 * 60);
    });

    it('keeps consecutive utterances apart and ends a cancelled one at once', async () => {
      const { chunksAfterCancel } = await speakAndCancel(session.utterance('real-barge-in'));
      expect(chunksAfterCancel).toBe(0);
      const next = session.utterance('real-next');
      next.pushText('Okay.');
      next.end();
      const { bytes } = await collect(next);
      expectAudible(bytes);
      // "Okay." is well under three seconds: none of the long interrupted reply leaked in.
      expect(bytes.length).toBeLessThan(8_000 * 3);
    });
  });
}
