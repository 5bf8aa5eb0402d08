/**
 * Invariant: an agent turn through ElevenLabs or Cartesia is one vendor context, phrases streamed into it
 * (one prosody, one of ElevenLabs' five contexts a socket), and still each phrase's audio and mark reach
 * the caller's side in order, each phrase credited with its own audio and word timing (what history keeps
 * of a cut phrase depends on it). Cartesia drops a context 1 s after its last audio: a phrase that comes
 * later goes to a new context instead of the vendor's error. Through the real adapters, the speaker and the
 * stand-ins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { startCartesiaStandin } from '../../lib/local/standins/cartesia.js';
import { startElevenLabsStandin } from '../../lib/local/standins/elevenlabs.js';
import { toneBytes, TONE_MS_PER_CHAR, type TtsStandin } from '../../lib/local/standins/tts-audio.js';
import { cartesiaTts } from '../../lib/vendors/tts/cartesia.js';
import { elevenLabsTts } from '../../lib/vendors/tts/elevenlabs.js';
import type { TtsSession } from '../../lib/vendors/tts/port.js';
import type { AudioOut } from '../../streaming-service/src/session/audio-out.js';
import { Speaker } from '../../streaming-service/src/session/speaker.js';
import { SpeechHandle } from '../../streaming-service/src/session/speech-handle.js';

const KEY = 'turn-key';
/** Fast audio: the test is about what goes on the wire and where each phrase's audio ends. */
const SCRIPT = { firstByteDelayMs: 5, chunkMs: 40, realtimeFactor: 0, speech: false } as const;
const PHRASES = ['Sure, we have a table.', 'It is by the window.', 'Shall I book it for you?', 'It takes a minute.'] as const;

const VENDORS = [
  {
    id: 'elevenlabs',
    start: () => startElevenLabsStandin({ apiKey: KEY, script: SCRIPT }),
    connect: (s: TtsStandin) => elevenLabsTts({ apiKey: KEY, baseUrl: s.baseUrl }).connect({ voiceId: DEFAULT_VOICE.elevenlabs }),
  },
  {
    id: 'cartesia',
    start: () => startCartesiaStandin({ apiKey: KEY, script: SCRIPT }),
    connect: (s: TtsStandin) => cartesiaTts({ apiKey: KEY, baseUrl: s.baseUrl }).connect({ voiceId: DEFAULT_VOICE.cartesia }),
  },
] as const;

/** What reached the caller's side: audio bytes and marks, in order. */
function recorder() {
  const events: ({ mark: string } | { bytes: number })[] = [];
  const out = {
    enqueueAudio: (_id: string, audio: Uint8Array) => void events.push({ bytes: audio.length }),
    enqueueMark: (_id: string, mark: string) => void events.push({ mark }),
  } as unknown as AudioOut;
  /** Audio bytes between one mark and the next, per mark. */
  const perMark = () => {
    const out: number[] = [];
    let bytes = 0;
    for (const e of events) {
      if ('bytes' in e) bytes += e.bytes;
      else {
        out.push(bytes);
        bytes = 0;
      }
    }
    return out;
  };
  return { out, events, perMark };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(VENDORS)('$id: one context per agent turn', (vendor) => {
  let standin: TtsStandin;
  const sessions: TtsSession[] = [];
  beforeAll(async () => {
    standin = await vendor.start();
  });
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    await standin.stop();
  });
  const connect = async () => {
    const session = await vendor.connect(standin);
    sessions.push(session);
    return { session, connection: standin.connections.at(-1)! };
  };

  it('speaks a four-phrase turn in one context, each phrase followed by its mark and credited with its own audio and words', async () => {
    const { session, connection } = await connect();
    const handle = new SpeechHandle('turn-1', 'reply');
    const rec = recorder();
    const errors: unknown[] = [];
    const speaker = new Speaker(handle, session, rec.out, (e) => errors.push(e));
    for (const p of PHRASES) speaker.say(p, 0);
    speaker.end();
    await speaker.done;
    expect(errors).toEqual([]);
    expect(connection.contexts.size).toBe(1);
    expect(rec.perMark()).toEqual(PHRASES.map((p) => toneBytes(p)));
    const phrases = handle.phrases;
    expect(phrases.map((p) => p.audioBytes)).toEqual(PHRASES.map((p) => toneBytes(p)));
    // Each phrase's word timing counts from its own audio: its last word ends at its own end.
    for (const [i, p] of phrases.entries()) {
      const words = PHRASES[i]!.split(' ');
      expect(p.wordEndsMs).toHaveLength(words.length);
      expect(p.wordEndsMs![0]).toBe(words[0]!.length * TONE_MS_PER_CHAR);
      expect(p.wordEndsMs!.at(-1)).toBe(PHRASES[i]!.length * TONE_MS_PER_CHAR);
    }
  });

  it('keeps a phrase that comes long after the rest of the turn: spoken whole, after its mark-ended predecessor', async () => {
    const { session, connection } = await connect();
    const handle = new SpeechHandle('turn-2', 'reply');
    const rec = recorder();
    const errors: unknown[] = [];
    const speaker = new Speaker(handle, session, rec.out, (e) => errors.push(e));
    speaker.say(PHRASES[0], 0);
    // A tool call in the middle of the turn: the next phrase is 1.2 s later, past Cartesia's context expiry.
    await sleep(1_200);
    speaker.say(PHRASES[1], 1);
    speaker.end();
    await speaker.done;
    expect(errors).toEqual([]);
    expect(rec.perMark()).toEqual([toneBytes(PHRASES[0]), toneBytes(PHRASES[1])]);
    expect(connection.sent.filter((m) => m.json?.type === 'error')).toEqual([]);
    // Cartesia: a second context; ElevenLabs' contexts live 20 s, so its turn stays in one.
    expect(connection.contexts.size).toBe(vendor.id === 'cartesia' ? 2 : 1);
  });
});
