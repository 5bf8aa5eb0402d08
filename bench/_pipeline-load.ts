/**
 * The load side of bench/pipeline.ts, in its own process so that the process measured (event-loop lag, CPU)
 * is the streaming server's alone: the vendor stand-ins (fixed delays) and N simulated Twilio callers, each
 * playing real-time mu-law audio. Driven over the fork IPC channel:
 *
 *   parent -> { type: 'standins', stt, llm, tts }   child -> { type: 'env', env }
 *   parent -> { type: 'level', url, calls, ... }    child -> { type: 'level-done', stats }
 *   parent -> { type: 'stop' }
 */
import { loadConfig } from '../lib/config.js';
import { SimulatedCaller, tone } from '../lib/local/simulated-caller.js';
import { startLlmStandins, type LlmScript } from '../lib/local/standins/llm.js';
import { cycleTranscripts, startSttStandins, type SttScript } from '../lib/local/standins/stt.js';
import { startTtsStandins, type TtsScript } from '../lib/local/standins/tts.js';

/** What the caller says, in a cycle: a question, a request for a long answer, the interruption. */
export const CALLER_LINES = ['What time do you open?', 'Tell me everything about the menu.', 'Stop, thanks.'] as const;
/** The long answer the caller talks over; its first phrase is short so the first audio comes early. */
export const LONG_REPLY =
  'Sure. We have a seasonal menu with a mushroom risotto, a grilled sea bass with lemon butter, a slow ' +
  'roasted lamb shoulder, three salads, and for dessert a lemon tart, a chocolate mousse and a cheese board.';
export const SHORT_REPLY = 'Sure. We open at nine every day.';

/** Messages of the IPC protocol. */
export type ToChild =
  | { type: 'standins'; stt: Partial<SttScript>; llm: Pick<LlmScript, 'ttftMs' | 'tokensPerSecond'>; tts: Partial<TtsScript> }
  | { type: 'level'; url: string; calls: { callSid: string; token: string }[]; durationMs: number; staggerMs: number; playbackSpeed: number }
  | { type: 'stop' };
export type FromChild =
  | { type: 'env'; env: Record<string, string> }
  | { type: 'level-done'; stats: LevelStats };

/** What the callers saw in one level. */
export interface LevelStats {
  readonly connected: number;
  readonly failed: number;
  readonly bargeIns: number;
  readonly clearsReceived: number;
  readonly errors: string[];
}

const send = (m: FromChild) => process.send?.(m);
let stopStandins: (() => Promise<void>) | undefined;

process.on('message', (raw) => {
  const m = raw as ToChild;
  if (m.type === 'standins') void standins(m).catch(fatal);
  else if (m.type === 'level') void level(m).catch(fatal);
  else if (m.type === 'stop') void (stopStandins?.() ?? Promise.resolve()).finally(() => process.exit(0));
});
// The parent's death must not leave callers running.
process.on('disconnect', () => process.exit(0));

function fatal(error: unknown): never {
  process.stderr.write(`pipeline load process: ${String(error)}\n`);
  process.exit(1);
}

async function standins(m: Extract<ToChild, { type: 'standins' }>): Promise<void> {
  const config = loadConfig();
  const [stt, llm, tts] = await Promise.all([
    startSttStandins(config, { ...m.stt, transcripts: cycleTranscripts(CALLER_LINES) }),
    startLlmStandins(config, {
      ...m.llm,
      reply: (req) => {
        if (/summar/i.test(req.messages.system)) return { text: 'Summary.' };
        const last = req.messages.turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
        return { text: /everything/i.test(last) ? LONG_REPLY : SHORT_REPLY };
      },
    }),
    startTtsStandins(config, m.tts),
  ]);
  stopStandins = async () => {
    await Promise.all([stt.stop(), llm.stop(), tts.stop()]);
  };
  send({ type: 'env', env: { ...stt.env, ...llm.env, ...tts.env } });
}

async function level(m: Extract<ToChild, { type: 'level' }>): Promise<void> {
  const errors: string[] = [];
  let connected = 0;
  let failed = 0;
  let bargeIns = 0;
  let clears = 0;
  const until = performance.now() + m.staggerMs + m.durationMs;
  const speech = tone(500);
  const interruption = tone(700);

  const oneCall = async (call: { callSid: string; token: string }, index: number) => {
    // Calls arrive spread over the stagger window, as a campaign's calls would, not in one burst.
    await sleep((m.staggerMs * index) / Math.max(1, m.calls.length));
    let caller: SimulatedCaller;
    try {
      caller = await SimulatedCaller.connect({ url: m.url, callSid: call.callSid, customParameters: { token: call.token }, playbackSpeed: m.playbackSpeed });
    } catch (error) {
      failed += 1;
      if (errors.length < 5) errors.push(String(error));
      return;
    }
    connected += 1;
    try {
      await caller.waitFor((msg) => msg.event === 'mark', 15_000);
      await caller.whenIdle(15_000);
      while (performance.now() < until) {
        // A question, answered in full.
        await sleep(300);
        let from = caller.received.length;
        await caller.play(speech);
        await caller.waitForNext((msg) => msg.event === 'mark', 15_000, from);
        await caller.whenIdle(15_000);
        if (performance.now() >= until) break;
        // A request for the long answer, interrupted once its audio is flowing.
        await sleep(300);
        from = caller.received.length;
        await caller.play(speech);
        await caller.waitForNext((msg) => msg.event === 'media', 15_000, from);
        await sleep(400);
        const before = caller.received.length;
        bargeIns += 1;
        await caller.play(interruption);
        await caller.waitForNext((msg) => msg.event === 'clear', 15_000, before);
        clears += 1;
        // The interruption is a turn of its own: wait for its (short) answer to play.
        await caller.waitForNext((msg) => msg.event === 'mark', 15_000, caller.received.length);
        await caller.whenIdle(15_000);
      }
    } catch (error) {
      if (errors.length < 5) errors.push(String(error));
    } finally {
      caller.hangUp();
      await Promise.race([caller.closed, sleep(5_000)]);
    }
  };

  await Promise.all(m.calls.map((c, i) => oneCall(c, i)));
  send({ type: 'level-done', stats: { connected, failed, bargeIns, clearsReceived: clears, errors } });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
