/**
 * Invariant: a voice scenario's acoustic conditions are validated at the edge (docs/agent-tests.md,
 * "Voice scenarios"): out-of-range or unknown values are refused by the schema, and conditions that do not
 * fit the scenario (on a chat, a pause in a line the script does not have or in a one-word line) are
 * named by field. The recognizer stand-in hears what the TTS stand-ins synthesize for the browser (16 kHz
 * PCM) as the text they were given, at that rate only, also under a voice test's background noise, and
 * never mistakes other audio for it; phone audio (mu-law) is not registered by the TTS stand-ins.
 */
import { describe, expect, it } from 'vitest';
import { ScenarioCreate, ScenarioUpdate } from '../../lib/domain/agent-test.js';
import { dbfsToRms, MAX_NOISE_DBFS, splitSentence, voiceScenarioIssues } from '../../lib/domain/agent-test-voice.js';
import { GaussianNoise } from '../../lib/media/noise.js';
import { SpokenLines } from '../../lib/local/standins/spoken-lines.js';
import { DEFAULT_TTS_SCRIPT, SegmentPlayer, synthesizeTone } from '../../lib/local/standins/tts-audio.js';
import { PHONE_AUDIO, WIDEBAND_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { linear16ToPcm } from '../../lib/vendors/shared/pcm.js';

const base = { name: 'Noisy', channel: 'voice', persona: { type: 'script', lines: [{ text: 'Where is my order?' }] }, checks: [{ type: 'says', phrase: 'shipped' }] };

describe('voice conditions', () => {
  it('accepts every condition in range and keeps them', () => {
    const conditions = { noiseDbfs: -50, backchannels: true, cough: true, talkOverGreeting: true, pauseMidSentence: { line: 1, ms: 800 }, hangUpMidReply: true };
    const parsed = ScenarioCreate.parse({ ...base, conditions });
    expect(parsed).toMatchObject({ channel: 'voice', conditions });
    expect(voiceScenarioIssues(parsed)).toEqual([]);
    expect(ScenarioCreate.parse(base).conditions).toBeUndefined();
  });

  it('refuses values out of range, of the wrong type, or unknown', () => {
    const refused = [
      { noiseDbfs: MAX_NOISE_DBFS + 1 },
      { noiseDbfs: -91 },
      { noiseDbfs: '-50' },
      { cough: 1 },
      { backchannels: 'often' },
      { pauseMidSentence: { line: 0, ms: 500 } },
      { pauseMidSentence: { line: 1, ms: 199 } },
      { pauseMidSentence: { line: 1, ms: 10_001 } },
      { pauseMidSentence: { line: 1 } },
      { pauseMidSentence: { line: 1, ms: 500, where: 'middle' } },
      { echo: true },
    ];
    for (const conditions of refused) expect(ScenarioCreate.safeParse({ ...base, conditions }).success, JSON.stringify(conditions)).toBe(false);
    expect(ScenarioCreate.safeParse({ ...base, channel: 'phone' }).success).toBe(false);
    expect(ScenarioUpdate.safeParse({ conditions: { thunder: true } }).success).toBe(false);
    expect(ScenarioUpdate.parse({ channel: 'voice', conditions: {} })).toEqual({ channel: 'voice', conditions: {} });
  });

  it('names conditions that do not fit the scenario', () => {
    const lines = [{ text: 'Where is my order?' }, { text: 'Thanks' }];
    expect(voiceScenarioIssues({ channel: 'chat', conditions: { cough: true }, persona: { type: 'script', lines } })).toEqual([{ field: 'conditions', message: expect.stringContaining('voice scenarios only') }]);
    // An empty set of conditions is a clean line, on any channel.
    expect(voiceScenarioIssues({ channel: 'chat', conditions: {}, persona: { type: 'script', lines } })).toEqual([]);
    expect(voiceScenarioIssues({ channel: 'voice', conditions: { pauseMidSentence: { line: 3, ms: 500 } }, persona: { type: 'script', lines } })).toEqual([{ field: 'conditions.pauseMidSentence.line', message: 'the script has 2 line(s)' }]);
    expect(voiceScenarioIssues({ channel: 'voice', conditions: { pauseMidSentence: { line: 2, ms: 500 } }, persona: { type: 'script', lines } })[0]?.field).toBe('conditions.pauseMidSentence.line');
    expect(voiceScenarioIssues({ channel: 'voice', conditions: { pauseMidSentence: { line: 1, ms: 500 } }, persona: { type: 'script', lines } })).toEqual([]);
    expect(voiceScenarioIssues({ channel: 'voice', persona: { type: 'model' } })).toEqual([{ field: 'persona', message: expect.stringContaining('chat channel only') }]);
    expect(voiceScenarioIssues({ channel: 'chat', persona: { type: 'model' } })).toEqual([]);
  });

  it('splits a paused sentence at its middle word and converts levels', () => {
    expect(splitSentence('Could I please get a discount?')).toEqual(['Could I please', 'get a discount?']);
    expect(splitSentence('Where is my  order?')).toEqual(['Where is', 'my order?']);
    expect(dbfsToRms(-20)).toBeCloseTo(3_276.8, 1);
    expect(dbfsToRms(0)).toBe(32_768);
  });
});

/** 16-bit samples `[from, from + n)` of `bytes` (PCM16 LE), with Gaussian noise at `dbfs` added. */
function heard(bytes: Uint8Array, fromMs: number, ms: number, dbfs?: number): Int16Array {
  const pcm = linear16ToPcm(bytes).slice(fromMs * 16, (fromMs + ms) * 16);
  if (dbfs === undefined) return pcm;
  const noise = new GaussianNoise(7);
  const rms = dbfsToRms(dbfs);
  return pcm.map((v) => Math.max(-32768, Math.min(32767, v + Math.round(noise.next() * rms))));
}

describe('the recognizer hears what our TTS spoke for the browser', () => {
  it('registers linear16 syntheses (not mu-law) and recognizes them at their rate, under noise too', async () => {
    const lines = new SpokenLines();
    const play = async (text: string, format = WIDEBAND_AUDIO) => {
      const player = new SegmentPlayer(() => ({ ...DEFAULT_TTS_SCRIPT, realtimeFactor: 0, firstByteDelayMs: 0, spokenLines: lines }), () => undefined, [], format);
      player.speak(text);
      await player.whenIdle();
    };
    await play('Where is my order A17?');
    await play('Thanks, bye', PHONE_AUDIO);
    const order = synthesizeTone('Where is my order A17?', WIDEBAND_AUDIO);
    const other = synthesizeTone('Something else entirely', WIDEBAND_AUDIO);
    expect(lines.recognize(heard(order, 300, 100), 16_000)).toBe('Where is my order A17?');
    // Once recognized, the same line adds no words when speech is detected in it again.
    expect(lines.recognize(heard(order, 600, 100), 16_000)).toBe('');
    expect(lines.recognize(heard(other, 300, 100), 16_000)).toBeUndefined();
    expect(lines.recognize(heard(other, 300, 100, MAX_NOISE_DBFS), 16_000)).toBeUndefined();
    // Not at another rate, and the phone synthesis was not registered.
    expect(lines.recognize(linear16ToPcm(synthesizeTone('Thanks, bye', WIDEBAND_AUDIO)).slice(0, 1_600), 8_000)).toBeUndefined();

    await play('Could I get a discount?');
    const discount = synthesizeTone('Could I get a discount?', WIDEBAND_AUDIO);
    expect(lines.recognize(heard(discount, 400, 100, MAX_NOISE_DBFS), 16_000)).toBe('Could I get a discount?');
    // Louder noise than a voice test allows is not the line any more.
    await play('Another order question');
    expect(lines.recognize(heard(synthesizeTone('Another order question', WIDEBAND_AUDIO), 400, 100, -12), 16_000)).toBeUndefined();
  });
});
