/**
 * Invariant: a vendor that stays down does not end the call while the agent has a fallback for it, through
 * the real adapters and the vendors' wire protocols (stand-ins on loopback).
 * - The agent's model answering 503 to every request: the turn is tried on it again, then answered by the
 *   agent's `fallback.llm` model at another vendor; the caller hears that answer and the call goes on.
 * - The agent's transcriber refusing every connection after its socket dropped: the call moves to the
 *   `fallback.stt` transcriber, which hears the caller's next turn; the call goes on.
 * - Every transcriber down: the caller hears the apology, then the call ends as `error`.
 * - Every model down (the agent's and its fallback): each turn gets "say it again" (the existing path); the
 *   third failed turn in a row gets the failure line, then the call ends as `error`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speech, type SimulatedCaller } from '../../lib/local/simulated-caller.js';
import type { Agent } from '../../lib/domain/agent.js';
import { greeted as greetedBy, sayAndHearAnswer as sayAndHear, startVoicePlatform, transcriptOf as transcriptIn, type VoicePlatform, waitUntil } from './voice-harness.js';

const SAID = 'I would like to book a table for two tomorrow at seven.';
const GREETING = 'Hello, Luigi speaking.';
const ANSWER = 'A table for two, noted.';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => SAID, finalDelayMs: 50 },
    llm: {
      ttftMs: 50,
      tokensPerSecond: 400,
      reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: ANSWER }),
    },
    tts: { firstByteDelayMs: 30, realtimeFactor: 1 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

const greeted = (agent: Agent) => greetedBy(vp, agent);
const sayAndHearAnswer = (caller: SimulatedCaller) => sayAndHear(caller, SAID);
const transcriptOf = (callId: string) => transcriptIn(vp, callId);

const APOLOGY = 'Sorry, I missed that. Could you say it again?';
const FAILURE = 'Sorry, we are having technical trouble and have to end the call. Please call back in a few minutes.';

describe('vendor fallbacks', () => {
  it("answers the turn with the fallback model when the agent's model is down", async () => {
    const llm = vp.platform.voice.llm.control;
    const agent = await vp.agent({ first_message: GREETING, fallback: { llm: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }] } });
    const caller = await greeted(agent);
    const seen = llm.requests.length;
    llm.failNext(503, 1_000, { vendor: 'openai' });
    try {
      await sayAndHearAnswer(caller);
    } finally {
      llm.failNext(503, 0);
    }
    const requests = llm.requests.slice(seen);
    const openai = requests.filter((r) => r.vendor === 'openai');
    const anthropic = requests.filter((r) => r.vendor === 'anthropic');
    // The agent's model was asked, and asked again after the adapter's own retries, then the fallback.
    expect(openai.length).toBeGreaterThanOrEqual(2);
    expect(openai.every((r) => r.status === 503)).toBe(true);
    expect(anthropic).toHaveLength(1);
    expect(anthropic[0]).toMatchObject({ status: 200, outcome: 'completed', body: expect.objectContaining({ model: 'claude-haiku-4-5' }) });
    expect(requests.indexOf(anthropic[0]!)).toBe(requests.length - 1);
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(await transcriptOf(ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${ANSWER}`]);
  }, 60_000);

  it('hears the caller through the fallback transcriber when the STT vendor stays down', async () => {
    const dg = vp.platform.voice.stt.control.deepgram!;
    const aai = vp.platform.voice.stt.control.assemblyai!;
    const agent = await vp.agent({ first_message: GREETING, fallback: { stt: [{ provider: 'assemblyai' }] } });
    try {
      const caller = await greeted(agent);
      const aaiBefore = aai.connections;
      // Every reconnect is refused, then the open socket goes.
      dg.failNext(100, 503);
      dg.dropAll(1011);
      await waitUntil(() => aai.connections > aaiBefore || undefined);
      await sayAndHearAnswer(caller);
      caller.hangUp();
      const ended = await vp.nextCallEnded();
      expect(ended.outcome.reason).toBe('customer_hangup');
      // AssemblyAI's unformatted words (the adapter asks for format_turns=false): the fallback heard the turn.
      const unformatted = SAID.toLowerCase().replace(/[.,]/g, '');
      expect(await transcriptOf(ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${unformatted}`, `agent: ${ANSWER}`]);
      const heard = aai.sessions.filter((s) => s.index >= aaiBefore).flatMap((s) => s.frames).filter((f) => f.dir === 'in' && f.kind === 'binary');
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      dg.reset();
    }
  }, 60_000);

  it('apologizes, then ends the call as error, when every transcriber stays down', async () => {
    const dg = vp.platform.voice.stt.control.deepgram!;
    const aai = vp.platform.voice.stt.control.assemblyai!;
    const agent = await vp.agent({ first_message: GREETING, fallback: { stt: [{ provider: 'assemblyai' }] } });
    try {
      const caller = await greeted(agent);
      const heardBefore = caller.echoed.length;
      const aaiRefusedBefore = aai.rejected.length;
      dg.failNext(100, 503);
      aai.failNext(100, 503);
      dg.dropAll(1011);
      const closed = await caller.closed;
      expect(closed.reason).toBe('error');
      // The fallback was tried before giving up, and the apology played before the stream closed.
      expect(aai.rejected.length).toBeGreaterThan(aaiRefusedBefore);
      expect(caller.echoed.slice(heardBefore).some((e) => !e.flushed)).toBe(true);
      const ended = await vp.nextCallEnded();
      expect(ended.outcome.reason).toBe('error');
      expect(await transcriptOf(ended.callId)).toEqual([
        `agent: ${GREETING}`,
        `agent: ${FAILURE}`,
      ]);
    } finally {
      dg.reset();
      aai.reset();
    }
  }, 60_000);

  it('apologizes per failed turn, then ends the call as error, when every model stays down', async () => {
    const llm = vp.platform.voice.llm.control;
    const agent = await vp.agent({ first_message: GREETING, fallback: { llm: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }] } });
    const caller = await greeted(agent);
    const seen = llm.requests.length;
    llm.failNext(503, 1_000);
    try {
      // Two turns: every model fails, and the caller is asked to say it again.
      await sayAndHearAnswer(caller);
      await sayAndHearAnswer(caller);
      // The third failed turn in a row means the models are down: the failure line, then the hang-up.
      await caller.play(await speech(SAID));
      const closed = await caller.closed;
      expect(closed.reason).toBe('error');
    } finally {
      llm.failNext(503, 0);
    }
    const requests = llm.requests.slice(seen);
    expect(requests.filter((r) => r.vendor === 'anthropic').length).toBeGreaterThanOrEqual(3);
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('error');
    expect(await transcriptOf(ended.callId)).toEqual([
      `agent: ${GREETING}`,
      `user: ${SAID}`,
      `agent: ${APOLOGY}`,
      `user: ${SAID}`,
      `agent: ${APOLOGY}`,
      `user: ${SAID}`,
      `agent: ${FAILURE}`,
    ]);
  }, 90_000);
});
