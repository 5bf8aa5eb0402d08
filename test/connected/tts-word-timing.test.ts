// Invariant: where the vendor gives word timing, the adapter hands it on per utterance, in ms from the
// utterance's audio start, words numbered in order across phrases: ElevenLabs from the character
// `alignment` of each audio message, Cartesia from its `timestamps` messages (asked for with
// `add_timestamps`). Deepgram Aura gives none. Expected values are the stand-ins' documented tone timing
// (70 ms per character of the trimmed text) worked out by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { startTtsStandins, type TtsStandins } from '../../lib/local/standins/tts.js';
import { createTtsProvider } from '../../lib/vendors/tts/index.js';
import type { TtsProviderId, TtsWordTiming } from '../../lib/vendors/tts/port.js';

let tts: TtsStandins;

beforeAll(async () => {
  tts = await startTtsStandins(loadConfig({}), { firstByteDelayMs: 0, realtimeFactor: 0 });
});
afterAll(async () => {
  await tts?.stop();
});

/** Speaks two phrases as one utterance; returns the words and the audio length. */
async function speak(id: TtsProviderId): Promise<{ words: TtsWordTiming[]; bytes: number }> {
  const session = await createTtsProvider(id, loadConfig(tts.env)).connect({ voiceId: DEFAULT_VOICE[id] });
  try {
    const u = session.utterance('u1');
    u.pushText('Hi there, Ada. ');
    u.flush();
    u.pushText('Table for two. ');
    u.flush();
    u.end();
    const words: TtsWordTiming[] = [];
    let bytes = 0;
    for await (const chunk of u.audio) {
      words.push(...(chunk.words ?? []));
      bytes += chunk.audio.length;
    }
    return { words, bytes };
  } finally {
    await session.close();
  }
}

// "Hi there, Ada." is 14 characters (980 ms), then "Table for two." from 980 ms.
const EXPECTED = [
  { index: 0, word: 'Hi', startMs: 0, endMs: 140 },
  { index: 1, word: 'there,', startMs: 210, endMs: 630 },
  { index: 2, word: 'Ada.', startMs: 700, endMs: 980 },
  { index: 3, word: 'Table', startMs: 980, endMs: 1_330 },
  { index: 4, word: 'for', startMs: 1_400, endMs: 1_610 },
  { index: 5, word: 'two.', startMs: 1_680, endMs: 1_960 },
];

describe('word timing', () => {
  it.each(['elevenlabs', 'cartesia'] as const)('%s: every word, in order, timed from the utterance start', async (id) => {
    const { words, bytes } = await speak(id);
    expect(words).toEqual(EXPECTED);
    expect(bytes).toBe(1_960 * 8);
  });

  it('Deepgram Aura gives none', async () => {
    const { words, bytes } = await speak('deepgram');
    expect(words).toEqual([]);
    expect(bytes).toBe(1_960 * 8);
  });
});
