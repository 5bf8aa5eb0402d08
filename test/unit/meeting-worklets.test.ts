/**
 * Invariant: the meeting page's audio worklets do their arithmetic right, whatever the browser's rate.
 * Capture turns 48 kHz and 44.1 kHz input into 20 ms frames of 16 kHz PCM16 little-endian (640 bytes)
 * that keep a tone's frequency and level; playback plays 16 kHz PCM16 at the output rate, echoes a mark
 * only once every sample before it was output, drops everything at once on `clear` (then echoes the pending
 * marks), counts only samples actually played, and keeps all of a reply that arrives faster than it plays.
 * The worklet files run here as they are, with the two AudioWorklet globals they use.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Message = Record<string, unknown>;
interface Processor {
  port: { postMessage(message: Message, transfer?: unknown[]): void; onmessage?: (event: { data: Message }) => void };
  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean;
}

/** Loads a worklet file at `rate`, returning its processor and what it posted. */
function load(file: string, rate: number): { processor: Processor; posted: Message[] } {
  const posted: Message[] = [];
  class AudioWorkletProcessor {
    port = { postMessage: (message: Message) => posted.push(message), onmessage: undefined };
  }
  let made: (new () => Processor) | undefined;
  const source = readFileSync(new URL(`../../lib/web/meeting/assets/${file}`, import.meta.url), 'utf8');
  new Function('AudioWorkletProcessor', 'registerProcessor', 'sampleRate', source)(
    AudioWorkletProcessor,
    (_name: string, ctor: new () => Processor) => {
      made = ctor;
    },
    rate,
  );
  return { processor: new made!(), posted };
}

const QUANTUM = 128;

/** The dominant frequency of `samples` at `rate`, by counting upward zero crossings. */
function frequency(samples: number[], rate: number): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i += 1) if (samples[i - 1]! < 0 && samples[i]! >= 0) crossings += 1;
  return (crossings * rate) / samples.length;
}

const rms = (samples: number[]) => Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);

describe('capture worklet', () => {
  for (const rate of [48_000, 44_100]) {
    it(`resamples a 1 kHz tone from ${rate} Hz into 20 ms 16 kHz PCM16 LE frames`, () => {
      const { processor, posted } = load('capture-worklet.js', rate);
      const seconds = 1;
      const total = rate * seconds;
      for (let start = 0; start < total; start += QUANTUM) {
        const block = new Float32Array(QUANTUM);
        for (let j = 0; j < QUANTUM; j += 1) block[j] = 0.5 * Math.sin((2 * Math.PI * 1000 * (start + j)) / rate);
        processor.process([[block]], []);
      }
      const frames = posted.map((m) => m.frame as ArrayBuffer);
      expect(new Set(frames.map((f) => f.byteLength))).toEqual(new Set([640]));
      // One second in, 50 frames out (less one for the partly filled last frame at most).
      expect(frames.length).toBeGreaterThanOrEqual(49);
      expect(frames.length).toBeLessThanOrEqual(50);
      const samples = frames.flatMap((f) => {
        const view = new DataView(f);
        return Array.from({ length: 320 }, (_, k) => view.getInt16(k * 2, true) / 0x8000);
      });
      expect(frequency(samples, 16_000)).toBeCloseTo(1000, -1);
      expect(rms(samples)).toBeCloseTo(0.5 / Math.SQRT2, 2);
      expect(posted.at(-1)!.level as number).toBeCloseTo(0.5 / Math.SQRT2, 2);
    });
  }
});

describe('playback worklet', () => {
  const pcm = (samples: number, value = 0.25) => {
    const buffer = new ArrayBuffer(samples * 2);
    const view = new DataView(buffer);
    for (let k = 0; k < samples; k += 1) view.setInt16(k * 2, Math.round(value * 0x7fff * (k % 2 === 0 ? 1 : -1)), true);
    return buffer;
  };
  const render = (processor: Processor, quanta: number) => {
    const out: number[] = [];
    for (let q = 0; q < quanta; q += 1) {
      const channel = new Float32Array(QUANTUM);
      processor.process([], [[channel]]);
      out.push(...channel);
    }
    return out;
  };
  const send = (processor: Processor, data: Message) => processor.port.onmessage!({ data });
  const lastPlayed = (posted: Message[]) => posted.filter((m) => m.type === 'stats').at(-1)?.played as number | undefined;

  it('plays 16 kHz at 48 kHz, echoing a mark only after everything before it was output', () => {
    const { processor, posted } = load('playback-worklet.js', 48_000);
    send(processor, { type: 'audio', pcm: pcm(1_600) }); // 100 ms
    send(processor, { type: 'mark', name: 'm1' });
    const first = render(processor, 30); // 3,840 output samples = 80 ms
    expect(rms(first)).toBeGreaterThan(0.1);
    expect(posted.filter((m) => m.type === 'mark')).toEqual([]);
    render(processor, 10); // past 100 ms
    const markAt = posted.findIndex((m) => m.type === 'mark');
    expect(posted[markAt]).toEqual({ type: 'mark', name: 'm1' });
    // The report just before the mark already counts every sample before it.
    expect(posted.slice(0, markAt).filter((m) => m.type === 'stats').at(-1)!.played).toBe(1_600);
    // Then silence, and the count stays.
    const after = render(processor, 20);
    expect(rms(after.slice(QUANTUM))).toBe(0);
    expect(lastPlayed(posted)).toBe(1_600);
  });

  it('a clear drops every buffered sample at once and echoes the pending marks; dropped samples are not counted', () => {
    const { processor, posted } = load('playback-worklet.js', 44_100);
    send(processor, { type: 'audio', pcm: pcm(16_000) });
    send(processor, { type: 'mark', name: 'a' });
    send(processor, { type: 'audio', pcm: pcm(16_000) });
    send(processor, { type: 'mark', name: 'b' });
    render(processor, 10);
    send(processor, { type: 'clear' });
    expect(posted.filter((m) => m.type === 'mark').map((m) => m.name)).toEqual(['a', 'b']);
    const played = lastPlayed(posted)!;
    expect(played).toBeGreaterThan(400);
    expect(played).toBeLessThan(600);
    expect(rms(render(processor, 5))).toBe(0);
    // New audio after a clear plays from where it arrives.
    send(processor, { type: 'audio', pcm: pcm(1_000) });
    expect(rms(render(processor, 5))).toBeGreaterThan(0.1);
  });

  it('keeps all of a reply that arrives faster than it plays (the ring grows)', () => {
    const { processor, posted } = load('playback-worklet.js', 16_000);
    // 40 s at once: more than the initial ring.
    for (let i = 0; i < 40; i += 1) send(processor, { type: 'audio', pcm: pcm(16_000) });
    send(processor, { type: 'mark', name: 'end' });
    const quanta = Math.ceil((40 * 16_000) / QUANTUM) + 1;
    const out = render(processor, quanta);
    expect(out.slice(0, 40 * 16_000).every((s) => Math.abs(s) > 0.2)).toBe(true);
    expect(posted.filter((m) => m.type === 'mark')).toEqual([{ type: 'mark', name: 'end' }]);
    expect(lastPlayed(posted)).toBe(40 * 16_000);
  });
});
