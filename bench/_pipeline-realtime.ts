/**
 * The pipeline benchmark's speech-to-speech level (bench/pipeline.ts; docs/benchmarks.md, "Realtime beside
 * the cascade"): one call whose agent sets `realtime` (the OpenAI Realtime stand-in, then the Gemini Live
 * one) runs the voice-to-voice caller of the `turns` levels, beside one cascaded call of the same run with
 * the cascade's realistic delays (TURN_DELAYS). The realtime figure is the same caller-side measure: the end
 * of the caller's audio to the first model audio it receives.
 *
 * The stand-ins' scripted delays (their defaults, lib/local/standins/openai-realtime.ts and gemini-live.ts):
 * server VAD 500 ms of silence to end the turn, the caller's words 80 ms after it (the stand-in's model
 * answers from its transcript), 300 ms from the response's start to its first audio
 * (`firstAudioDelayMs`), then audio at 4x real time. Their sum, 880 ms, is the floor of a realtime turn here,
 * as `vendorSumMs` is the cascade's.
 *
 * `PIPELINE_REALTIME_ONLY=1` runs only this level (with its cascaded call); `PIPELINE_REALTIME=0` leaves it
 * out of a full run.
 */
import { startGeminiLiveStandin } from '../lib/local/standins/gemini-live.js';
import { DEFAULT_REALTIME_SCRIPT, startOpenAiRealtimeStandin } from '../lib/local/standins/openai-realtime.js';
import { DEFAULT_STT_SCRIPT, type SttScript } from '../lib/local/standins/stt-engine.js';
import type { RealtimeConfig } from '../lib/domain/realtime.js';

export const realtimeOnly = process.env.PIPELINE_REALTIME_ONLY === '1';
export const realtimeLevel = process.env.PIPELINE_REALTIME !== '0';

/** The realtime agents measured: each vendor's current flagship and a voice of its own. */
export const REALTIME_AGENTS = {
  openai: { provider: 'openai', model: 'gpt-realtime', voice: 'marin' },
  google: { provider: 'google', model: 'gemini-2.5-flash-native-audio-preview-09-2025', voice: 'Kore' },
} as const satisfies Record<string, RealtimeConfig>;

/** Server VAD silence (both stand-ins' default `silence_duration_ms` / activity detection). */
const VAD_SILENCE_MS = 500;
export const REALTIME_DELAYS = { vadSilenceMs: VAD_SILENCE_MS, transcriptMs: DEFAULT_STT_SCRIPT.finalDelayMs, firstAudioMs: DEFAULT_REALTIME_SCRIPT.firstAudioDelayMs } as const;
export const REALTIME_SCRIPTED_MS = REALTIME_DELAYS.vadSilenceMs + REALTIME_DELAYS.transcriptMs + REALTIME_DELAYS.firstAudioMs;

/** Both realtime stand-ins (load process), hearing the caller's lines by utterance as the cascade's recognizer does. */
export async function startRealtimeStandins(transcripts: SttScript['transcripts']): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const [openai, google] = await Promise.all([startOpenAiRealtimeStandin({ stt: { transcripts } }), startGeminiLiveStandin({ stt: { transcripts } })]);
  return {
    env: { OPENAI_REALTIME_BASE_URL: openai.baseUrl, GOOGLE_LIVE_BASE_URL: google.baseUrl },
    stop: async () => void (await Promise.all([openai.stop(), google.stop()])),
  };
}

export const describeRealtimeDelays = () =>
  `server VAD ${REALTIME_DELAYS.vadSilenceMs} ms of silence + the words ${REALTIME_DELAYS.transcriptMs} ms after + first audio ${REALTIME_DELAYS.firstAudioMs} ms (${REALTIME_SCRIPTED_MS} ms scripted)`;

/** What the realtime summary reads of a level's result (bench/_pipeline-report.ts, LevelResult). */
interface LevelResult {
  readonly stats: { readonly errors: readonly string[]; readonly voiceToVoiceShortMs?: readonly number[]; readonly voiceToVoiceLongMs?: readonly number[] };
}

/** The realtime level's results: one call each, and the cascaded call of the same run. */
export interface RealtimeResults {
  readonly cascade: LevelResult;
  readonly openai: LevelResult;
  readonly google: LevelResult;
}

function pct(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const round = (n: number, digits = 0) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/**
 * The JSON line's realtime figures. The short answers are compared (the cascade's first audio waits for its
 * first phrase; a realtime model's does not depend on the answer's length, so its short and long turns are
 * pooled for the p50 and p90).
 */
export function realtimeSummary(r: RealtimeResults) {
  const samples = (x: LevelResult) => [...(x.stats.voiceToVoiceShortMs ?? []), ...(x.stats.voiceToVoiceLongMs ?? [])];
  const cascade = pct(r.cascade.stats.voiceToVoiceShortMs ?? [], 50);
  const openai = pct(samples(r.openai), 50);
  const google = pct(samples(r.google), 50);
  const summary = {
    realtimeVoiceToVoiceP50Ms: round(openai),
    realtimeVoiceToVoiceP90Ms: round(pct(samples(r.openai), 90)),
    realtimeTurns: samples(r.openai).length,
    geminiVoiceToVoiceP50Ms: round(google),
    geminiVoiceToVoiceP90Ms: round(pct(samples(r.google), 90)),
    geminiTurns: samples(r.google).length,
    realtimeScriptedMs: REALTIME_SCRIPTED_MS,
    cascadeVoiceToVoiceShortP50MsSameRun: round(cascade),
    realtimeToCascadeP50: round(openai / cascade, 3),
    geminiToCascadeP50: round(google / cascade, 3),
  };
  process.stdout.write(
    `\nRealtime beside the cascade (1 call each, same run; scripted: ${describeRealtimeDelays()}): ` +
      `OpenAI Realtime p50 ${summary.realtimeVoiceToVoiceP50Ms} / p90 ${summary.realtimeVoiceToVoiceP90Ms} (${summary.realtimeTurns} turns), ` +
      `Gemini Live p50 ${summary.geminiVoiceToVoiceP50Ms} / p90 ${summary.geminiVoiceToVoiceP90Ms} (${summary.geminiTurns} turns); ` +
      `cascade short p50 ${summary.cascadeVoiceToVoiceShortP50MsSameRun}; ratios ${summary.realtimeToCascadeP50} and ${summary.geminiToCascadeP50}` +
      `${[r.openai, r.google].some((x) => x.stats.errors.length) ? ` (errors: ${[...r.openai.stats.errors, ...r.google.stats.errors].slice(0, 2).join('; ')})` : ''}.\n`,
  );
  return summary;
}
