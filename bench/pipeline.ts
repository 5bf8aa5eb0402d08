/**
 * `npm run bench -- pipeline`: what the voice pipeline itself adds to a turn, how fast it reacts to a
 * barge-in, and what N concurrent calls cost one Node process.
 *
 * This process runs the real streaming server (streaming-service/src/server.ts) with the real vendor adapters
 * (OpenAI LLM, Deepgram STT, ElevenLabs TTS clients) and nothing else. A child process
 * (bench/_pipeline-load.ts) runs the vendors' loopback stand-ins with FIXED delays and N simulated Twilio
 * callers playing real-time audio, so the event-loop lag and CPU measured here are the server's alone. The
 * call's agent, tools and history come from an in-memory environment (no database on the path measured: a
 * turn's latency never waits for one).
 *
 * Per level (100, 250, 500 concurrent calls) each caller loops: a question (short answer), a request for a
 * long answer that it interrupts once audio flows, then hangs up after the level's window. Measured:
 *
 * - per-turn overhead: (first outbound audio frame) − (STT final) − (LLM time to first token) − (LLM first
 *   phrase) − (TTS first byte), exactly the `overheadMs` the session records per turn (session/reply.ts
 *   `turnFigures`), p50/p99, and relative to the vendor time inside the same span;
 * - barge-in reaction: the STT speech event's arrival → `clear` sent to Twilio, → the LLM request's abort
 *   signal fired, → the TTS utterance cancelled (adapter calls, timed in this process), p99;
 * - event-loop lag p99 (perf_hooks.monitorEventLoopDelay) while all N calls are up, and server CPU
 *   (process.cpuUsage) per call per second of call.
 *
 * The last line is one JSON object with the headline figures. No pass/fail: numbers on a shared machine are
 * noisy, and docs/benchmarks.md says how they were taken.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../lib/config.js';
import { setLogLevel } from '../lib/observability/log.js';
import { DEFAULT_VOICE, type Agent } from '../lib/domain/agent.js';
import { newId } from '../lib/domain/ids.js';
import { signStreamToken } from '../lib/domain/stream-token.js';
import type { LlmProvider } from '../lib/vendors/llm/port.js';
import type { SttProvider } from '../lib/vendors/stt/port.js';
import type { TtsProvider, TtsSession } from '../lib/vendors/tts/port.js';
import type { VoiceHistoryRecord } from '../lib/domain/call-record.js';
import { vendorProviders } from '../streaming-service/src/providers.js';
import { createStreamingServer } from '../streaming-service/src/server.js';
import type { StreamingEnvironment } from '../streaming-service/src/service.js';
import type { CallSession } from '../streaming-service/src/session/call-session.js';
import type { CallOutcome } from '../streaming-service/src/call/types.js';
import { turnFigures } from '../streaming-service/src/call/latency.js';
import { FAULT_LINE, type FromChild, type LevelMode, type LevelStats, type ToChild } from './_pipeline-load.js';
import { DEFAULT_INTERRUPTION } from '../streaming-service/src/session/interruption.js';
import { DEFAULT_VAD_OPTIONS } from '../streaming-service/src/session/vad.js';

/** The fixed vendor delays every level runs with. */
export const VENDOR_DELAYS = { sttFinalMs: 150, llmTtftMs: 200, ttsFirstByteMs: 80 } as const;
const LEVELS = [100, 250, 500] as const;
/**
 * `PIPELINE_LEVELS=250` (comma-separated call counts) runs only those load levels, and
 * `PIPELINE_CAPACITY_ONLY=1` skips the quality and fault levels: a capacity check that costs the shared
 * machine a minute instead of five. The full run (neither set) prints the complete JSON line.
 */
const levels = (): readonly number[] => {
  const wanted = (process.env.PIPELINE_LEVELS ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return wanted.length ? wanted : LEVELS;
};
const capacityOnly = process.env.PIPELINE_CAPACITY_ONLY === '1';
/** Calls connect spread over this window; measuring starts once all are up. */
const STAGGER_MS = 8_000;
/** How long each call keeps talking after the stagger window: enough for several turns per call. */
const DURATION_MS = 25_000;
/** Playback of agent audio at the caller, faster than real time so marks return and turns cycle sooner. */
const PLAYBACK_SPEED = 4;
/** Lag that still keeps 20 ms audio frames on time with margin: the capacity criterion. */
const LAG_OK_MS = 20;
/**
 * The event-loop delay histogram's resolution: 1 ms, because at the default 10 ms an idle loop already
 * reports ~10 ms and the 20 ms criterion could not be told from noise.
 */
const LAG_RESOLUTION_MS = 1;
/** Concurrent demanding callers in the quality levels, and how long they talk. */
const QUALITY_CALLS = 20;
const QUALITY_DURATION_MS = 30_000;
/** Calls in the fault level, one at a time. */
const FAULT_CALLS = 6;
/**
 * The quality level's same-run baseline: what interruption was before (any caller sound over the agent
 * stops it at once, nothing resumes), to set the false-interruption rate against.
 */
const NAIVE_INTERRUPTION = { min_duration_ms: 0, min_words: 0, resume_false_interruption: false } as const;

/** Per call: when barge-in aborts reached the adapters (performance.now()). */
interface CallProbe {
  llmAborts: number[];
  ttsCancels: number[];
}

interface LevelResult {
  readonly calls: number;
  readonly stats: LevelStats;
  readonly overheads: number[];
  readonly vendorSums: number[];
  readonly ttfts: number[];
  readonly ttsFirstBytes: number[];
  readonly clearMs: number[];
  readonly llmAbortMs: number[];
  readonly ttsCancelMs: number[];
  readonly lagP99Ms: number;
  readonly lagMaxMs: number;
  readonly cpuMsPerCallSecond: number;
  /** The load process's CPU (stand-ins and simulated callers) the same way: it shares the machine's cores. */
  readonly loadCpuMsPerCallSecond: number;
  /**
   * Server CPU per second of caller audio actually handled (what reached the transcriber). On a starved
   * machine the callers send late and the server falls behind, so per wall-clock call-second understates
   * the cost; per audio second is the load-independent figure (equal to the other when nothing starves).
   */
  readonly cpuMsPerAudioSecond: number;
  readonly loadCpuMsPerAudioSecond: number;
  /** Caller audio handled / (calls up × window): 1 when every call's audio kept real time. */
  readonly audioShare: number;
  /** Mean number of calls up during the window (connect failures lower it). */
  readonly meanActive: number;
  readonly windowMs: number;
  readonly turns: number;
  readonly callsEnded: number;
  /** Interruptions, pauses and resumes the sessions' floors decided. */
  readonly floor: { interruptions: number; pauses: number; resumes: number };
  /** Calls that ended as `error`. */
  readonly errorEnds: number;
  /** Words of the caller's sentence missing from what reached the model (fault level). */
  readonly wordsLost: number;
  readonly wordsExpected: number;
}

export async function run(): Promise<void> {
  const child = fork(fileURLToPath(new URL('./_pipeline-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const env = await ask(child, {
      type: 'standins',
      stt: { finalDelayMs: VENDOR_DELAYS.sttFinalMs, interimResults: true },
      llm: { ttftMs: VENDOR_DELAYS.llmTtftMs, tokensPerSecond: 15 },
      tts: { firstByteDelayMs: VENDOR_DELAYS.ttsFirstByteMs },
    }, 'env');
    // The machine's own noise floor: this process's lag with no calls at all, measured in the same run.
    const idle = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
    idle.enable();
    await sleep(5_000);
    idle.disable();
    const idleLagP99Ms = idle.percentile(99) / 1e6;
    process.stdout.write(`  idle (0 calls): lag p99 ${fmt(idleLagP99Ms)} ms\n`);
    const results: LevelResult[] = [];
    for (const calls of levels()) results.push(await runLevel(child, env.env, calls));
    if (capacityOnly) return report(results, idleLagP99Ms);
    process.stdout.write('  quality: a caller saying "uh-huh", coughing and making noise over the answer\n');
    const naive = await runLevel(child, env.env, QUALITY_CALLS, 'quality', { interruption: NAIVE_INTERRUPTION });
    const quality = await runLevel(child, env.env, QUALITY_CALLS, 'quality');
    process.stdout.write('  faults: STT socket cut mid-sentence, TTS socket cut mid-answer, one call at a time\n');
    // The reconnects log a warning each; expected here, they would drown the report.
    setLogLevel('error');
    const faults = await runLevel(child, env.env, FAULT_CALLS, 'faults');
    report(results, idleLagP99Ms, { naive, quality, faults });
  } finally {
    child.send({ type: 'stop' } satisfies ToChild);
    await new Promise((r) => setTimeout(r, 200));
    child.kill();
  }
}

async function runLevel(
  child: ChildProcess,
  standinEnv: Record<string, string>,
  calls: number,
  mode: LevelMode = 'load',
  agentExtra: Partial<Agent> = {},
): Promise<LevelResult> {
  const quality = mode === 'quality';
  const durationMs = mode === 'load' ? DURATION_MS : QUALITY_DURATION_MS;
  const staggerMs = mode === 'faults' ? 0 : STAGGER_MS;
  const config = loadConfig({ ...process.env, ...standinEnv, LOG_LEVEL: 'silent' });
  const tokenKey = randomBytes(32);
  const probes = new Map<string, CallProbe>();
  const heard = { bytes: 0 };
  const outcomes: CallOutcome[] = [];
  const workspaceId = newId('workspace');
  const now = new Date().toISOString();
  const agent: Agent = {
    _id: newId('agent'),
    name: 'Bench',
    llm_provider: 'openai',
    llm_model: 'gpt-4o-mini',
    tts_provider: 'elevenlabs',
    tts_voice_id: DEFAULT_VOICE.elevenlabs,
    stt_provider: 'deepgram',
    system_prompt: 'You are a restaurant host.',
    first_message: 'Hi.',
    recording_enabled: false,
    ambience_enabled: false,
    workspaceId,
    createdAt: now,
    updatedAt: now,
    ...agentExtra,
  };
  const providers = vendorProviders(config);
  const environment: StreamingEnvironment = {
    tokenKey,
    loader: { agent: async () => agent, contactByPhone: async () => undefined, tools: async () => [] },
    // Each benchmark call has its own token; the store's read and claim round trips are not what is measured.
    streamCall: async (claims) => ({ callId: claims.callId, workspaceId: claims.workspaceId, agentId: agent._id }),
    claim: async () => ({ maxDurationSeconds: 3600 }),
    heartbeat: async () => true,
    services(setup) {
      const probe: CallProbe = { llmAborts: [], ttsCancels: [] };
      probes.set(setup.callSid, probe);
      return {
        stt: countStt(providers.stt(setup.agent.stt_provider), heard),
        llm: probeLlm(providers.llm(setup.agent.llm_provider), probe),
        tts: probeTts(providers.tts(setup.agent.tts_provider), probe),
        loadTool: async () => {
          throw new Error('no tools in the benchmark');
        },
        httpTools: {},
      };
    },
    // The history record is not what is measured; the outcome carries the per-turn latency points.
    async finalize(outcome) {
      outcomes.push(outcome);
      return {} as VoiceHistoryRecord;
    },
  };
  const server = createStreamingServer({ environment: async () => environment });
  const { port } = await server.listen(0, '127.0.0.1');
  const callList = Array.from({ length: calls }, () => {
    const callSid = `CA${randomBytes(16).toString('hex')}`;
    return { callSid, token: signStreamToken({ callSid, workspaceId, callId: newId('call') }, tokenKey) };
  });

  const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  const sessions = new Map<string, CallSession>();
  let cpuStart: NodeJS.CpuUsage | undefined;
  let cpuUsed: NodeJS.CpuUsage | undefined;
  let loadCpuStart = NaN;
  let loadCpuUsedMs = NaN;
  let heardStart = 0;
  let heardInWindow = 0;
  let windowStart = 0;
  let windowEnd = 0;
  let activeSum = 0;
  let activeSamples = 0;
  const levelStart = performance.now();
  // The window is time-based: after every call had its turn to connect, until the first calls hang up.
  // CPU and lag count only then; calls that failed to connect simply lower the mean active count.
  const openAt = levelStart + staggerMs + 1_000;
  const closeAt = levelStart + staggerMs + durationMs - 1_000;
  const closeWindow = () => {
    if (!cpuStart || windowEnd) return;
    windowEnd = performance.now();
    cpuUsed = process.cpuUsage(cpuStart);
    loadCpuUsedMs = processCpuMs(child.pid) - loadCpuStart;
    heardInWindow = heard.bytes - heardStart;
    lag.disable();
  };
  const watcher = setInterval(() => {
    for (const s of server.sessions) sessions.set(s.setup.callSid, s);
    const t = performance.now();
    if (!cpuStart && t >= openAt) {
      cpuStart = process.cpuUsage();
      loadCpuStart = processCpuMs(child.pid);
      heardStart = heard.bytes;
      windowStart = t;
      lag.enable();
    } else if (cpuStart && !windowEnd) {
      activeSum += server.activeSessions;
      activeSamples += 1;
      if (t >= closeAt) closeWindow();
    }
  }, 50);

  const { stats } = await ask(
    child,
    {
      type: 'level',
      mode,
      url: `ws://127.0.0.1:${port}/media-stream`,
      calls: callList,
      durationMs,
      staggerMs,
      // The demanding caller plays in real time: pauses and resumes are about what it hears when.
      playbackSpeed: mode === 'load' ? PLAYBACK_SPEED : 1,
    },
    'level-done',
  );
  closeWindow();
  clearInterval(watcher);
  // Let the last sessions finish and hand over their outcomes.
  const until = performance.now() + 10_000;
  while (server.activeSessions > 0 && performance.now() < until) await sleep(100);
  await server.close();

  const overheads: number[] = [];
  const vendorSums: number[] = [];
  const ttfts: number[] = [];
  const ttsFirstBytes: number[] = [];
  let turns = 0;
  for (const outcome of outcomes) {
    for (const latency of outcome.latencies) {
      turns += 1;
      const f = turnFigures(latency);
      if (f.overheadMs === null) continue;
      overheads.push(f.overheadMs);
      vendorSums.push((f.llmFirstTokenMs ?? 0) + (f.llmFirstPhraseMs ?? 0) + (f.ttsFirstByteMs ?? 0));
      if (f.llmFirstTokenMs !== null) ttfts.push(f.llmFirstTokenMs);
      if (f.ttsFirstByteMs !== null) ttsFirstBytes.push(f.ttsFirstByteMs);
    }
  }
  const clearMs: number[] = [];
  const llmAbortMs: number[] = [];
  const ttsCancelMs: number[] = [];
  for (const [callSid, session] of sessions) {
    const probe = probes.get(callSid);
    for (const i of session.interruptions) {
      clearMs.push(i.clearedAtMs - i.atMs);
      // The first abort at or after the speech event belongs to this interruption.
      const llm = probe?.llmAborts.find((t) => t >= i.atMs);
      if (llm !== undefined && llm - i.atMs < 1_000) llmAbortMs.push(llm - i.atMs);
      const tts = probe?.ttsCancels.find((t) => t >= i.atMs);
      if (tts !== undefined && tts - i.atMs < 1_000) ttsCancelMs.push(tts - i.atMs);
    }
  }
  const floor = { interruptions: 0, pauses: 0, resumes: 0 };
  for (const session of sessions.values()) {
    floor.interruptions += session.floor.counts.interruptions;
    floor.pauses += session.floor.counts.pauses;
    floor.resumes += session.floor.counts.resumes;
  }
  // Every word of the caller's sentence must reach the model, once per turn, whatever socket dropped.
  const expected = FAULT_LINE.toLowerCase().replace(/[^a-z ]/g, '').split(' ');
  let wordsLost = 0;
  let wordsExpected = 0;
  if (mode === 'faults') {
    for (const outcome of outcomes) {
      for (const entry of outcome.conversation.entries) {
        if (entry.type !== 'user') continue;
        const got = new Set(entry.text.toLowerCase().replace(/[^a-z ]/g, '').split(' '));
        wordsExpected += expected.length;
        wordsLost += expected.filter((w) => !got.has(w)).length;
      }
    }
  }
  const windowMs = windowEnd - windowStart;
  const used = cpuUsed ? (cpuUsed.user + cpuUsed.system) / 1000 : NaN;
  // Seconds of caller audio the server handed to its transcriber in the window (mu-law: 8 bytes a ms).
  const callSeconds = heardInWindow / 8_000;
  const result: LevelResult = {
    calls,
    stats,
    overheads,
    vendorSums,
    ttfts,
    ttsFirstBytes,
    clearMs,
    llmAbortMs,
    ttsCancelMs,
    lagP99Ms: lag.count > 0 ? lag.percentile(99) / 1e6 : NaN,
    lagMaxMs: lag.count > 0 ? lag.max / 1e6 : NaN,
    meanActive: activeSamples ? activeSum / activeSamples : NaN,
    cpuMsPerCallSecond: windowMs > 0 && activeSum > 0 ? used / (activeSum / activeSamples) / (windowMs / 1000) : NaN,
    loadCpuMsPerCallSecond: windowMs > 0 && activeSum > 0 ? loadCpuUsedMs / (activeSum / activeSamples) / (windowMs / 1000) : NaN,
    cpuMsPerAudioSecond: callSeconds > 0 ? used / callSeconds : NaN,
    loadCpuMsPerAudioSecond: callSeconds > 0 ? loadCpuUsedMs / callSeconds : NaN,
    audioShare: windowMs > 0 && activeSum > 0 ? callSeconds / ((activeSum / activeSamples) * (windowMs / 1000)) : NaN,
    windowMs,
    turns,
    callsEnded: outcomes.length,
    floor,
    errorEnds: outcomes.filter((o) => o.reason === 'error').length,
    wordsLost,
    wordsExpected,
  };
  if (mode !== 'load') {
    process.stdout.write(
      `  ${mode}${agentExtra.interruption ? ' (baseline: any sound interrupts)' : ''}, ${calls} calls: ${outcomes.length} ended (${result.errorEnds} as error), ` +
        `${floor.interruptions} interruptions, ${floor.pauses} pauses, ${floor.resumes} resumes` +
        `${quality ? `, ${stats.overAgentSounds ?? 0} sounds over the agent, ${stats.clearsReceived} clears heard` : ''}` +
        `${mode === 'faults' ? `, ${stats.sttDrops ?? 0} STT and ${stats.ttsDrops ?? 0} TTS sockets cut, ${wordsLost}/${wordsExpected} words lost` : ''}` +
        `${stats.failed ? `, ${stats.failed} failed to connect` : ''}${stats.errors.length ? ` (e.g. ${stats.errors[0]})` : ''}\n`,
    );
    return result;
  }
  process.stdout.write(
    `  ${calls} calls (${fmt(result.meanActive, 0)} up on average): window ${(windowMs / 1000).toFixed(1)} s, ${turns} turns, ${stats.bargeIns} barge-ins, ` +
      `lag p99 ${fmt(result.lagP99Ms)} ms, CPU ${fmt(result.cpuMsPerCallSecond, 2)} ms/call/s (load process ${fmt(result.loadCpuMsPerCallSecond, 2)}), ` +
      `per audio second ${fmt(result.cpuMsPerAudioSecond, 2)} ms (load process ${fmt(result.loadCpuMsPerAudioSecond, 2)}; audio kept ${fmt(result.audioShare * 100, 0)} % of real time)` +
      `${stats.failed ? `, ${stats.failed} failed to connect` : ''}${stats.errors.length ? ` (e.g. ${stats.errors[0]})` : ''}\n`,
  );
  return result;
}

/** Counts the caller audio the server hands its transcriber: the work a call-second stands for. */
function countStt(stt: SttProvider, heard: { bytes: number }): SttProvider {
  return {
    id: stt.id,
    async connect(options, signal) {
      const stream = await stt.connect(options, signal);
      return {
        sendAudio(audio) {
          heard.bytes += audio.length;
          stream.sendAudio(audio);
        },
        finalize: () => stream.finalize(),
        close: () => stream.close(),
        events: stream.events,
      };
    },
  };
}

/** Notes when a barge-in's abort reaches the LLM adapter: the request's signal firing. */
function probeLlm(llm: LlmProvider, probe: CallProbe): LlmProvider {
  return {
    id: llm.id,
    stream(request, signal) {
      signal.addEventListener('abort', () => probe.llmAborts.push(performance.now()), { once: true });
      return llm.stream(request, signal);
    },
  };
}

/** Notes when a barge-in cancels a TTS utterance at the adapter. */
function probeTts(tts: TtsProvider, probe: CallProbe): TtsProvider {
  return {
    id: tts.id,
    async connect(options, signal) {
      const session = await tts.connect(options, signal);
      const wrapped: TtsSession = {
        utterance(id) {
          const u = session.utterance(id);
          return {
            pushText: (t) => u.pushText(t),
            flush: () => u.flush(),
            end: () => u.end(),
            cancel: () => {
              probe.ttsCancels.push(performance.now());
              u.cancel();
            },
            audio: u.audio,
          };
        },
        close: () => session.close(),
      };
      return wrapped;
    },
  };
}

/** Sends one message to the load process and waits for the reply of type `want`. */
function ask<T extends FromChild['type']>(child: ChildProcess, message: ToChild, want: T): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromChild) => {
      if (m.type !== want) return;
      cleanup();
      resolve(m as Extract<FromChild, { type: T }>);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`load process exited (${code})`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.send(message);
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Another process's CPU time (user + system, ms) from /proc (Linux; NaN elsewhere): the load process's share
 * of the cores, read from outside so it costs that process nothing.
 */
function processCpuMs(pid: number | undefined): number {
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Nearest-rank percentile; NaN for no samples. */
function pct(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const round = (n: number, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

interface QualityResults {
  readonly naive: LevelResult;
  readonly quality: LevelResult;
  readonly faults: LevelResult;
}

/**
 * The quality figures: false interruptions per sound over the agent (here every interruption is false: the
 * caller never says words over the answer), against the naive baseline of the same run; the silence the
 * caller hears after a wordless noise, less the configured wait (VAD hangover + false-interruption timeout);
 * words lost across STT drops; calls that survived the injected drops.
 */
function qualitySummary(q: QualityResults) {
  const rate = (r: LevelResult) => (r.stats.overAgentSounds ? r.floor.interruptions / r.stats.overAgentSounds : NaN);
  const configuredWaitMs = DEFAULT_VAD_OPTIONS.hangoverMs + DEFAULT_INTERRUPTION.falseInterruptionTimeoutMs;
  const silences = q.quality.stats.resumeSilenceMs ?? [];
  const faultCalls = q.faults.callsEnded;
  return {
    falseInterruptionRate: round(rate(q.quality), 4),
    falseInterruptionRateBaseline: round(rate(q.naive), 4),
    falseInterruptionRatioToBaseline: round(rate(q.quality) / rate(q.naive), 4),
    resumes: q.quality.floor.resumes,
    resumeSilenceP50Ms: round(pct(silences, 50)),
    resumeGapP50Ms: round(pct(silences, 50) - configuredWaitMs),
    resumeGapP99Ms: round(pct(silences, 99) - configuredWaitMs),
    sttWordsLost: q.faults.wordsLost,
    sttWordsExpected: q.faults.wordsExpected,
    vendorDropSurvival: faultCalls ? round((faultCalls - q.faults.errorEnds) / faultCalls, 4) : null,
    sttSocketsCut: q.faults.stats.sttDrops ?? 0,
    ttsSocketsCut: q.faults.stats.ttsDrops ?? 0,
  };
}

function report(results: readonly LevelResult[], idleLagP99Ms: number, q?: QualityResults): void {
  const rows = results.map((r) => ({
    calls: String(r.calls),
    'up (mean)': fmt(r.meanActive, 0),
    turns: String(r.overheads.length),
    'overhead p50': fmt(pct(r.overheads, 50)),
    'overhead p99': fmt(pct(r.overheads, 99)),
    'LLM TTFT mean': fmt(mean(r.ttfts)),
    'TTS 1st byte mean': fmt(mean(r.ttsFirstBytes)),
    'vendor mean': fmt(mean(r.vendorSums)),
    'overhead/vendor p50': fmt(pct(r.overheads, 50) / mean(r.vendorSums), 3),
    'barge->clear p99': fmt(pct(r.clearMs, 99), 2),
    'barge->LLM abort p99': fmt(pct(r.llmAbortMs, 99), 2),
    'barge->TTS cancel p99': fmt(pct(r.ttsCancelMs, 99), 2),
    'barge-ins': String(r.clearMs.length),
    'lag p99': fmt(r.lagP99Ms),
    'lag max': fmt(r.lagMaxMs),
    'CPU ms/call/s': fmt(r.cpuMsPerCallSecond, 2),
    'load CPU ms/call/s': fmt(r.loadCpuMsPerCallSecond, 2),
    'CPU ms/audio s': fmt(r.cpuMsPerAudioSecond, 2),
    'load CPU ms/audio s': fmt(r.loadCpuMsPerAudioSecond, 2),
  }));
  const headers = Object.keys(rows[0] ?? {});
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((row) => (row as Record<string, string>)[h]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  process.stdout.write(
    [
      '',
      `Fixed vendor delays: STT final ${VENDOR_DELAYS.sttFinalMs} ms after end of speech, LLM TTFT ${VENDOR_DELAYS.llmTtftMs} ms, TTS first byte ${VENDOR_DELAYS.ttsFirstByteMs} ms.`,
      `Idle lag p99 of this process (0 calls, same run): ${fmt(idleLagP99Ms)} ms. Machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (shared: numbers are noisy). Times in ms.`,
      '',
      line(headers),
      `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
      ...rows.map((row) => line(headers.map((h) => (row as Record<string, string>)[h]!))),
      '',
      'overhead = first outbound audio − STT final − LLM first token − LLM first phrase − TTS first byte (per turn, this process).',
      'vendor mean = LLM first token + first phrase + TTS first byte inside that span; overhead/vendor is the share we add.',
      'barge-in = interruption decided (500 ms of VAD speech and 2 words) → clear sent / LLM abort signalled / TTS utterance cancelled (adapter boundary).',
      'CPU ms/call/s = server-process CPU per concurrent call per second while all calls were up (1000 = one core), local VAD included.',
      'load CPU ms/call/s = the same for the load process (stand-ins and simulated callers), which shares the cores.',
      'CPU ms/audio s = the same per second of caller audio the server handled: the figure that holds when the machine starves the run.',
      `Lag: perf_hooks histogram at ${LAG_RESOLUTION_MS} ms resolution.`,
      '',
    ].join('\n'),
  );
  const at = (n: number) => results.find((r) => r.calls === n);
  const base = at(100) ?? results[0]!;
  const bargeAll = [...base.clearMs, ...base.llmAbortMs, ...base.ttsCancelMs];
  const okLevels = results.filter((r) => Number.isFinite(r.lagP99Ms) && r.lagP99Ms <= LAG_OK_MS && r.stats.failed === 0);
  const summary = {
    overheadP50Ms: round(pct(base.overheads, 50)),
    overheadP99Ms: round(pct(base.overheads, 99)),
    bargeInP99Ms: round(pct(bargeAll, 99), 2),
    bargeInClearP99Ms: round(pct(base.clearMs, 99), 2),
    overheadToVendorP50: round(pct(base.overheads, 50) / mean(base.vendorSums), 4),
    maxCallsLagOk: okLevels.length ? Math.max(...okLevels.map((r) => r.calls)) : 0,
    lagP99MsIdle: round(idleLagP99Ms),
    lagP99MsAt: Object.fromEntries(results.map((r) => [r.calls, round(r.lagP99Ms)])),
    cpuMsPerCallAt: Object.fromEntries(results.map((r) => [r.calls, round(r.cpuMsPerCallSecond, 2)])),
    loadCpuMsPerCallAt: Object.fromEntries(results.map((r) => [r.calls, round(r.loadCpuMsPerCallSecond, 2)])),
    cpuMsPerAudioSecondAt: Object.fromEntries(results.map((r) => [r.calls, round(r.cpuMsPerAudioSecond, 2)])),
    loadCpuMsPerAudioSecondAt: Object.fromEntries(results.map((r) => [r.calls, round(r.loadCpuMsPerAudioSecond, 2)])),
    cpuUnit: 'ms CPU per call per second',
    loadAverage1m: round(loadavg()[0]!, 2),
    ...(q ? qualitySummary(q) : {}),
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}
