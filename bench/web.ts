/**
 * `npm run bench -- web`: what the browser transport adds to a turn, against the phone's in the same run.
 *
 * One local platform (the real streaming service and vendor adapters, the vendors' loopback stand-ins with
 * FIXED delays) takes the same scripted conversation three ways, one call at a time:
 *
 * 1. phone: a simulated Twilio caller on `/media-stream` (mu-law 8 kHz), the baseline;
 * 2. web: a simulated meeting page on `/web-stream` (PCM16 16 kHz) from Node;
 * 3. browser: headless Chromium on a real meeting link, its microphone a WAV made by espeak-ng.
 *
 * Measured: the per-turn `overheadMs` the session records (first outbound audio − STT final − LLM time to
 * first token − LLM first phrase − TTS first byte: what our pipeline adds), p50 per transport and web over
 * phone as a ratio; and in the browser, the gap from the end of the contact's speech (the page's microphone
 * level falling) to the first agent sample the page plays, minus the vendors' scripted times (the
 * endpointing silence, STT final, LLM first token, TTS first byte): what capture, the network, our service and
 * playback add on top of the vendors. The last line is one JSON object with the headline figures.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_VOICE, type Agent } from '../lib/domain/agent.js';
import { newId } from '../lib/domain/ids.js';
import { getDeps } from '../lib/deps.js';
import { setLogLevel } from '../lib/observability/log.js';
import { SimulatedCaller } from '../lib/local/callers/simulated-caller.js';
import { SimulatedWebCaller } from '../lib/local/callers/simulated-web-caller.js';
import type { RunningPlatform } from '../lib/local/platform/platform.js';
import { openInboundCall } from '../lib/services/inbound-calls.js';
import { putNewAgent } from '../lib/store/agents.js';
import { createWorkspace } from '../lib/store/workspaces.js';
import { signStreamToken, STREAM_TOKEN_KEY_PURPOSE } from '../lib/domain/stream-token.js';
import type { CallEnded } from '../streaming-service/src/service.js';
import { turnFigures } from '../streaming-service/src/call/latency.js';
import { FAKE_MEDIA_ARGS, launchChromium } from '../test/support/browser.js';
import { withBenchPlatform } from './_platform.js';
import { summarize, ms } from './_latency.js';

/** Fixed vendor delays; the LLM streams fast so its first phrase adds next to nothing. */
const VENDOR = { sttFinalMs: 150, llmTtftMs: 200, ttsFirstByteMs: 80, endpointingMs: 300 } as const;
const CALLS = 6;
const BROWSER_CALLS = 3;
const QUESTION = 'What time do you open tomorrow?';

export async function run(): Promise<void> {
  // The platform applies LOG_LEVEL when it starts: the benchmark's output is its figures, not request logs.
  process.env.LOG_LEVEL = 'silent';
  setLogLevel('silent');
  await withBenchPlatform(
    {
      dataDirPrefix: 'vap-bench-web-',
      table: 'bench-web',
      bucket: 'bench-web',
      voice: {
        stt: { transcripts: () => QUESTION, finalDelayMs: VENDOR.sttFinalMs },
        llm: { ttftMs: VENDOR.llmTtftMs, tokensPerSecond: 1_000 },
        tts: { firstByteDelayMs: VENDOR.ttsFirstByteMs },
        session: { endpointingMs: VENDOR.endpointingMs },
      },
    },
    async (platform) => {
      const deps = await getDeps();
      const { workspaceId, apiKey } = await createWorkspace(deps.db, { name: 'bench', credits: 100_000 });
      const now = new Date().toISOString();
      const agent: Agent = {
        _id: newId('agent'),
        name: 'Ava',
        llm_provider: 'openai',
        llm_model: 'gpt-4o-mini',
        tts_provider: 'elevenlabs',
        tts_voice_id: DEFAULT_VOICE.elevenlabs,
        stt_provider: 'deepgram',
        system_prompt: 'You are a bakery host.',
        first_message: 'Hi, this is Ava.',
        recording_enabled: false,
        ambience_enabled: false,
        workspaceId,
        createdAt: now,
        updatedAt: now,
      };
      await putNewAgent(deps.db, agent);
      const ended = endedCalls(platform);
      const wsBase = platform.baseUrl.replace(/^http/, 'ws');

      /** A meeting link joined as the page joins: the credential of its session. */
      const meeting = async () => {
        const res = await fetch(`${platform.baseUrl}/api/optimus/meeting-link`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ assistantId: agent._id }),
        });
        const { room_url: roomUrl } = (await res.json()) as { room_url: string };
        return new URL(roomUrl.replace(/^http:\/\/[^/]+/, platform.baseUrl));
      };
      const join = async (room: URL) => {
        const res = await fetch(`${platform.baseUrl}${room.pathname}/join`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ token: room.searchParams.get('token') }),
        });
        return ((await res.json()) as { credential: string }).credential;
      };

      const phone: number[] = [];
      const web: number[] = [];
      const key = deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE);
      // Interleaved, so drift on a busy machine lands on both transports alike.
      for (let i = 0; i < CALLS; i += 1) {
        const callSid = `CA${newId('call').slice(5)}`;
        const numberId = newId('phoneNumber');
        const answer = await openInboundCall(deps, { workspaceId, agentId: agent._id, phoneNumberId: numberId, ourNumber: '+14155550999', callSid });
        if (answer.kind !== 'connect') throw new Error(`inbound call refused: ${answer.kind}`);
        const token = signStreamToken({ callSid, workspaceId, callId: answer.call._id }, key);
        const caller = await SimulatedCaller.connect({ url: `${wsBase}/media-stream`, callSid, customParameters: { token } });
        await caller.waitFor((m) => m.event === 'mark');
        await caller.whenIdle();
        const before = caller.received.length;
        await caller.say(QUESTION);
        await caller.waitForNext((m) => m.event === 'mark', 20_000, before);
        caller.hangUp();
        phone.push(...overheads(await ended.next()));

        const page = await SimulatedWebCaller.join(`${wsBase}/web-stream`, await join(await meeting()));
        await page.waitFor((m) => m.type === 'mark');
        await page.whenIdle();
        const marks = page.echoed.length;
        await page.say(QUESTION);
        await waitFor(() => page.echoed.length > marks);
        page.hangUp();
        web.push(...overheads(await ended.next()));
      }
      const p = summarize(phone);
      const w = summarize(web);
      process.stdout.write(`  turn overhead (ms): phone p50 ${ms(p.p50)} p95 ${ms(p.p95)} (n=${p.n}); web p50 ${ms(w.p50)} p95 ${ms(w.p95)} (n=${w.n})\n`);
      process.stdout.write(`  web / phone overhead p50: ${(w.p50 / p.p50).toFixed(2)}x\n`);

      const gaps = await browserGaps(meeting, ended);
      const vendorMs = VENDOR.endpointingMs + VENDOR.sttFinalMs + VENDOR.llmTtftMs + VENDOR.ttsFirstByteMs;
      const g = summarize(gaps);
      process.stdout.write(
        `  browser: end of speech -> first agent sample played p50 ${ms(g.p50)} ms (n=${g.n}); ` +
          `vendors' scripted ${vendorMs} ms; added by capture, network, service and playback p50 ${ms(g.p50 - vendorMs)} ms\n`,
      );
      process.stdout.write(
        `${JSON.stringify({
          suite: 'web',
          phoneOverheadP50Ms: round(p.p50),
          webOverheadP50Ms: round(w.p50),
          webOverPhoneOverhead: round(w.p50 / p.p50),
          browserGapP50Ms: round(g.p50),
          vendorScriptedMs: vendorMs,
          browserAddedP50Ms: round(g.p50 - vendorMs),
        })}\n`,
      );
    },
  );
}

const round = (x: number) => Math.round(x * 10) / 10;

/** The per-turn overheads a call's session recorded. */
const overheads = (e: CallEnded): number[] =>
  e.outcome.latencies.map((l) => turnFigures(l).overheadMs).filter((x): x is number => typeof x === 'number');

/** Calls as they end, in order. */
function endedCalls(platform: RunningPlatform) {
  const done: CallEnded[] = [];
  const waiting: ((e: CallEnded) => void)[] = [];
  platform.voice.streaming.onCallEnded((e) => (waiting.shift() ?? ((x: CallEnded) => done.push(x)))(e));
  return {
    next: () => {
      const got = done.shift();
      return got ? Promise.resolve(got) : new Promise<CallEnded>((resolve) => waiting.push(resolve));
    },
  };
}

async function waitFor(probe: () => boolean, timeoutMs = 20_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!probe()) {
    if (performance.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * In the page, every 5 ms: the end of the contact's speech is the last moment its microphone level was
 * above the threshold, once it has stayed below for 250 ms; the first agent sample after it is the first
 * poll where the page's played-sample count grows. Both on the page's clock.
 */
const GAP_PROBE = `
  window.__bench = { gaps: [] };
  (() => {
    let loudAt = 0, speaking = false, endAt = 0, playedAtEnd = -1;
    setInterval(() => {
      const m = window.__meeting;
      if (!m || m.state !== 'live') return;
      const now = performance.now();
      if (m.micLevel > 0.02) { speaking = true; loudAt = now; return; }
      if (speaking && now - loudAt > 250) { speaking = false; endAt = loudAt; playedAtEnd = m.samplesPlayed; }
      if (playedAtEnd >= 0 && m.samplesPlayed > playedAtEnd) { window.__bench.gaps.push(now - endAt); playedAtEnd = -1; }
    }, 5);
  })();
`;

async function browserGaps(meeting: () => Promise<URL>, ended: ReturnType<typeof endedCalls>): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-web-'));
  const speech = join(dir, 'speech.wav');
  const wav = join(dir, 'mic.wav');
  execFileSync('espeak-ng', ['-w', speech, QUESTION]);
  // The question 6 s in (after the greeting has played), then silence to the end of the call.
  execFileSync('sox', [speech, '-r', '48000', '-c', '1', '-b', '16', wav, 'pad', '6', '30']);
  const browser = await launchChromium([...FAKE_MEDIA_ARGS, `--use-file-for-fake-audio-capture=${wav}%noloop`, '--autoplay-policy=no-user-gesture-required']);
  const gaps: number[] = [];
  try {
    for (let i = 0; i < BROWSER_CALLS; i += 1) {
      const context = await browser.newContext();
      await context.addInitScript(GAP_PROBE);
      const page = await context.newPage();
      await page.goto((await meeting()).href);
      await page.getByRole('button', { name: 'Join' }).click();
      await page.waitForFunction(() => ((window as any).__bench?.gaps.length ?? 0) > 0, undefined, { timeout: 30_000, polling: 50 });
      gaps.push(...((await page.evaluate(() => (window as any).__bench.gaps)) as number[]));
      await page.getByRole('button', { name: /hang up/i }).click();
      await ended.next();
      await context.close();
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return gaps;
}
