/** The pipeline benchmark's figures (bench/pipeline.ts): what each level measured, its percentiles, and the printed report with its final JSON line. */
import { cpus, loadavg } from 'node:os';
import type { LevelStats } from './_pipeline-load.js';
import { realtimeSummary, type RealtimeResults } from './_pipeline-realtime.js';
import { DEFAULT_INTERRUPTION } from '../streaming-service/src/session/interruption.js';
import { LAG_OK_MS, LAG_RESOLUTION_MS, QUALITY_NOISE_MS, TURN_VENDOR_SUM_MS, VENDOR_DELAYS } from './_pipeline-settings.js';

/** Per call: when barge-in aborts reached the adapters (performance.now()). */
export interface CallProbe {
  llmAborts: number[];
  ttsCancels: number[];
}

export interface LevelResult {
  /** The voice-to-voice levels' same-run baseline (preemptive generation off). */
  readonly baseline?: boolean;
  /** The listened level: each call had one listener on its listen socket. */
  readonly listened?: boolean;
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
  /** The server's event-loop utilization in the window (perf_hooks), 0-1: how near its loop is to saturation. */
  readonly loopBusy: number;
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
  /** Messages the server sent its transcriber per second of caller audio (stt-link.ts chunking). */
  readonly sttSendsPerAudioSecond: number;
  /** Mean number of calls up during the window (connect failures lower it). */
  readonly meanActive: number;
  readonly windowMs: number;
  readonly turns: number;
  readonly callsEnded: number;
  /** Interruptions, pauses and resumes the sessions' floors decided. */
  readonly floor: { interruptions: number; pauses: number; resumes: number };
  /** Model requests asked ahead of a turn (preemptive generation), used by their turn, thrown away. */
  readonly preemption: { started: number; used: number; wasted: number };
  /** Calls that ended as `error`. */
  readonly errorEnds: number;
  /** Words of the caller's sentence missing from what reached the model (fault level). */
  readonly wordsLost: number;
  readonly wordsExpected: number;
}

function pct(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const round = (n: number, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/** The ambience level and its same-run baseline (the same calls without a bed); its quality level once run. */
export interface AmbienceResults {
  readonly without: LevelResult;
  readonly with: LevelResult;
  readonly quality?: LevelResult;
  /** CPU of the mixing alone per call-second (bench/pipeline.ts `mixCpuMsPerCallSecond`). */
  readonly mixCpuMsPerCallSecond: number;
}

/** What the bed costs: lag and CPU with it, CPU added per call-second, barge-in and false interruptions with it. */
function ambienceSummary(a: AmbienceResults) {
  const rate = (r: LevelResult) => (r.stats.overAgentSounds ? r.floor.interruptions / r.stats.overAgentSounds : NaN);
  return {
    ambienceCalls: a.with.calls,
    ambienceLagP99Ms: round(a.with.lagP99Ms),
    ambienceLagP99MsWithout: round(a.without.lagP99Ms),
    ambienceLoopBusy: round(a.with.loopBusy, 2),
    ambienceLoopBusyWithout: round(a.without.loopBusy, 2),
    ambienceCpuMsPerCallSecond: round(a.with.cpuMsPerCallSecond, 2),
    ambienceCpuAddedMsPerCallSecond: round(a.with.cpuMsPerCallSecond - a.without.cpuMsPerCallSecond, 2),
    ambienceCpuAddedMsPerAudioSecond: round(a.with.cpuMsPerAudioSecond - a.without.cpuMsPerAudioSecond, 2),
    ambienceMixCpuMsPerCallSecond: round(a.mixCpuMsPerCallSecond, 3),
    ambienceBargeInClearP99Ms: round(pct(a.with.clearMs, 99), 2),
    ambienceBargeIns: a.with.clearMs.length,
    ambienceFailedToConnect: a.with.stats.failed,
    ...(a.quality ? { ambienceFalseInterruptionRate: round(rate(a.quality), 4) } : {}),
  };
}

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
  // The agent pauses `min_duration_ms` into the noise and resumes the false-interruption timeout after the
  // pause (docs/voice-pipeline.md): the silence the rule itself leaves after the noise's end.
  const configuredWaitMs = DEFAULT_INTERRUPTION.minDurationMs + DEFAULT_INTERRUPTION.falseInterruptionTimeoutMs - QUALITY_NOISE_MS;
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

/**
 * The listened level against the unlistened level of the same size in the same run: the listen socket's
 * added server CPU per listener-second (listener count = call count), and whether lag stays within target.
 */
function listenedSummary(listened: LevelResult, base: LevelResult | undefined) {
  const added = base ? listened.cpuMsPerCallSecond - base.cpuMsPerCallSecond : NaN;
  process.stdout.write(
    `  listened: ${listened.calls} calls, one listener each: lag p99 ${fmt(listened.lagP99Ms)} ms (target <= ${LAG_OK_MS}), ` +
      `CPU ${fmt(listened.cpuMsPerCallSecond, 2)} ms/call/s against ${fmt(base?.cpuMsPerCallSecond ?? NaN, 2)} unlistened: ${fmt(added, 2)} ms/listener/s added\n`,
  );
  return {
    listenedCalls: listened.calls,
    listenedLagP99Ms: round(listened.lagP99Ms),
    listenedCpuMsPerCall: round(listened.cpuMsPerCallSecond, 2),
    listenerAddedCpuMsPerSecond: round(added, 3),
    listenedLagOk: Number.isFinite(listened.lagP99Ms) && listened.lagP99Ms <= LAG_OK_MS && listened.stats.failed === 0,
  };
}

/** The voice-to-voice levels' figures for the JSON line (1 call and 100; ms and rates of turns). */
function turnsSummary(turns: readonly LevelResult[]) {
  const [one, many, off] = [turns.find((r) => r.calls === 1 && !r.baseline), turns.find((r) => r.calls !== 1), turns.find((r) => r.baseline)];
  const p = (r: LevelResult | undefined, key: 'voiceToVoiceShortMs' | 'voiceToVoiceLongMs', at: number) => round(pct(r?.stats[key] ?? [], at), 0);
  const all = turns.filter((r) => !r.baseline).reduce((sum, r) => ({ turns: sum.turns + r.turns, wasted: sum.wasted + r.preemption.wasted, fragments: sum.fragments + (r.stats.fragments ?? 0), answered: sum.answered + (r.stats.fragmentAnswers ?? 0) }), { turns: 0, wasted: 0, fragments: 0, answered: 0 });
  const summary = {
    voiceToVoiceShortP50Ms: p(one, 'voiceToVoiceShortMs', 50),
    voiceToVoiceShortP90Ms: p(one, 'voiceToVoiceShortMs', 90),
    voiceToVoiceLongP50Ms: p(one, 'voiceToVoiceLongMs', 50),
    voiceToVoiceLongP90Ms: p(one, 'voiceToVoiceLongMs', 90),
    voiceToVoiceShortP50MsAt100: p(many, 'voiceToVoiceShortMs', 50),
    voiceToVoiceLongP50MsAt100: p(many, 'voiceToVoiceLongMs', 50),
    vendorSumMs: TURN_VENDOR_SUM_MS,
    voiceToVoiceShortP50MsNotPreempted: p(off, 'voiceToVoiceShortMs', 50),
    voiceToVoiceLongP50MsNotPreempted: p(off, 'voiceToVoiceLongMs', 50),
    voiceToVoiceShortToNotPreempted: round(pct(one?.stats.voiceToVoiceShortMs ?? [], 50) / pct(off?.stats.voiceToVoiceShortMs ?? [], 50), 3),
    preemptionWasteRate: all.turns ? round(all.wasted / all.turns, 3) : null,
    fragmentAnswerRate: all.fragments ? round(all.answered / all.fragments, 3) : null,
  };
  process.stdout.write(
    `\nVoice to voice (end of the caller's audio to the first agent audio it received; vendor sum ${TURN_VENDOR_SUM_MS} ms): ` +
      `short p50 ${summary.voiceToVoiceShortP50Ms} / p90 ${summary.voiceToVoiceShortP90Ms}, long p50 ${summary.voiceToVoiceLongP50Ms} / p90 ${summary.voiceToVoiceLongP90Ms} at 1 call; ` +
      `short p50 ${summary.voiceToVoiceShortP50MsAt100}, long p50 ${summary.voiceToVoiceLongP50MsAt100} at ${many?.calls ?? 'n/a'}; ` +
      `requests asked ahead and thrown away ${all.wasted} of ${all.turns} turns; fragments answered in the pause ${all.answered} of ${all.fragments}. ` +
      `Same run, 1 call asking its model only at the end of turn: short p50 ${summary.voiceToVoiceShortP50MsNotPreempted}, long p50 ${summary.voiceToVoiceLongP50MsNotPreempted} (short ratio ${summary.voiceToVoiceShortToNotPreempted}).\n`,
  );
  return summary;
}

export function report(results: readonly LevelResult[], idleLagP99Ms: number, q?: QualityResults, ambience?: AmbienceResults, listened?: LevelResult, turns: readonly LevelResult[] = [], realtime?: RealtimeResults): void {
  if (results.length === 0) {
    const figures = { ...(turns.length ? turnsSummary(turns) : {}), ...(realtime ? realtimeSummary(realtime) : {}), loadAverage1m: round(loadavg()[0]!, 2) };
    return void process.stdout.write(`${JSON.stringify(figures)}\n`);
  }
  const rows = [...results, ...(ambience ? [ambience.with] : [])].map((r, i) => ({
    calls: i >= results.length ? `${r.calls}+bed` : String(r.calls),
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
    'loop busy %': fmt(r.loopBusy * 100, 0),
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
      `Lag: perf_hooks histogram at ${LAG_RESOLUTION_MS} ms resolution; loop busy = the server's event-loop utilization (perf_hooks), near 100 % the loop is saturated.`,
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
    loopBusyAt: Object.fromEntries(results.map((r) => [r.calls, round(r.loopBusy, 2)])),
    cpuMsPerCallAt: Object.fromEntries(results.map((r) => [r.calls, round(r.cpuMsPerCallSecond, 2)])),
    loadCpuMsPerCallAt: Object.fromEntries(results.map((r) => [r.calls, round(r.loadCpuMsPerCallSecond, 2)])),
    cpuMsPerAudioSecondAt: Object.fromEntries(results.map((r) => [r.calls, round(r.cpuMsPerAudioSecond, 2)])),
    loadCpuMsPerAudioSecondAt: Object.fromEntries(results.map((r) => [r.calls, round(r.loadCpuMsPerAudioSecond, 2)])),
    cpuUnit: 'ms CPU per call per second',
    loadAverage1m: round(loadavg()[0]!, 2),
    ...(q ? qualitySummary(q) : {}),
    ...(ambience ? ambienceSummary(ambience) : {}),
    ...(listened ? listenedSummary(listened, results.find((r) => r.calls === listened.calls)) : {}),
    ...(turns.length ? turnsSummary(turns) : {}),
    ...(realtime ? realtimeSummary(realtime) : {}),
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}
