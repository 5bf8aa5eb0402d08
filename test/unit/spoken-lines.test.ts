// Invariant: a recognizer stand-in returns the text of a simulated person's line exactly when the audio it
// detected speech in is that line's audio (its samples, after the mu-law round trip), once per line (speech
// a stream detects again further on in the same line adds no words, even while another call's person says
// the same line with the same samples), nothing for a registered sound without words, and
// its own script for any other audio; of two lines that share audio, the one whose position fits the time
// since it started. The script file of the Twilio stand-in's callee gives a person's steps per number,
// and a broken file is reported and ignored, never failing a call.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { knownLinesOr, SpokenLines } from '../../lib/local/standins/spoken-lines.js';
import { resolveScript, SttEngine, type EngineEvent } from '../../lib/local/standins/stt-engine.js';
import { calleeFor, readCalleeScripts, TEST_NUMBERS } from '../../lib/local/standins/twilio/test-numbers.js';
import { mulawToPcm, pcmToMulaw } from '../../lib/vendors/shared/mulaw.js';

/** Speech-like mu-law audio: a vowel-ish tone whose pitch depends on `seed`, so two lines differ. */
function line(ms: number, seed: number): Uint8Array {
  const pcm = new Int16Array(ms * 8);
  for (let i = 0; i < pcm.length; i += 1) {
    const t = i / 8_000;
    pcm[i] = Math.round(5_000 * Math.sin(2 * Math.PI * (120 + seed * 7) * t) + 2_000 * Math.sin(2 * Math.PI * (380 + seed * 11) * t));
  }
  return pcmToMulaw(pcm);
}

const silence = (ms: number) => new Uint8Array(ms * 8).fill(0xff);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};

/** What an engine whose script knows `lines` transcribes of `mulaw` (fed in 20 ms packets, then flushed). */
async function transcribe(lines: SpokenLines, mulaw: Uint8Array): Promise<string[]> {
  const events: EngineEvent[] = [];
  const script = resolveScript({ transcripts: knownLinesOr(lines, () => 'unknown speech'), finalDelayMs: 0 });
  const engine = new SttEngine(() => script, { endpointingMs: 300, utteranceEndMs: 1_000, interimResults: false }, 0, (e) => events.push(e));
  for (let at = 0; at < mulaw.length; at += 160) engine.pushMulaw(mulaw.subarray(at, at + 160));
  await engine.flush();
  return events.flatMap((e) => (e.type === 'final' && e.utterance >= 0 ? [e.text] : []));
}

describe('spoken lines', () => {
  it('transcribes a registered line as its text, and other speech by the script', async () => {
    const lines = new SpokenLines();
    const hello = line(800, 1);
    lines.say('Hello, this is Ada.', hello);
    expect(await transcribe(lines, concat(silence(300), hello, silence(600), line(600, 9), silence(600)))).toEqual(['Hello, this is Ada.', 'unknown speech']);
  });

  it('transcribes a line once even when a pause inside it ends the turn, and a wordless sound as nothing', async () => {
    const lines = new SpokenLines();
    const twoParts = concat(line(500, 2), silence(500), line(500, 3));
    lines.say('Yes. Tuesday works.', twoParts);
    const beep = line(400, 5);
    lines.say('', beep);
    expect(await transcribe(lines, concat(silence(200), twoParts, silence(600), beep, silence(600)))).toEqual(['Yes. Tuesday works.', '', '']);
  });

  it('transcribes once per stream the same line two people on two calls say at once, each stream hearing it split', () => {
    vi.useFakeTimers();
    try {
      const lines = new SpokenLines();
      const twoParts = concat(line(500, 2), silence(500), line(500, 3));
      const [a, b] = [{}, {}];
      const heard = (ms: number) => mulawToPcm(twoParts.subarray(ms * 8 - 400, ms * 8));
      lines.say('Yes. Tuesday works.', twoParts);
      vi.advanceTimersByTime(300);
      lines.say('Yes. Tuesday works.', twoParts);
      // The first call's stream hears its line begin, then go on after the pause inside it…
      vi.advanceTimersByTime(50);
      expect(lines.recognize(heard(100), 8_000, a)).toBe('Yes. Tuesday works.');
      vi.advanceTimersByTime(900);
      expect(lines.recognize(heard(1_050), 8_000, a)).toBe('');
      // …before the second call's stream, lagging on a loaded machine, hears the second person's.
      vi.advanceTimersByTime(400);
      expect(lines.recognize(heard(100), 8_000, b)).toBe('Yes. Tuesday works.');
      vi.advanceTimersByTime(950);
      expect(lines.recognize(heard(1_050), 8_000, b)).toBe('');
      // The same person saying the line again, from the top, is heard again.
      lines.say('Yes. Tuesday works.', twoParts);
      vi.advanceTimersByTime(50);
      expect(lines.recognize(heard(100), 8_000, a)).toBe('Yes. Tuesday works.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('picks, of two lines with the same audio, the one whose position fits the time it has played', () => {
    vi.useFakeTimers();
    try {
      const lines = new SpokenLines();
      const shared = line(2_000, 4);
      lines.say('first', shared);
      vi.advanceTimersByTime(1_500);
      lines.say('second', shared);
      // 1.5 s into the first line's audio: the first one is playing there now; the second just began.
      const at = 1_500 * 8;
      expect(lines.recognize(mulawToPcm(shared.subarray(at - 400, at)))).toBe('first');
      expect(lines.recognize(mulawToPcm(shared.subarray(0, 400)))).toBe('second');
      expect(lines.recognize(mulawToPcm(line(100, 8)))).toBeUndefined();
      // Long after both were sent they are forgotten.
      vi.advanceTimersByTime(60_000);
      expect(lines.recognize(mulawToPcm(shared.subarray(0, 400)))).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('callee script file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vap-scripts-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("gives a person's steps per number, and leaves other test numbers as they are", async () => {
    const file = join(dir, 'good.json');
    await writeFile(file, JSON.stringify({ [TEST_NUMBERS.person]: ['Hi.', { pauseMs: 500 }, { press: '12#' }, { say: 'Bye.' }], [TEST_NUMBERS.busy]: ['Hello?'] }));
    const warn = vi.fn();
    const scripts = readCalleeScripts(file, warn);
    expect(warn).not.toHaveBeenCalled();
    expect(calleeFor(TEST_NUMBERS.person, { kind: 'answer' }, scripts)).toEqual({ kind: 'answer', lines: ['Hi.', { pauseMs: 500 }, { press: '12#' }, 'Bye.'] });
    expect(calleeFor(TEST_NUMBERS.busy, { kind: 'answer' }, scripts)).toEqual({ kind: 'busy' });
    expect(calleeFor(TEST_NUMBERS.voicemail, { kind: 'answer' }, {})).toEqual({ kind: 'machine' });
    expect(calleeFor('+14155550100', { kind: 'answer' }, scripts)).toEqual({ kind: 'answer' });
    expect(readCalleeScripts(join(dir, 'missing.json'), warn)).toEqual({});
    expect(warn).not.toHaveBeenCalled();
  });

  it('reports a file that is not JSON or not a script, and ignores it', async () => {
    const warn = vi.fn();
    for (const [name, text] of [
      ['broken.json', '{"+12025550100": ['],
      ['wrong.json', JSON.stringify({ '+12025550100': [{ press: 'x' }] })],
      ['number.json', JSON.stringify({ '555-0100': ['Hi.'] })],
    ]) {
      const file = join(dir, name!);
      await writeFile(file, text!);
      expect(readCalleeScripts(file, warn)).toEqual({});
    }
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls.map(([m]) => m as string)).toEqual([expect.stringContaining('not JSON'), expect.stringContaining('keys 0-9'), expect.stringContaining('555-0100')]);
  });
});
