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
 *   phrase) − (TTS first byte), exactly the `overheadMs` the session records per turn (call/latency.ts
 *   `turnFigures`), p50/p99, and relative to the vendor time inside the same span;
 * - barge-in reaction: the STT speech event's arrival → `clear` sent to Twilio, → the LLM request's abort
 *   signal fired, → the TTS utterance cancelled (adapter calls, timed in this process), p99;
 * - event-loop lag p99 (perf_hooks.monitorEventLoopDelay) while all N calls are up, and server CPU
 *   (process.cpuUsage) per call per second of call.
 *
 * - ambience: the 250-call level again with an ambience bed on every call (docs/voice-pipeline.md,
 *   "Ambience"): lag p99 and the CPU it adds per call-second against the level without it, and the quality
 *   level's false interruptions with it.
 *
 * - realtime: one call of a speech-to-speech agent (OpenAI Realtime, then Gemini Live stand-ins) beside one
 *   cascaded call, same caller and run (bench/_pipeline-realtime.ts).
 *
 * The last line is one JSON object with the headline figures. No pass/fail: numbers on a shared machine are
 * noisy, and docs/benchmarks.md says how they were taken.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../lib/config.js';
import { setLogLevel } from '../lib/observability/log.js';
import { DEFAULT_VOICE, type Agent } from '../lib/domain/agent.js';
import { newId } from '../lib/domain/ids.js';
import { ambienceOf } from '../lib/domain/ambience.js';
import { ambienceSource, CustomBeds } from '../lib/media/custom-bed.js';
import { shippedBed, warmShippedBeds } from '../lib/media/ambience-beds.js';
import { PHONE_AUDIO } from '../lib/vendors/shared/audio-format.js';
import { BedMixer } from '../streaming-service/src/session/ambience.js';
import { signStreamToken } from '../lib/domain/stream-token.js';
import { signListenToken } from '../lib/domain/live-control.js';
import type { VoiceHistoryRecord } from '../lib/domain/call-record.js';
import { vendorProviders } from '../streaming-service/src/providers.js';
import { createStreamingServer } from '../streaming-service/src/server.js';
import type { StreamingEnvironment } from '../streaming-service/src/service.js';
import type { CallSession } from '../streaming-service/src/session/call-session.js';
import type { CallOutcome } from '../streaming-service/src/call/types.js';
import { turnFigures } from '../streaming-service/src/call/latency.js';
import { FAULT_LINE, type LevelMode, type ToChild } from './_pipeline-load.js';
import { realtimeEndpoint } from '../lib/vendors/realtime/openai.js';
import { geminiLiveEndpoint } from '../lib/vendors/realtime/gemini.js';
import { describeRealtimeDelays, REALTIME_AGENTS, realtimeLevel, realtimeOnly, type RealtimeResults } from './_pipeline-realtime.js';
import { ask, countStt, probeLlm, probeTts, processCpuMs, sleep } from './_pipeline-probes.js';
import { type AmbienceResults, type CallProbe, type LevelResult, fmt, report } from './_pipeline-report.js';
import { AMBIENCE, AMBIENCE_CALLS, ambienceFirst, ambienceLevel, DURATION_MS, FAULT_CALLS, LISTENED_CALLS, LAG_RESOLUTION_MS, NAIVE_INTERRUPTION, PLAYBACK_SPEED, QUALITY_CALLS, QUALITY_DURATION_MS, STAGGER_MS, TURN_DELAYS, TURN_LEVELS, TURNS_DURATION_MS, VENDOR_DELAYS, capacityOnly, levels, turnsLevels, turnsOnly } from './_pipeline-settings.js';

const loadProcess = () =>
  fork(fileURLToPath(new URL('./_pipeline-load.ts', import.meta.url)), [], {
    // PIPELINE_LOAD_CPU_PROF=DIR writes the load process's CPU profile there (node --cpu-prof).
    execArgv: ['--import', 'tsx', ...(process.env.PIPELINE_LOAD_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PIPELINE_LOAD_CPU_PROF}`] : [])],
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

const stopLoad = async (child: ChildProcess) => {
  child.send({ type: 'stop' } satisfies ToChild);
  await new Promise((r) => setTimeout(r, 200));
  child.kill();
};

/**
 * The voice-to-voice levels, on a load process of their own with the realistic delays (TURN_DELAYS), and the
 * realtime agents beside the same run's one cascaded call (`PIPELINE_REALTIME_ONLY=1`: only those).
 */
async function turnLevels(): Promise<{ turns: LevelResult[]; realtime?: RealtimeResults }> {
  const child = loadProcess();
  const withRealtime = realtimeLevel || realtimeOnly;
  try {
    const env = await ask(child, {
      type: 'standins',
      stt: { finalDelayMs: TURN_DELAYS.sttFinalMs, endpointingMs: TURN_DELAYS.sttEndpointingMs, interimResults: true },
      llm: { ttftMs: TURN_DELAYS.llmTtftMs, tokensPerSecond: TURN_DELAYS.llmTokensPerSecond },
      tts: { firstByteDelayMs: TURN_DELAYS.ttsFirstByteMs },
      realtime: withRealtime,
    }, 'env');
    process.stdout.write(`  voice to voice: ${realtimeOnly ? 1 : TURN_LEVELS.join(' and ')} calls, STT final ${TURN_DELAYS.sttEndpointingMs}+${TURN_DELAYS.sttFinalMs} ms, LLM ${TURN_DELAYS.llmTtftMs} ms at ${TURN_DELAYS.llmTokensPerSecond} tokens/s, TTS ${TURN_DELAYS.ttsFirstByteMs} ms\n`);
    const out: LevelResult[] = [];
    if (!realtimeOnly) {
      for (const calls of TURN_LEVELS) out.push(await runLevel(child, env.env, calls, 'turns'));
      // The same-run baseline: one call whose agent waits for the recognizer's end of turn to ask its model.
      out.push({ ...(await runLevel(child, env.env, 1, 'turns', { turn_taking: { preemptive_generation: false } })), baseline: true });
    }
    if (!withRealtime) return { turns: out };
    const cascade = out.find((r) => r.calls === 1 && !r.baseline) ?? (await runLevel(child, env.env, 1, 'turns'));
    // The streaming service reads the Live API's base URL from its environment (lib/vendors/realtime/gemini.ts).
    process.env.GOOGLE_LIVE_BASE_URL = env.env.GOOGLE_LIVE_BASE_URL;
    process.stdout.write(`  realtime: 1 call each, ${describeRealtimeDelays()}\n`);
    const openai = await runLevel(child, env.env, 1, 'turns', { realtime: REALTIME_AGENTS.openai });
    const google = await runLevel(child, env.env, 1, 'turns', { realtime: REALTIME_AGENTS.google });
    return { turns: out, realtime: { cascade, openai, google } };
  } finally {
    await stopLoad(child);
  }
}

export async function run(): Promise<void> {
  const { turns, realtime } = turnsLevels || turnsOnly || realtimeOnly ? await turnLevels() : { turns: [] };
  if (turnsOnly || realtimeOnly) return report([], NaN, undefined, undefined, undefined, turns, realtime);
  const child = loadProcess();
  try {
    const env = await ask(child, {
      type: 'standins',
      stt: { finalDelayMs: VENDOR_DELAYS.sttFinalMs, interimResults: true },
      llm: { ttftMs: VENDOR_DELAYS.llmTtftMs, tokensPerSecond: 15 },
      tts: { firstByteDelayMs: VENDOR_DELAYS.ttsFirstByteMs },
    }, 'env');
    // The ambience beds are made once per process, at start, as the streaming service does.
    await warmShippedBeds();
    // The machine's own noise floor: this process's lag with no calls at all, measured in the same run.
    const idle = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
    idle.enable();
    await sleep(5_000);
    idle.disable();
    const idleLagP99Ms = idle.percentile(99) / 1e6;
    process.stdout.write(`  idle (0 calls): lag p99 ${fmt(idleLagP99Ms)} ms\n`);
    const results: LevelResult[] = [];
    const bedLevel = async () => {
      process.stdout.write(`  ambience: ${AMBIENCE_CALLS} calls with a ${AMBIENCE.ambience.sound} bed at ${AMBIENCE.ambience.volume}\n`);
      return runLevel(child, env.env, AMBIENCE_CALLS, 'load', AMBIENCE);
    };
    // PIPELINE_AMBIENCE_FIRST=1 runs the bed before the levels: on a shared machine, whether a difference follows the order.
    const early = ambienceLevel && ambienceFirst ? await bedLevel() : undefined;
    for (const calls of levels()) results.push(await runLevel(child, env.env, calls));
    let ambience: AmbienceResults | undefined;
    if (ambienceLevel) {
      // Against the same number of calls without a bed, from this run (measured again if the levels skipped it).
      const without = results.find((r) => r.calls === AMBIENCE_CALLS) ?? (await runLevel(child, env.env, AMBIENCE_CALLS));
      ambience = { without, with: early ?? (await bedLevel()), mixCpuMsPerCallSecond: mixCpuMsPerCallSecond() };
    }
    // The same load with one listener per call (docs/live-calls.md): what the listen socket adds.
    const listened = LISTENED_CALLS > 0 ? await runLevel(child, env.env, LISTENED_CALLS, 'load', {}, true) : undefined;
    if (capacityOnly) return report(results, idleLagP99Ms, undefined, ambience, listened, turns, realtime);
    process.stdout.write('  quality: a caller saying "uh-huh", coughing and making noise over the answer\n');
    const naive = await runLevel(child, env.env, QUALITY_CALLS, 'quality', { interruption: NAIVE_INTERRUPTION });
    const quality = await runLevel(child, env.env, QUALITY_CALLS, 'quality');
    if (ambience) ambience = { ...ambience, quality: await runLevel(child, env.env, QUALITY_CALLS, 'quality', AMBIENCE) };
    process.stdout.write('  faults: STT socket cut mid-sentence, TTS socket cut mid-answer, one call at a time\n');
    // The reconnects log a warning each; expected here, they would drown the report.
    setLogLevel('error');
    const faults = await runLevel(child, env.env, FAULT_CALLS, 'faults');
    report(results, idleLagP99Ms, { naive, quality, faults }, ambience, listened, turns, realtime);
  } finally {
    await stopLoad(child);
  }
}

async function runLevel(
  child: ChildProcess,
  standinEnv: Record<string, string>,
  calls: number,
  mode: LevelMode = 'load',
  agentExtra: Partial<Agent> = {},
  listened = false,
): Promise<LevelResult> {
  const quality = mode === 'quality';
  const durationMs = mode === 'load' ? DURATION_MS : mode === 'turns' ? TURNS_DURATION_MS : QUALITY_DURATION_MS;
  const staggerMs = mode === 'faults' || calls === 1 ? 0 : STAGGER_MS;
  const config = loadConfig({ ...process.env, ...standinEnv, LOG_LEVEL: 'silent' });
  const tokenKey = randomBytes(32);
  const probes = new Map<string, CallProbe>();
  const heard = { bytes: 0, sends: 0 };
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
  const customBeds = new CustomBeds({ allowedHosts: [] });
  const environment: StreamingEnvironment = {
    tokenKey,
    loader: { agent: async () => agent, contactByPhone: async () => undefined, tools: async () => [] },
    // Each benchmark call has its own token; the store's read and claim round trips are not what is measured.
    streamCall: async (claims) => ({ callId: claims.callId, workspaceId: claims.workspaceId, agentId: agent._id }),
    claim: async () => ({ maxDurationSeconds: 3600 }),
    heartbeat: async () => true,
    // One process holds every call: nothing is recorded or forwarded.
    live: { controlKey: [tokenKey], listenKey: [tokenKey], hold: async () => undefined, holder: async () => undefined },
    services(setup) {
      const probe: CallProbe = { llmAborts: [], ttsCancels: [] };
      probes.set(setup.callSid, probe);
      const bed = ambienceOf(setup.agent);
      return {
        ...(bed && { ambience: ambienceSource(bed, customBeds) }),
        stt: countStt(providers.stt(setup.agent.stt_provider), heard),
        llm: probeLlm(providers.llm(setup.agent.llm_provider), probe),
        tts: probeTts(providers.tts(setup.agent.tts_provider), probe),
        loadTool: async () => {
          throw new Error('no tools in the benchmark');
        },
        httpTools: {},
        ...(setup.agent.realtime && { realtime: (setup.agent.realtime.provider === 'google' ? geminiLiveEndpoint : realtimeEndpoint)(config) }),
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
    const callId = newId('call');
    const listenUrl = listened ? `ws://127.0.0.1:${port}/live/listen?token=${signListenToken({ workspaceId, callId }, tokenKey).token}` : undefined;
    return { callSid, token: signStreamToken({ callSid, workspaceId, callId }, tokenKey), ...(listenUrl ? { listenUrl } : {}) };
  });

  const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  const sessions = new Map<string, CallSession>();
  let cpuStart: NodeJS.CpuUsage | undefined;
  let cpuUsed: NodeJS.CpuUsage | undefined;
  let eluStart: EventLoopUtilization | undefined;
  let loopBusy = NaN;
  let loadCpuStart = NaN;
  let loadCpuUsedMs = NaN;
  let heardStart = 0;
  let heardInWindow = 0;
  let sendsStart = 0;
  let sendsInWindow = 0;
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
    loopBusy = eluStart ? performance.eventLoopUtilization(eluStart).utilization : NaN;
    loadCpuUsedMs = processCpuMs(child.pid) - loadCpuStart;
    heardInWindow = heard.bytes - heardStart;
    sendsInWindow = heard.sends - sendsStart;
    lag.disable();
  };
  const watcher = setInterval(() => {
    for (const s of server.sessions) sessions.set(s.setup.callSid, s);
    const t = performance.now();
    if (!cpuStart && t >= openAt) {
      cpuStart = process.cpuUsage();
      eluStart = performance.eventLoopUtilization();
      loadCpuStart = processCpuMs(child.pid);
      heardStart = heard.bytes;
      sendsStart = heard.sends;
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
      ambience: agentExtra.ambience_enabled === true,
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
  const preemption = { started: 0, used: 0, wasted: 0 };
  for (const session of sessions.values()) {
    floor.interruptions += session.floor.counts.interruptions;
    floor.pauses += session.floor.counts.pauses;
    floor.resumes += session.floor.counts.resumes;
    for (const k of ['started', 'used', 'wasted'] as const) preemption[k] += session.turnHost.prefetch?.counts[k] ?? 0;
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
    listened,
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
    loopBusy,
    meanActive: activeSamples ? activeSum / activeSamples : NaN,
    cpuMsPerCallSecond: windowMs > 0 && activeSum > 0 ? used / (activeSum / activeSamples) / (windowMs / 1000) : NaN,
    loadCpuMsPerCallSecond: windowMs > 0 && activeSum > 0 ? loadCpuUsedMs / (activeSum / activeSamples) / (windowMs / 1000) : NaN,
    cpuMsPerAudioSecond: callSeconds > 0 ? used / callSeconds : NaN,
    loadCpuMsPerAudioSecond: callSeconds > 0 ? loadCpuUsedMs / callSeconds : NaN,
    audioShare: windowMs > 0 && activeSum > 0 ? callSeconds / ((activeSum / activeSamples) * (windowMs / 1000)) : NaN,
    sttSendsPerAudioSecond: callSeconds > 0 ? sendsInWindow / callSeconds : NaN,
    windowMs,
    turns,
    callsEnded: outcomes.length,
    floor,
    preemption,
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
        `${mode === 'turns' ? `, ${turns} turns, ${preemption.used} answered from a request asked ahead, ${preemption.wasted} thrown away, ${stats.fragmentAnswers ?? 0}/${stats.fragments ?? 0} fragments answered in the pause` : ''}` +
        `${stats.failed ? `, ${stats.failed} failed to connect` : ''}${stats.errors.length ? ` (e.g. ${stats.errors[0]})` : ''}\n`,
    );
    return result;
  }
  process.stdout.write(
    `  ${calls} ${listened ? `listened calls (${stats.listeners ?? 0} listeners, ${fmt((stats.listenedBytes ?? 0) / 1e6, 1)} MB received)` : 'calls'} (${fmt(result.meanActive, 0)} up on average): window ${(windowMs / 1000).toFixed(1)} s, ${turns} turns, ${stats.bargeIns} barge-ins, ` +
      `lag p99 ${fmt(result.lagP99Ms)} ms (max ${fmt(result.lagMaxMs)}), loop busy ${fmt(result.loopBusy * 100, 0)} %, CPU ${fmt(result.cpuMsPerCallSecond, 2)} ms/call/s (load process ${fmt(result.loadCpuMsPerCallSecond, 2)}), ` +
      `per audio second ${fmt(result.cpuMsPerAudioSecond, 2)} ms (load process ${fmt(result.loadCpuMsPerAudioSecond, 2)}; audio kept ${fmt(result.audioShare * 100, 0)} % of real time), ${fmt(result.sttSendsPerAudioSecond, 1)} STT messages per audio second` +
      `${stats.failed ? `, ${stats.failed} failed to connect` : ''}${stats.errors.length ? ` (e.g. ${stats.errors[0]})` : ''}\n`,
  );
  return result;
}

/**
 * The bed's own arithmetic, apart from the messages it adds: CPU to mix one second of phone frames (50 x 20 ms,
 * decode, add, encode), measured on 200 call-seconds. The load level's difference adds the bed's messages in
 * the silences and is as noisy as the machine; this one is not.
 */
function mixCpuMsPerCallSecond(): number {
  const mixer = new BedMixer(shippedBed(AMBIENCE.ambience.sound, 8_000), AMBIENCE.ambience.volume, PHONE_AUDIO, 0);
  const frame = new Uint8Array(160).fill(0x7f);
  const seconds = 200;
  const start = process.cpuUsage();
  for (let i = 0; i < seconds * 50; i += 1) mixer.mix(frame, i * 20);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / seconds;
}

/** Counts the caller audio the server hands its transcriber: the work a call-second stands for. */
