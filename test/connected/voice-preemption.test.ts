/**
 * Invariant: a call asks its model ahead of the turn (docs/voice-pipeline.md, "Preemptive generation") once
 * the caller is silent and the recognizer's words look complete: the request for the turn reaches the model
 * before the recognizer has ended the turn, and it is the only request of that turn (reused, not asked
 * again). An agent with `turn_taking.preemptive_generation: false` asks only after the turn ended; words
 * that stop where a sentence cannot are never asked ahead. Nothing is said that the caller did not hear
 * answered: the transcript holds one answer per turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone, type SimulatedCaller } from '../../lib/local/callers/simulated-caller.js';
import { defaultReply } from '../../lib/local/standins/llm.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
/** Per request the model saw: the caller's last words, and how many turn ends the recognizer had sent by then. */
const asked: { said: string; turnEndsSent: number }[] = [];

const LINES = ['What time do you open tomorrow?', 'I would like a table for', 'two people.'];

/** `speech_final` results the Deepgram stand-in has sent on all its sessions so far. */
function turnEndsSent(): number {
  return vp.platform.voice.stt.control.deepgram!.sessions
    .flatMap((s) => s.frames)
    .filter((f) => f.dir === 'out' && f.kind === 'text' && (f.json as { speech_final?: boolean }).speech_final === true).length;
}

beforeAll(async () => {
  vp = await startVoicePlatform({
    // A recognizer that takes its time to finalise (the 150-250 ms, and some more): the request
    // started ahead must come before its end of turn by design, whatever the machine's pace.
    stt: { transcripts: ({ utterance }) => LINES[utterance % LINES.length]!, finalDelayMs: 400 },
    llm: {
      ttftMs: 100,
      tokensPerSecond: 400,
      reply: (req) => {
        const { system, turns, endsWithToolResult } = req.messages;
        if (req.responseSchema || endsWithToolResult || /summar/i.test(system)) return defaultReply(req);
        asked.push({ said: turns.filter((t) => t.role === 'user').at(-1)?.text ?? '', turnEndsSent: turnEndsSent() });
        return { text: 'We open at nine.' };
      },
    },
    tts: { firstByteDelayMs: 30, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

/** Plays one caller turn and waits for the agent's answer to have played. */
async function turn(caller: SimulatedCaller): Promise<void> {
  const before = caller.received.length;
  await caller.play(tone(700));
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
  await caller.whenIdle();
}

async function greeted(overrides: Parameters<VoicePlatform['agent']>[0] = {}): Promise<SimulatedCaller> {
  const agent = await vp.agent({ first_message: 'Hello.', ...overrides });
  const caller = await vp.call(agent);
  await caller.waitFor((m) => m.event === 'mark');
  await caller.whenIdle();
  return caller;
}

describe('preemptive generation', () => {
  it('asks the model before the recognizer ends the turn, once, and answers with it', async () => {
    asked.length = 0;
    const endsBefore = turnEndsSent();
    const caller = await greeted();
    await turn(caller);
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    // One request for the turn, sent while the recognizer had not yet ended it.
    expect(asked).toEqual([{ said: 'What time do you open tomorrow?', turnEndsSent: endsBefore }]);
    expect(turnEndsSent()).toBe(endsBefore + 1);
    const latency = ended.outcome.latencies.filter((l) => l.handleId !== 'h1');
    expect(latency).toHaveLength(1);
    expect(latency[0]).toMatchObject({ preempted: true });
    // The model was asked before the turn's end arrived, and answered after: its wait is real, not negative.
    expect(latency[0]!.llmRequestAtMs!).toBeLessThan(latency[0]!.sttFinalAtMs);
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, unknown>;
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Hello.', 'user: What time do you open tomorrow?', 'agent: We open at nine.']);
  });

  it('is off with turn_taking.preemptive_generation false: the model is asked after the turn ended', async () => {
    asked.length = 0;
    const endsBefore = turnEndsSent();
    const caller = await greeted({ turn_taking: { preemptive_generation: false } });
    await turn(caller);
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(asked).toEqual([{ said: 'What time do you open tomorrow?', turnEndsSent: endsBefore + 1 }]);
    expect(ended.outcome.latencies.filter((l) => l.handleId !== 'h1').map((l) => l.preempted ?? false)).toEqual([false]);
  });

  it('never asks ahead on words that stop where a sentence cannot; the held fragment and its end are answered once', async () => {
    asked.length = 0;
    // The recognizer's utterances cycle: skip to the fragment ("I would like a table for") and its end.
    const caller = await greeted();
    await turn(caller);
    asked.length = 0;
    const endsBefore = turnEndsSent();
    await caller.play(tone(700));
    await caller.pause(600);
    const before = caller.received.length;
    await caller.play(tone(500));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    caller.hangUp();
    await vp.nextCallEnded();
    // Asked once, on the whole sentence; the fragment's own end of turn had been sent before, and no request came then.
    expect(asked.map((a) => a.said)).toEqual(['I would like a table for two people.']);
    expect(asked[0]!.turnEndsSent).toBeGreaterThanOrEqual(endsBefore + 1);
  });
});
