/**
 * Invariant: the adapters speak the fields the vendors' own specs name. ElevenLabs' AsyncAPI spec
 * (elevenlabs/elevenlabs-docs `fern/apis/api/asyncapi.yml`) spells the multi-context socket's final flag
 * `is_final` and the single-context socket's `isFinal`: an utterance completes on either. Cartesia's request
 * takes `language` (docs.cartesia.ai/api-reference/tts/websocket): the adapter sends the session's, `en` when
 * none is given, and the stand-in refuses one Cartesia does not speak.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { startCartesiaStandin } from '../../lib/local/standins/cartesia.js';
import { startElevenLabsStandin } from '../../lib/local/standins/elevenlabs.js';
import type { TtsStandin } from '../../lib/local/standins/tts-audio.js';
import { cartesiaTts } from '../../lib/vendors/tts/cartesia.js';
import { elevenLabsTts } from '../../lib/vendors/tts/elevenlabs.js';
import type { TtsSession, TtsUtterance } from '../../lib/vendors/tts/port.js';

const KEY = 'fields-key';
const SCRIPT = { firstByteDelayMs: 5, chunkMs: 40, realtimeFactor: 0, speech: false } as const;
const standins: TtsStandin[] = [];
const sessions: TtsSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await Promise.all(standins.map((s) => s.stop()));
});

/** Reads an utterance to its end; rejects (instead of hanging) when it never completes. */
async function spoken(u: TtsUtterance, withinMs = 10_000): Promise<number> {
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const never = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the utterance never completed')), withinMs);
  });
  try {
    return await Promise.race([
      (async () => {
        for await (const chunk of u.audio) bytes += chunk.audio.length;
        return bytes;
      })(),
      never,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function say(session: TtsSession, id: string, text: string): TtsUtterance {
  const u = session.utterance(id);
  u.pushText(`${text} `);
  u.flush();
  u.end();
  return u;
}

describe('ElevenLabs: the final flag in both of its spec spellings', () => {
  for (const finalFlag of ['is_final', 'isFinal'] as const) {
    it(`completes an utterance whose end says ${finalFlag}`, async () => {
      const standin = await startElevenLabsStandin({ apiKey: KEY, script: SCRIPT, finalFlag });
      standins.push(standin);
      const session = await elevenLabsTts({ apiKey: KEY, baseUrl: standin.baseUrl }).connect({ voiceId: DEFAULT_VOICE.elevenlabs });
      sessions.push(session);
      expect(await spoken(say(session, 'u1', 'Hello there, caller.'))).toBeGreaterThan(0);
      const finals = standin.connections.at(-1)!.sent.filter((m) => m.json?.[finalFlag] === true);
      expect(finals.map((m) => m.json)).toEqual([{ [finalFlag]: true, contextId: 'u1' }]);
    });
  }
});

describe('Cartesia: language', () => {
  it('sends en when the session names no language, and the session language when it does', async () => {
    const standin = await startCartesiaStandin({ apiKey: KEY, script: SCRIPT });
    standins.push(standin);
    const provider = cartesiaTts({ apiKey: KEY, baseUrl: standin.baseUrl });
    const plain = await provider.connect({ voiceId: DEFAULT_VOICE.cartesia });
    sessions.push(plain);
    expect(await spoken(say(plain, 'plain', 'Hello.'))).toBeGreaterThan(0);
    const french = await provider.connect({ voiceId: DEFAULT_VOICE.cartesia, language: 'fr' });
    sessions.push(french);
    expect(await spoken(say(french, 'french', 'Bonjour.'))).toBeGreaterThan(0);
    const languages = (id: string) =>
      standin.connections.flatMap((c) => c.contexts.get(id)?.received.map((m) => m.json?.language) ?? []);
    expect(new Set(languages('plain'))).toEqual(new Set(['en']));
    expect(new Set(languages('french'))).toEqual(new Set(['fr']));
  });

  it('the stand-in refuses a language Cartesia does not speak, as Cartesia answers a bad request', async () => {
    const standin = await startCartesiaStandin({ apiKey: KEY, script: SCRIPT });
    standins.push(standin);
    const session = await cartesiaTts({ apiKey: KEY, baseUrl: standin.baseUrl }).connect({ voiceId: DEFAULT_VOICE.cartesia, language: 'xx' });
    sessions.push(session);
    await expect(spoken(say(session, 'odd', 'Hello.'))).rejects.toThrow(/language xx is not supported/);
  });
});
