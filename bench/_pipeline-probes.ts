/**
 * The pipeline benchmark's instruments (bench/pipeline.ts): vendor ports wrapped to count audio heard and to
 * time barge-in aborts, the load child's request/answer messages, and a process's CPU time.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { LlmProvider } from '../lib/vendors/llm/port.js';
import type { SttProvider } from '../lib/vendors/stt/port.js';
import type { TtsProvider, TtsSession } from '../lib/vendors/tts/port.js';
import type { FromChild, ToChild } from './_pipeline-load.js';
import type { CallProbe } from './_pipeline-report.js';

export function countStt(stt: SttProvider, heard: { bytes: number; sends: number }): SttProvider {
  return {
    id: stt.id,
    async connect(options, signal) {
      const stream = await stt.connect(options, signal);
      return {
        sendAudio(audio) {
          heard.bytes += audio.length;
          heard.sends += 1;
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
export function probeLlm(llm: LlmProvider, probe: CallProbe): LlmProvider {
  return {
    id: llm.id,
    stream(request, signal) {
      signal.addEventListener('abort', () => probe.llmAborts.push(performance.now()), { once: true });
      return llm.stream(request, signal);
    },
  };
}

/** Notes when a barge-in cancels a TTS utterance at the adapter. */
export function probeTts(tts: TtsProvider, probe: CallProbe): TtsProvider {
  return {
    id: tts.id,
    async connect(options, signal) {
      const session = await tts.connect(options, signal);
      const wrapped: TtsSession = {
        utterance(id, language) {
          const u = session.utterance(id, language);
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
export function ask<T extends FromChild['type']>(child: ChildProcess, message: ToChild, want: T): Promise<Extract<FromChild, { type: T }>> {
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

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Another process's CPU time (user + system, ms) from /proc (Linux; NaN elsewhere): the load process's share
 * of the cores, read from outside so it costs that process nothing.
 */
export function processCpuMs(pid: number | undefined): number {
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
