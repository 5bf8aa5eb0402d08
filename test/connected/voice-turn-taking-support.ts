import { beforeEach } from 'vitest';
import { speech } from '../../lib/local/callers/simulated-caller.js';
import type { Agent } from '../../lib/domain/agent.js';
import { filePlatform, greeted, startVoicePlatform, transcriptOf, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

/**
 * The turn-taking files' platform (voice-turn-taking*.test.ts, split so they run side by side): a
 * recognizer that hears FIRST in a call's first utterance and REST after it, and a model that answers
 * ANSWER and notes the last user turn of every reply request.
 */

// Short lines: each is played in real time; what matters is the fragment's last word ("for") and the pause.
export const GREETING = 'Hello, Luigi.';
export const FIRST = 'A table for';
export const REST = 'two at seven.';
export const ANSWER = 'Noted.';

export interface TurnTakingFile {
  readonly vp: VoicePlatform;
  /** The last user turn of every reply request of the current test (summaries left out), in order. */
  readonly answered: readonly string[];
  /** The caller says FIRST, stops for `pauseMs`, says REST, and hears the answer out; then hangs up. */
  pausedSentence(agent: Agent, pauseMs: number): Promise<{ transcript: string[] }>;
}

/** Registers the file's hooks (platform, and the recognizer's script reset before each test). */
export function turnTakingFile(): TurnTakingFile {
  let answered: string[] = [];
  const started = filePlatform(() =>
    startVoicePlatform({
      stt: { transcripts: ({ utterance }) => (utterance === 0 ? FIRST : REST), finalDelayMs: 50 },
      llm: {
        ttftMs: 30,
        tokensPerSecond: 400,
        reply: (req) => {
          if (/summar/i.test(req.messages.system)) return { text: 'Summary.' };
          answered.push(req.messages.turns.filter((t) => t.role === 'user').at(-1)?.text ?? '');
          return { text: ANSWER };
        },
      },
      tts: { firstByteDelayMs: 20, realtimeFactor: 1 },
    }),
  );
  beforeEach(() => {
    answered = [];
    started().platform.voice.stt.control.deepgram!.setScript({ transcripts: ({ utterance }) => (utterance === 0 ? FIRST : REST), finalDelayMs: 50 });
  });
  return {
    get vp() {
      return started();
    },
    get answered() {
      return answered;
    },
    async pausedSentence(agent, pauseMs) {
      const caller = await greeted(started(), agent);
      const [first, rest] = await Promise.all([speech(FIRST), speech(REST)]);
      const before = caller.received.length;
      await caller.play(first);
      await caller.pause(pauseMs);
      await caller.play(rest);
      await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
      await caller.whenIdle();
      caller.hangUp();
      const ended = await started().nextCallEnded();
      return { transcript: await transcriptOf(started(), ended.callId) };
    },
  };
}
