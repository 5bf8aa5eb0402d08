/**
 * Invariant: a model that is slow to start never leaves the caller in a long silence, through the real call
 * path (Twilio stream, STT, the adapters, TTS; the vendors' stand-ins on loopback). Once the first-token
 * budget (`turn_taking.first_token_budget_ms`, 2 s) has passed without a word:
 * - the caller hears a filler ("One moment, please.") and the agent's `fallback.llm` model is asked at once,
 *   racing the silent request: the fallback's answer follows the filler, the silent request is cancelled,
 *   one answer is heard and only it is counted, and the silence after the caller's turn (on the recording's
 *   own timeline) is far shorter than the primary's own first-token timeout could give;
 * - with no fallback, the filler plays and the agent's own model is asked again at once; its answer follows;
 *   when nothing answers, a "still working" phrase follows the filler and the turn fails after five budgets
 *   (the failure policy's apology), not after every request's own retries;
 * - a text chat gets no filler: its reply is the fallback's answer alone, the silent request cancelled.
 * The budget itself is validated like every `turn_taking` field.
 */
import { describe, expect, it } from 'vitest';
import { speech } from '../../lib/local/callers/simulated-caller.js';
import type { SimulatedCaller } from '../../lib/local/callers/simulated-caller.js';
import type { RecordedLlmRequest } from '../../lib/local/standins/llm.js';
import { recordingKey } from '../../lib/store/recordings.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { DEFAULT_LLM_OPTIONS } from '../../lib/vendors/llm/index.js';
import { PHRASES } from '../../streaming-service/src/call/phrases.js';
import { DEFAULT_FIRST_TOKEN_BUDGET_MS } from '../../streaming-service/src/conversation/llm-chain.js';
import { ChatPage } from '../support/chat-page.js';
import { eventually } from '../support/calls.js';
import { WAIT_MS } from '../support/progress.js';
import { filePlatform, greeted, SHORT_LINES, startVoicePlatform, transcriptOf } from './voice-harness.js';

const SAID = 'A table for two at seven.';
const GREETING = 'Hello, Luigi.';
// Which model spoke is in its words: the agent's (OpenAI) and its fallback (Anthropic) answer differently.
const PRIMARY = 'Primary here.';
const FALLBACK = 'Fallback here.';
const FILLER = PHRASES.en.fillerPhrases[0];
const FALLBACK_LLM = { llm: [{ provider: 'anthropic' as const, model: 'claude-haiku-4-5' }] };

const platform = filePlatform(() =>
  startVoicePlatform({
    stt: { transcripts: () => SAID, finalDelayMs: 50 },
    llm: {
      ttftMs: 50,
      tokensPerSecond: 400,
      reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: req.vendor === 'anthropic' ? FALLBACK : PRIMARY }),
    },
    tts: { firstByteDelayMs: 30, realtimeFactor: 1 },
    session: SHORT_LINES,
  }),
);

/** The caller says the line and waits until `phrases` more agent phrases have played. */
async function sayAndHear(caller: SimulatedCaller, phrases: number): Promise<void> {
  const heard = caller.echoed.filter((e) => !e.flushed).length;
  await caller.play(await speech(SAID));
  await eventually(async () => (caller.echoed.filter((e) => !e.flushed).length >= heard + phrases ? true : undefined), WAIT_MS, `${phrases} agent phrases played`);
  await caller.whenIdle(WAIT_MS);
}

/**
 * The silence the caller heard after their turn, on the call recording's own timeline (caller left at the
 * stream's media timestamps, agent right at its play time): from the caller's last sound to the agent's
 * next one, in ms.
 */
async function silenceAfterCallerTurn(callId: string): Promise<number> {
  const vp = platform();
  const url = await vp.deps.recordings.presignGet(recordingKey(vp.workspaceId, callId), 60);
  const wav = Buffer.from(await (await fetch(url)).arrayBuffer());
  const rate = wav.readUInt32LE(24);
  const frames = (wav.length - 44) / 4;
  const left = (i: number) => Math.abs(wav.readInt16LE(44 + i * 4));
  const right = (i: number) => Math.abs(wav.readInt16LE(44 + i * 4 + 2));
  const LOUD = 1_000;
  let callerFrom = 0;
  while (callerFrom < frames && left(callerFrom) < LOUD) callerFrom += 1;
  let agentFrom = callerFrom;
  while (agentFrom < frames && right(agentFrom) < LOUD) agentFrom += 1;
  let callerTo = agentFrom - 1;
  while (callerTo > callerFrom && left(callerTo) < LOUD) callerTo -= 1;
  expect(callerFrom).toBeLessThan(agentFrom);
  expect(agentFrom).toBeLessThan(frames);
  return ((agentFrom - callerTo) / rate) * 1_000;
}

const usageOf = async (callId: string) => ((await getHistoryRecord(platform().deps.db, platform().workspaceId, callId)) as unknown as { llmUsage: { outputTokens: number } }).llmUsage;

/** The conversation's requests (not the summary's), each once the stand-in saw how it ended. */
async function conversationRequests(requests: readonly RecordedLlmRequest[]): Promise<RecordedLlmRequest[]> {
  const turns = requests.filter((r) => !JSON.stringify(r.body).includes('summar'));
  await Promise.all(turns.map((r) => r.settled));
  return turns;
}

describe('a model slow to start its answer', () => {
  it('with a fallback: a filler at the budget, then the fallback answers; the silent request is cancelled and one answer is heard and counted', async () => {
    const vp = platform();
    const llm = vp.platform.voice.llm.control;
    const agent = await vp.agent({ first_message: GREETING, recording_enabled: true, fallback: FALLBACK_LLM });
    const caller = await greeted(vp, agent);
    const seen = llm.requests.length;
    // Every request to the agent's own model is accepted and never answered.
    llm.failNext('stall', 1_000, { vendor: 'openai' });
    try {
      await sayAndHear(caller, 2);
    } finally {
      llm.failNext('stall', 0);
    }
    const requests = await conversationRequests(llm.requests.slice(seen));
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(await transcriptOf(vp, ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${FILLER} ${FALLBACK}`]);

    // One request each: the agent's model was not retried, the fallback asked beside it, the silent one cancelled once the fallback spoke.
    const [primary, fallback, ...more] = requests;
    expect(more).toEqual([]);
    expect(primary).toMatchObject({ vendor: 'openai', outcome: 'aborted', frames: [] });
    expect(fallback).toMatchObject({ vendor: 'anthropic', status: 200, outcome: 'completed', body: expect.objectContaining({ model: 'claude-haiku-4-5' }) });
    expect(primary!.abortedAtMs!).toBeGreaterThanOrEqual(fallback!.receivedAtMs);
    // Asked before the agent's model could even have timed out by itself: the budget, not the adapter, started it.
    expect(fallback!.receivedAtMs - primary!.receivedAtMs).toBeLessThan(DEFAULT_LLM_OPTIONS.firstTokenTimeoutMs);
    // The caller heard the filler well before the primary's own timeout could have ended the silence.
    expect(await silenceAfterCallerTurn(ended.callId)).toBeLessThan(DEFAULT_LLM_OPTIONS.firstTokenTimeoutMs);
    // Only the answer that was used is counted: the fallback's two words.
    expect((await usageOf(ended.callId)).outputTokens).toBe(2);
    // The turn's figures: the answer's first token came after the budget; the first audio was the filler's,
    // so no share of it is this service's own.
    const record = (await vp.api('GET', `/api/history/${ended.callId}?workspaceId=${vp.workspaceId}`, undefined)).body as { turnLatencies: { llmFirstTokenMs: number; overheadMs: number | null }[] };
    expect(record.turnLatencies).toHaveLength(1);
    expect(record.turnLatencies[0]!.llmFirstTokenMs).toBeGreaterThanOrEqual(DEFAULT_FIRST_TOKEN_BUDGET_MS);
    expect(record.turnLatencies[0]!.overheadMs).toBeNull();
    // The call's timeline names the move and why.
    const events = ((await vp.api('GET', `/api/history/${ended.callId}/events`, undefined)).body as { data: Record<string, unknown>[] }).data;
    expect(events.filter((e) => e.type === 'vendor_fallback')).toEqual([
      expect.objectContaining({ stage: 'llm', vendor: 'openai', to: 'anthropic', message: expect.stringContaining('no first token within 2000 ms') }),
    ]);
  });

  it('without a fallback: the filler plays, the same model is asked again at once, and its answer follows', async () => {
    const vp = platform();
    const llm = vp.platform.voice.llm.control;
    const agent = await vp.agent({ first_message: GREETING, recording_enabled: true });
    const caller = await greeted(vp, agent);
    const seen = llm.requests.length;
    llm.failNext('stall', 1, { vendor: 'openai' });
    await sayAndHear(caller, 2);
    const requests = await conversationRequests(llm.requests.slice(seen));
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(await transcriptOf(vp, ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${FILLER} ${PRIMARY}`]);
    expect(requests.map((r) => [r.vendor, (r.body as { model: string }).model, r.outcome])).toEqual([
      ['openai', agent.llm_model, 'aborted'],
      ['openai', agent.llm_model, 'completed'],
    ]);
    expect(requests[1]!.receivedAtMs - requests[0]!.receivedAtMs).toBeLessThan(DEFAULT_LLM_OPTIONS.firstTokenTimeoutMs);
    expect(await silenceAfterCallerTurn(ended.callId)).toBeLessThan(DEFAULT_LLM_OPTIONS.firstTokenTimeoutMs);
  });

  it('without a fallback and every request silent: filler, then "still working", then the apology; every request cancelled', async () => {
    const vp = platform();
    const llm = vp.platform.voice.llm.control;
    const agent = await vp.agent({ first_message: GREETING });
    const caller = await greeted(vp, agent);
    const seen = llm.requests.length;
    llm.failNext('stall', 1_000, { vendor: 'openai' });
    try {
      await sayAndHear(caller, 3);
    } finally {
      llm.failNext('stall', 0);
    }
    const requests = await conversationRequests(llm.requests.slice(seen));
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(await transcriptOf(vp, ended.callId)).toEqual([
      `agent: ${GREETING}`,
      `user: ${SAID}`,
      `agent: ${FILLER} ${PHRASES.en.stillWorkingPhrases[0]}`,
      `agent: ${SHORT_LINES.apologyPhrase}`,
    ]);
    // The turn gave up on them (five budgets without a word) rather than waiting out each one's retries.
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.every((r) => r.vendor === 'openai' && r.outcome === 'aborted')).toBe(true);
  });

  it('in a text chat: no filler, the fallback answers alone and the silent request is cancelled', async () => {
    const vp = platform();
    const llm = vp.platform.voice.llm.control;
    const agent = await vp.agent({ first_message: GREETING, fallback: FALLBACK_LLM });
    const created = await vp.api('POST', '/api/chats', { agentId: agent._id });
    expect(created.status).toBe(201);
    const { credential } = created.body as { credential: string };
    const page = await ChatPage.open(`${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-chat`, credential);
    await page.waitFor((f) => f.type === 'ready');
    const seen = llm.requests.length;
    llm.failNext('stall', 1_000, { vendor: 'openai' });
    let answer;
    try {
      answer = await page.ask(SAID);
    } finally {
      llm.failNext('stall', 0);
    }
    const reply = answer.find((f) => f.type === 'reply');
    expect(reply?.text).toBe(FALLBACK);
    expect(answer.filter((f) => f.type === 'delta').map((d) => d.text).join('')).toBe(FALLBACK);
    const requests = await conversationRequests(llm.requests.slice(seen));
    expect(requests.map((r) => [r.vendor, r.outcome])).toEqual([
      ['openai', 'aborted'],
      ['anthropic', 'completed'],
    ]);
    page.drop();
  });
});

describe("the agent's first-token budget", () => {
  it('is validated, stored and returned by get-agent', async () => {
    const vp = platform();
    const base = { name: 'T', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram', workspaceId: vp.workspaceId };
    for (const first_token_budget_ms of [499, 10_001, 1_500.5, '2000']) {
      const bad = await vp.api('POST', '/api/agents', { ...base, turn_taking: { first_token_budget_ms } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: { code: 'validation_failed', details: [expect.objectContaining({ field: 'turn_taking.first_token_budget_ms' })] } });
    }
    const created = await vp.api('POST', '/api/agents', { ...base, turn_taking: { first_token_budget_ms: 3_000 } });
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const got = await vp.api('GET', `/api/agents/${id}?workspaceId=${vp.workspaceId}`, undefined);
    expect((got.body as { turn_taking: unknown }).turn_taking).toEqual({ first_token_budget_ms: 3_000 });
  });
});
