import type { SimulatedCaller } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { filePlatform, startVoicePlatform, type VoicePlatform, waitUntil } from './voice-harness.js';

/**
 * The interruption files' platform and helpers (voice-interruptions*.test.ts, split so they run side by
 * side): a recognizer that hears what the current test says it hears, per utterance, and a model that
 * answers every turn with ANSWER.
 */

/**
 * Played in real time (3.8 s), so no longer than the caller's reactions need: each sound starts 0.4 s into
 * it and is heard (or recognized) well before 2 s.
 */
export const GREETING = 'Hello and welcome to Luigi, for fresh pasta and pizza.';
/** The greeting real speech cuts (8 s): long enough that it is still playing whatever the load. */
export const LONG_GREETING =
  'Hello and welcome to Luigi, where every evening we serve fresh pasta, wood fired pizza and wines from our own cellar.';
export const ANSWER = 'Of course.';

export interface InterruptionsFile {
  readonly vp: VoicePlatform;
  /** What the recognizer "hears" in each utterance of the current test (by utterance index). */
  hear(utterances: string[]): void;
  bytes(chunks: readonly Uint8Array[]): number;
  clears(caller: SimulatedCaller): number;
  /** The model's reply requests so far (summaries left out). */
  turnRequests(): readonly unknown[];
  /** Hangs up once the agent is quiet and returns the call's history record. */
  hangUpAndRead(caller: SimulatedCaller): Promise<Record<string, any>>;
  /** Waits until the STT stand-in has sent a final transcript containing `text` on its latest connection. */
  recognized(text: string): Promise<void>;
  /** Waits for the greeting's mark to come back played (not flushed). */
  greetingPlayed(caller: SimulatedCaller): Promise<unknown>;
}

/** Registers the file's hooks and returns the helpers bound to its platform. */
export function interruptionsFile(): InterruptionsFile {
  let heard: string[] = [];
  const started = filePlatform(() =>
    startVoicePlatform({
      stt: { transcripts: ({ utterance }) => heard[utterance] ?? '', finalDelayMs: 50 },
      llm: {
        ttftMs: 50,
        tokensPerSecond: 400,
        reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: ANSWER }),
      },
      // Real-time synthesis: the greeting is still being produced and played while the caller reacts.
      tts: { firstByteDelayMs: 30, realtimeFactor: 1 },
    }),
  );
  return {
    get vp() {
      return started();
    },
    hear(utterances) {
      heard = utterances;
    },
    bytes: (chunks) => chunks.reduce((n, c) => n + c.length, 0),
    clears: (caller) => caller.received.filter((m) => m.event === 'clear').length,
    turnRequests: () => started().platform.voice.llm.control.requestsFor('openai').filter((r) => !JSON.stringify(r.body).includes('ummar')),
    async hangUpAndRead(caller) {
      caller.hangUp();
      const ended = await started().nextCallEnded();
      return (await getHistoryRecord(started().deps.db, started().workspaceId, ended.callId)) as unknown as Record<string, any>;
    },
    async recognized(text) {
      const dg = started().platform.voice.stt.control.deepgram!;
      await waitUntil(() =>
        dg.sessions.at(-1)!.frames.some((f) => f.dir === 'out' && f.kind === 'text' && f.text.includes(text) && f.text.includes('"is_final":true')) || undefined,
      );
    },
    greetingPlayed: (caller) => waitUntil(() => caller.echoed.find((e) => !e.flushed)),
  };
}
