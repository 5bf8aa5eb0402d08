import * as z from 'zod';
import type { ErrorDetail } from './errors.js';

/**
 * Voice agent tests (docs/agent-tests.md, "Voice scenarios"): the acoustic conditions a voice scenario's
 * caller plays under, and the rules that tie them to the scenario's script. Pure: the runner
 * (lib/services/agent-test-voice.ts) turns them into audio.
 */

/**
 * Background noise at most this loud (dBFS RMS): an energy voice detector's threshold is about -40 dBFS
 * (the recognizer stand-in's), so louder noise would read as a caller who never stops talking. -45 is a
 * busy street heard through a headset; -60 a quiet office.
 */
export const MAX_NOISE_DBFS = -45;
export const MIN_NOISE_DBFS = -90;

/** The longest pause inside a sentence: past the agent's longest hold for unfinished words (docs/voice-pipeline.md). */
export const MAX_PAUSE_MS = 10_000;

/** What the caller's line sounds like besides the script. All optional; none: a clean line. */
export const VoiceConditions = z
  .strictObject({
    noiseDbfs: z.number().min(MIN_NOISE_DBFS).max(MAX_NOISE_DBFS).optional().describe('background noise under everything the caller sends, in dBFS RMS (-60 a quiet office, -45 a street)'),
    backchannels: z.boolean().optional().describe('the caller says "uh-huh" about a second into each agent reply that lasts that long'),
    cough: z.boolean().optional().describe("the caller coughs once, 600 ms into the agent's first reply"),
    talkOverGreeting: z.boolean().optional().describe("the first line starts 300 ms into the agent's greeting instead of after it"),
    pauseMidSentence: z
      .strictObject({
        line: z.number().int().min(1).max(20).describe('which script line (1-based) is said in two halves'),
        ms: z.number().int().min(200).max(MAX_PAUSE_MS).describe('the silence between the halves'),
      })
      .optional(),
    hangUpMidReply: z.boolean().optional().describe("after the last line, the caller hangs up 500 ms into the agent's answer"),
  })
  .meta({ id: 'AgentTestVoiceConditions', examples: [{ noiseDbfs: -55, backchannels: true, talkOverGreeting: true, pauseMidSentence: { line: 2, ms: 1200 } }] });
export type VoiceConditions = z.infer<typeof VoiceConditions>;

/** Linear RMS on the 16-bit scale for a level in dBFS. */
export const dbfsToRms = (dbfs: number): number => 32_768 * 10 ** (dbfs / 20);

/**
 * What a scenario's channel, conditions and script must agree on, as validation details (empty: fine).
 * A voice scenario's caller is a script. Conditions are sounds on a line, so a chat has none; a sentence paused in the middle must exist and
 * have two words to pause between.
 */
export function voiceScenarioIssues(s: { channel?: string; conditions?: VoiceConditions | undefined; persona?: { type: string; lines?: readonly { text: string }[] } }): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  // A model writes a caller's lines one request at a time, between turns; a voice call's caller speaks on a clock.
  if (s.channel === 'voice' && s.persona?.type === 'model') issues.push({ field: 'persona', message: 'a model persona plays on the chat channel only; a voice scenario takes a script' });
  if (s.conditions === undefined || Object.keys(s.conditions).length === 0) return issues;
  if (s.channel !== 'voice') issues.push({ field: 'conditions', message: 'acoustic conditions apply to voice scenarios only (channel: "voice")' });
  const pause = s.conditions.pauseMidSentence;
  const lines = s.persona?.lines;
  if (pause && lines) {
    const line = lines[pause.line - 1];
    if (!line) issues.push({ field: 'conditions.pauseMidSentence.line', message: `the script has ${lines.length} line(s)` });
    else if (line.text.trim().split(/\s+/).length < 2) issues.push({ field: 'conditions.pauseMidSentence.line', message: 'that line has one word: nothing to pause between' });
  }
  return issues;
}

/** The two halves of a sentence said with a pause between (at the middle word boundary). */
export function splitSentence(text: string): [string, string] {
  const words = text.trim().split(/\s+/);
  const half = Math.ceil(words.length / 2);
  return [words.slice(0, half).join(' '), words.slice(half).join(' ')];
}
