import { afterAll, beforeAll } from 'vitest';
import type { SimulatedCaller } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';

/**
 * The platform of the noisy-line files (voice-noisy-caller, voice-noisy-interrupt: split so they run on two
 * workers): steady background noise under the caller, a recognizer that hears what the test says it hears.
 */
export const GREETING = 'Hello and welcome to Luigi, where every evening we serve fresh pasta and wood fired pizza.';
/** RMS on the 16-bit scale: about -44 dBFS, a loud street under a phone call. */
export const NOISE = 200;
export const ANSWER = 'Of course.';

export interface NoisyLine {
  readonly vp: VoicePlatform;
  /** What the recognizer "hears" in each utterance of the current test. */
  heard: string[];
}

/** Starts the platform before the file's tests and stops it after them. */
export function useNoisyLine(): NoisyLine {
  const line = { heard: [] as string[] } as { vp: VoicePlatform; heard: string[] };
  beforeAll(async () => {
    line.vp = await startVoicePlatform({
      stt: { transcripts: ({ utterance }) => line.heard[utterance] ?? '', finalDelayMs: 50 },
      llm: { ttftMs: 50, tokensPerSecond: 400, reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: ANSWER }) },
      tts: { firstByteDelayMs: 30, realtimeFactor: 1 },
    });
  });
  afterAll(async () => {
    await line.vp?.stop();
  });
  return line;
}

export const clears = (caller: SimulatedCaller) => caller.received.filter((m) => m.event === 'clear').length;

/** Hangs up and reads the call's transcript from history, a line a turn. */
export async function hangUpForTranscript(vp: VoicePlatform, caller: SimulatedCaller): Promise<string[]> {
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, unknown>;
  return String(record.callTranscript).split('\n');
}
