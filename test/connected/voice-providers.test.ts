/**
 * Invariant: every provider an agent may name carries a whole call — greeting, one caller turn answered,
 * hang-up, history written — through its real adapter against its stand-in. The combinations below use
 * each STT, LLM and TTS provider at least once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VOICE, type STT_PROVIDERS, type TTS_PROVIDERS } from '../../lib/domain/agent.js';
import type { VENDOR_LLM_PROVIDERS } from '../../lib/domain/providers.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { defaultReply } from '../../lib/local/standins/llm-script.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';

type Combo = [(typeof STT_PROVIDERS)[number], (typeof VENDOR_LLM_PROVIDERS)[number], (typeof TTS_PROVIDERS)[number]];
const COMBOS: Combo[] = [
  ['deepgram', 'openai', 'elevenlabs'],
  ['assemblyai', 'anthropic', 'deepgram'],
  ['speechmatics', 'google', 'cartesia'],
  ['openai', 'anthropic', 'elevenlabs'],
];

/** A model each LLM vendor's stand-in knows (the stand-ins refuse unknown models, as the vendors do). */
const MODEL: Record<(typeof VENDOR_LLM_PROVIDERS)[number], string> = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5', google: 'gemini-2.5-flash' };

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'Open today?', finalDelayMs: 50 },
    // The caller's words quoted back (they reached the model), without the default reply's tail: every
    // word is played in real time.
    llm: { ttftMs: 30, tokensPerSecond: 400, reply: (req) => (/summar/i.test(req.messages.system) ? defaultReply(req) : { text: `You said: ${req.messages.turns.filter((t) => t.role === 'user').at(-1)?.text}` }) },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

describe('provider combinations', () => {
  it.each(COMBOS)('stt %s + llm %s + tts %s', async (stt, llm, tts) => {
    const agent = await vp.agent({
      stt_provider: stt,
      llm_provider: llm,
      llm_model: MODEL[llm],
      tts_provider: tts,
      tts_voice_id: DEFAULT_VOICE[tts],
      first_message: 'Hello.',
    });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    const before = caller.echoed.length;
    await caller.play(tone(600));
    const until = performance.now() + 30_000;
    while (caller.echoed.length === before && performance.now() < until) await caller.pause(20);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    // Vendors differ in casing and punctuation of the same words (some stand-ins mimic unformatted output).
    expect(String(record.callTranscript).split('\n')).toEqual([
      'agent: Hello.',
      expect.stringMatching(/^user: open today\??$/i),
      expect.stringMatching(/^agent: You said: open today\??$/i),
    ]);
    expect(record.callEndReason).toBe('customer_hangup');
    expect(record.callSummary).toMatch(/^Summary:/);
  });
});
