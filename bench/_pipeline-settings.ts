/** The pipeline benchmark's settings (bench/pipeline.ts): the vendor delays, load levels and durations, each with its reason. */


/** The fixed vendor delays every level runs with. */
export const VENDOR_DELAYS = { sttFinalMs: 150, llmTtftMs: 200, ttsFirstByteMs: 80 } as const;
const LEVELS = [100, 250, 500] as const;
/**
 * `PIPELINE_LEVELS=250` (comma-separated call counts) runs only those load levels, and
 * `PIPELINE_CAPACITY_ONLY=1` skips the quality and fault levels: a capacity check that costs the shared
 * machine a minute instead of five. The full run (neither set) prints the complete JSON line.
 */
export const levels = (): readonly number[] => {
  const wanted = (process.env.PIPELINE_LEVELS ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return wanted.length ? wanted : LEVELS;
};
export const capacityOnly = process.env.PIPELINE_CAPACITY_ONLY === '1';
/**
 * The listened level (docs/live-calls.md, "Listen"): this many load calls again, each with one listener on
 * its listen socket, against the 100-call level of the same run; `PIPELINE_LISTENED=0` skips it. The target:
 * 100 listened calls keep lag p99 within {@link LAG_OK_MS}.
 */
export const LISTENED_CALLS = Number(process.env.PIPELINE_LISTENED ?? 100);
/** Calls connect spread over this window; measuring starts once all are up. */
export const STAGGER_MS = 8_000;
/** How long each call keeps talking after the stagger window: enough for several turns per call. */
export const DURATION_MS = 25_000;
/** Playback of agent audio at the caller, faster than real time so marks return and turns cycle sooner. */
export const PLAYBACK_SPEED = 4;
/** Lag that still keeps 20 ms audio frames on time with margin: the capacity criterion. */
export const LAG_OK_MS = 20;
/**
 * The event-loop delay histogram's resolution: 1 ms, because at the default 10 ms an idle loop already
 * reports ~10 ms and the 20 ms criterion could not be told from noise.
 */
export const LAG_RESOLUTION_MS = 1;
/** Concurrent demanding callers in the quality levels, and how long they talk. */
export const QUALITY_CALLS = 20;
export const QUALITY_DURATION_MS = 30_000;
/** The quality caller's wordless noise over the answer: long enough to pause the agent (past `min_duration_ms`). */
export const QUALITY_NOISE_MS = 1_000;
/** Calls in the fault level, one at a time. */
export const FAULT_CALLS = 6;
/**
 * The quality level's same-run baseline: what interruption was before (any caller sound over the agent
 * stops it at once, nothing resumes), to set the false-interruption rate against.
 */
export const NAIVE_INTERRUPTION = { min_duration_ms: 0, min_words: 0, resume_false_interruption: false } as const;
/**
 * The ambience level: this many calls with a bed on (call_center at the default 0.3, docs/voice-pipeline.md,
 * "Ambience"), set against the same count without it in the same run. 250 is the target load:
 * lag p99 at most 20 ms and at most 0.5 ms more CPU per call-second. `PIPELINE_AMBIENCE=0` skips it;
 * `PIPELINE_AMBIENCE_CALLS=N` runs it at N calls (a smoke run).
 */
export const AMBIENCE_CALLS = Number(process.env.PIPELINE_AMBIENCE_CALLS) > 0 ? Number(process.env.PIPELINE_AMBIENCE_CALLS) : 250;
export const AMBIENCE = { ambience_enabled: true, ambience: { sound: 'call_center', volume: 0.3 } } as const;
export const ambienceLevel = process.env.PIPELINE_AMBIENCE !== '0';
export const ambienceFirst = process.env.PIPELINE_AMBIENCE_FIRST === '1';

/**
 * The voice-to-voice levels (what a caller hears; docs/benchmarks.md): their own stand-ins with the delays
 * measured from outside: STT endpointing 300 ms (the stand-ins' default) and its final 200 ms after, LLM first
 * token 300 ms at 60 tokens a second, TTS first byte 100 ms. `vendorSumMs` is their sum before the first audio
 * (endpointing, final, first token, first byte), the floor a pipeline that waited for each in turn would add to.
 */
export const TURN_DELAYS = { sttEndpointingMs: 300, sttFinalMs: 200, llmTtftMs: 300, llmTokensPerSecond: 60, ttsFirstByteMs: 100 } as const;
export const TURN_VENDOR_SUM_MS = TURN_DELAYS.sttEndpointingMs + TURN_DELAYS.sttFinalMs + TURN_DELAYS.llmTtftMs + TURN_DELAYS.ttsFirstByteMs;
/** One call alone, then 100 at once; each caller talks this long. `PIPELINE_TURNS=0` skips them, `PIPELINE_TURNS_ONLY=1` runs only them. */
export const TURN_LEVELS = [1, 100] as const;
export const TURNS_DURATION_MS = 40_000;
export const turnsLevels = process.env.PIPELINE_TURNS !== '0';
export const turnsOnly = process.env.PIPELINE_TURNS_ONLY === '1';
