/**
 * Invariant: a connected call's history record says, per caller turn, what the caller waited (from the end
 * of their speech to the first agent audio) and which stage took how much of it, consistent with the turn's
 * own stage figures: the parts are whole milliseconds that add up to the wait, none longer than it, and,
 * for a turn answered in order, each equals the stage's figure. A turn the caller interrupted while the
 * agent was still thinking has no wait (null), not 0. The API answers the same figures, the call's summary
 * of them, and the timeline's turn events carry them too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallerWaitFigures } from '../../lib/domain/caller-wait.js';
import type { TurnLatencyFigures } from '../../lib/domain/call-measurement.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { WAIT_MS } from '../support/progress.js';
import { briefReplies, startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => ['I would like a table.', 'For two people.', 'No, make it four people.'][utterance] ?? 'Thanks.', finalDelayMs: 50 },
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: briefReplies((said) => (/table/.test(said) ? 'For how many?' : /four/.test(said) ? 'Four it is.' : 'Sorry?')) },
    tts: { firstByteDelayMs: 30, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

/** The turn requests the model saw (the summary's left out). */
const turnRequests = () => vp.platform.voice.llm.control.requestsFor('openai').filter((r) => !/summar/i.test(JSON.stringify(r.body)));

/** The relations of an answered turn's wait with its stage figures. */
function expectConsistent(turn: TurnLatencyFigures, wait: CallerWaitFigures): void {
  const { totalMs, otherMs, ...parts } = wait;
  for (const part of [totalMs, otherMs, ...Object.values(parts)]) {
    expect(Number.isInteger(part), `${JSON.stringify(wait)}: whole milliseconds`).toBe(true);
    expect(part).toBeGreaterThanOrEqual(0);
    expect(part).toBeLessThanOrEqual(totalMs);
  }
  expect(Object.values(parts).reduce<number>((sum, part) => sum + (part ?? 0), otherMs)).toBe(totalMs);
  // Answered in order, each stage lay wholly inside the wait: its share is its own figure, to the rounding.
  expect(Math.abs(wait.endOfTurnMs - turn.sttMs!)).toBeLessThanOrEqual(1);
  expect(Math.abs(wait.llmFirstTokenMs! - turn.llmFirstTokenMs!)).toBeLessThanOrEqual(1);
  expect(Math.abs(wait.llmFirstPhraseMs! - turn.llmFirstPhraseMs!)).toBeLessThanOrEqual(1);
  expect(Math.abs(wait.ttsFirstByteMs! - turn.ttsFirstByteMs!)).toBeLessThanOrEqual(1);
  expect(wait.llmFirstTokenMs).toBeGreaterThan(0);
  expect(wait.ttsFirstByteMs).toBeGreaterThan(0);
}

describe("the caller's wait", () => {
  it('is on the record per turn with its parts, null for a turn interrupted before the agent spoke', async () => {
    // Asked only once each turn has ended, so every stage lies inside the caller's wait (asked ahead, the
    // model's share is only what came after the turn's end: test/connected/voice-preemption.test.ts).
    const agent = await vp.agent({ first_message: 'Luigi, hello.', turn_taking: { preemptive_generation: false } });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark', WAIT_MS);
    await caller.whenIdle(WAIT_MS);

    // Turn 1, answered.
    let before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle(WAIT_MS);

    // Turn 2: the model says nothing until it is aborted (a stalled request: the first-token timeout, 6 s,
    // is what would end it), and the caller goes on before it does: the reply is cut before any audio.
    const asked = turnRequests().length;
    vp.platform.voice.llm.control.failNext('stall', 1);
    await caller.play(tone(600));
    const stalled = await waitUntil(() => turnRequests()[asked], WAIT_MS);
    // The request may have been asked ahead of the turn (preemptive generation): turn 3 starts once the
    // recognizer has ended turn 2 and the agent is thinking on it, or it would be the same utterance.
    await waitUntil(() => ([...vp.platform.voice.streaming.sessions].some((s) => s.setup.agent._id === agent._id && s.state.state === 'thinking') ? true : undefined), WAIT_MS);
    // Turn 3 interrupts the thinking agent and is answered.
    before = caller.received.length;
    await caller.play(tone(600));
    expect(await stalled.settled).toBe('aborted');
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle(WAIT_MS);
    // Let the last mark echo reach the service before hanging up.
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded(WAIT_MS);
    expect(ended.outcome.events?.data.filter((e) => e.type === 'interruption')).toHaveLength(1);

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as { turnLatencies: TurnLatencyFigures[]; callTranscript: string };
    expect(record.callTranscript.split('\n').filter((l) => l.startsWith('agent:'))).toEqual(['agent: Luigi, hello.', 'agent: For how many?', 'agent: Four it is.']);
    const [first, cut, third] = record.turnLatencies;
    expect(record.turnLatencies).toHaveLength(3);
    expectConsistent(first!, first!.callerWait!);
    expectConsistent(third!, third!.callerWait!);
    // The interrupted turn: its end of turn is known, the rest never happened; the caller heard no answer.
    expect(cut!.sttMs).not.toBeNull();
    expect(cut!.llmFirstTokenMs).toBeNull();
    expect(cut!.callerWait).toBeNull();

    // The API answers the same, and the call's summary of the two waits.
    const read = await vp.api('GET', `/api/history/${ended.callId}`, undefined);
    expect(read.status).toBe(200);
    const body = read.body as { turnLatencies: TurnLatencyFigures[]; latencySummary: unknown };
    expect(body.turnLatencies).toEqual(record.turnLatencies);
    const waits = [first!.callerWait!.totalMs, third!.callerWait!.totalMs].sort((a, b) => a - b);
    expect(body.latencySummary).toEqual({ turns: 3, measuredTurns: 2, callerWaitP50Ms: waits[0], callerWaitP90Ms: waits[1], callerWaitMaxMs: waits[1] });
    // The timeline's turn events carry each turn's wait, in order.
    const events = await vp.api('GET', `/api/history/${ended.callId}/events`, undefined);
    const turns = (events.body as { data: { type: string; callerWait?: unknown }[] }).data.filter((e) => e.type === 'turn');
    expect(turns.map((e) => e.callerWait)).toEqual(record.turnLatencies.map((t) => t.callerWait));
  });
});
