/**
 * Invariant: the agent does not talk over a caller who goes on. A reply the caller has not heard a sound of
 * yet is held while they speak again (session/interruption.ts, "hold"): their next words cancel it and join
 * the turn, so two quick questions, or sentences with ordinary pauses between them, get one answer to all
 * of it, and no agent audio reaches the caller before they are done; a cough instead of words lets the held
 * reply play. A number dictated in groups loses no group.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone, type SimulatedCaller } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { briefReplies, startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
let lines: string[] = [];

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => lines[utterance] ?? 'Thanks.', finalDelayMs: 150 },
    // A model slower to its first token than the caller's pauses are long: its answer would start inside the
    // next sentence if nothing held it.
    llm: { ttftMs: 700, tokensPerSecond: 200, reply: briefReplies((said) => `Answering: ${said}`) },
    tts: { firstByteDelayMs: 50, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

async function greeted(): Promise<SimulatedCaller> {
  const caller = await vp.call(await vp.agent({ first_message: 'Hello.' }));
  await caller.waitFor((m) => m.event === 'mark');
  await caller.whenIdle();
  return caller;
}

/** The caller's sentences with `gapMs` of silence between them; then the agent's first audio and the transcript. */
async function sentences(said: string[], gapMs: number, sounds: number[] = said.map(() => 800)) {
  lines = said;
  const caller = await greeted();
  const before = caller.received.length;
  for (const [i, ms] of sounds.entries()) {
    if (i > 0) await caller.pause(gapMs);
    await caller.play(tone(ms));
  }
  // The answer to all of it is asked after the caller's last sound, and plays after that.
  const doneAt = caller.received.length;
  const last = said.at(-1)!;
  await waitUntil(() => vp.platform.voice.llm.control.requestsFor('openai').some((r) => !/summar/i.test(JSON.stringify(r.body)) && JSON.stringify(r.body).includes(last)) || undefined);
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, caller.received.length);
  await caller.whenIdle();
  await caller.pause(200);
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, unknown>;
  const spokeEarly = caller.received.slice(before, doneAt).filter((m) => m.event === 'media').length;
  return { transcript: String(record.callTranscript).split('\n'), spokeEarly };
}

describe('a caller who goes on', () => {
  it('asks two questions 0.6 s apart: one answer to both, and nothing of the agent while the second is asked', async () => {
    const { transcript, spokeEarly } = await sentences(['Do you have rye bread?', 'And croissants?'], 600);
    expect(spokeEarly).toBe(0);
    expect(transcript).toEqual(['agent: Hello.', 'user: Do you have rye bread? And croissants?', 'agent: Answering: Do you have rye bread? And croissants?']);
  });

  it('talks on with 500 ms pauses between sentences: answered once, at the end', async () => {
    const said = ['I want to book a table.', 'It is for my mother.', 'She turns eighty on Friday.'];
    const { transcript, spokeEarly } = await sentences(said, 500);
    expect(spokeEarly).toBe(0);
    expect(transcript).toEqual(['agent: Hello.', `user: ${said.join(' ')}`, `agent: Answering: ${said.join(' ')}`]);
  });

  it('dictates a number in groups with 1 s pauses: every group reaches the transcript and the model', async () => {
    const groups = ['Four one five.', 'Five five five.', 'Two six seven one.'];
    const asked = vp.platform.voice.llm.control.requestsFor('openai').length;
    const { transcript } = await sentences(groups, 1_000, [700, 700, 900]);
    // Whether the agent had begun between groups is timing; no group is ever lost, and the last answer saw them all.
    const callerSaid = transcript.filter((l) => l.startsWith('user: ')).map((l) => l.slice(6)).join(' ');
    expect(callerSaid).toBe(groups.join(' '));
    const last = vp.platform.voice.llm.control.requestsFor('openai').slice(asked).filter((r) => !/summar/i.test(JSON.stringify(r.body))).at(-1)!;
    const users = (last.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'user').map((m) => m.content).join(' ');
    expect(users).toBe(groups.join(' '));
  });

  it('coughs after the question: the held answer plays once the cough is over', async () => {
    // The cough (150 ms) is shorter than the recognizer's least speech: no words, no second utterance.
    const { transcript } = await sentences(['What time do you open?'], 550, [800, 150]);
    expect(transcript).toEqual(['agent: Hello.', 'user: What time do you open?', 'agent: Answering: What time do you open?']);
  });
});
