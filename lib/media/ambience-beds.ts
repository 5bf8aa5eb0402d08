import { AMBIENCE_SOUNDS, BED_REFERENCE_RMS, type AmbienceSound } from '../domain/ambience-sounds.js';

/**
 * The ambience beds we ship, synthesized rather than recorded (docs/voice-pipeline.md, "Ambience"): each is
 * noise shaped by filters and envelopes from a fixed seed, so every build and every process makes the same
 * samples, and nothing in them belongs to anyone else (they are dedicated to the public domain, CC0:
 * LICENSE-AMBIENCE.md). Pure computation, no I/O: the streaming service and the dashboard's preview both
 * import it. A bed is made once per process at 16 kHz (the streaming service makes all five at start,
 * {@link warmShippedBeds}), 8 kHz is derived from it, and the loop is seamless: its last half second is
 * cross-faded into its first.
 */

/** Loop length: long enough that the pattern of clicks and voices does not register as a repeat. */
const LOOP_SECONDS = 8;
/** The cross-fade that makes the loop's end run into its start. */
const FADE_SECONDS = 0.5;
export const BED_RATE = 16_000;

/** Deterministic PRNG (mulberry32): small, fast, and the same in Node and in the browser. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An RBJ biquad band-pass (constant 0 dB peak gain). */
function bandPass(centerHz: number, q: number, rate = BED_RATE): (x: number) => number {
  const w = (2 * Math.PI * centerHz) / rate;
  const alpha = Math.sin(w) / (2 * q);
  const a0 = 1 + alpha;
  const b0 = alpha / a0;
  const b2 = -alpha / a0;
  const a1 = (-2 * Math.cos(w)) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  return (x) => {
    const y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    return y;
  };
}

/** One-pole low-pass. */
function lowPass(cutoffHz: number, rate = BED_RATE): (x: number) => number {
  const k = 1 - Math.exp((-2 * Math.PI * cutoffHz) / rate);
  let y = 0;
  return (x) => (y += k * (x - y));
}

/** Pink noise (Paul Kellet's economy filter over white noise). */
function pink(random: () => number): () => number {
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  return () => {
    const w = random() * 2 - 1;
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    return (b0 + b1 + b2 + w * 0.1848) * 0.2;
  };
}

/** Brown (red) noise: leaky integration of white noise, a low rumble. */
function brown(random: () => number): () => number {
  let y = 0;
  return () => {
    y = 0.995 * y + (random() * 2 - 1) * 0.05;
    return y;
  };
}

/**
 * A distant talker: noise through two formant band-passes, shaped into syllables (80-250 ms, raised
 * cosine) grouped into phrases with pauses. Unintelligible by construction: there are no words in it.
 */
function talker(random: () => number, pitch: number): () => number {
  const f1 = bandPass(450 * pitch + random() * 200, 2.5);
  const f2 = bandPass(1300 * pitch + random() * 500, 3);
  const noise = pink(random);
  let left = 0;
  let length = 1;
  let voiced = false;
  let syllablesLeft = 0;
  let level = 1;
  return () => {
    if (left <= 0) {
      if (syllablesLeft <= 0) {
        // A phrase: 3-12 syllables, then a pause of 0.3-1.5 s.
        syllablesLeft = 3 + Math.floor(random() * 10);
        voiced = false;
        length = Math.round(BED_RATE * (0.3 + random() * 1.2));
      } else {
        voiced = !voiced || random() < 0.3;
        length = Math.round(BED_RATE * (voiced ? 0.08 + random() * 0.17 : 0.02 + random() * 0.06));
        if (voiced) {
          syllablesLeft -= 1;
          level = 0.5 + random() * 0.5;
        }
      }
      left = length;
    }
    left -= 1;
    const env = voiced ? level * Math.sin((Math.PI * (length - left)) / length) : 0;
    const n = noise();
    return env * (f1(n) * 1.0 + f2(n) * 0.6);
  };
}

/** Sparse events: `make()` starts one every `minS`-`maxS` seconds; each plays its own decaying shape. */
function events(random: () => number, minS: number, maxS: number, make: () => (t: number) => number, lengthS: number): () => number {
  let wait = Math.round(BED_RATE * (minS + random() * (maxS - minS)));
  let shape: ((t: number) => number) | undefined;
  let t = 0;
  const length = Math.round(BED_RATE * lengthS);
  return () => {
    if (shape) {
      const v = shape(t / BED_RATE);
      t += 1;
      if (t >= length) shape = undefined;
      return v;
    }
    wait -= 1;
    if (wait <= 0) {
      shape = make();
      t = 0;
      wait = Math.round(BED_RATE * (minS + random() * (maxS - minS)));
    }
    return 0;
  };
}

/** The raw (unnormalized) signal of each bed, one sample per call. */
const RECIPES: Record<AmbienceSound, (random: () => number) => () => number> = {
  office: (random) => {
    const room = pink(random);
    const hum = lowPass(300);
    const voices = [talker(random, 1), talker(random, 0.8)];
    const keyNoise = bandPass(3_000, 1.2);
    // Typing: a key every 0.1-0.35 s in bursts, each a 15 ms click.
    const keys = events(random, 0.1, 0.9, () => {
      const gain = 0.4 + random() * 0.6;
      return (t) => gain * keyNoise(random() * 2 - 1) * Math.exp(-t * 300);
    }, 0.015);
    return () => 0.5 * hum(room()) + 0.12 * voices.reduce((s, v) => s + v(), 0) + 0.8 * keys();
  },
  call_center: (random) => {
    const room = pink(random);
    const hum = lowPass(400);
    const voices = [0.9, 1, 1.1, 0.85, 1.2, 0.95].map((p) => talker(random, p));
    return () => 0.3 * hum(room()) + 0.2 * voices.reduce((s, v) => s + v(), 0);
  },
  cafe: (random) => {
    const room = brown(random);
    const voices = [1, 0.9, 1.15, 0.8].map((p) => talker(random, p));
    // Cups and cutlery: two inharmonic partials decaying over ~150 ms, every 0.4-2 s.
    const clinks = events(random, 0.4, 2, () => {
      const f = 2_500 + random() * 2_500;
      const gain = 0.2 + random() * 0.4;
      return (t) => gain * Math.exp(-t * 25) * (Math.sin(2 * Math.PI * f * t) + 0.5 * Math.sin(2 * Math.PI * f * 2.76 * t));
    }, 0.3);
    return () => 2 * room() + 0.18 * voices.reduce((s, v) => s + v(), 0) + 0.25 * clinks();
  },
  street: (random) => {
    const rumble = brown(random);
    const tyre = lowPass(1_200);
    const hiss = pink(random);
    // Cars passing: a swell of rumble and tyre hiss over 2-4 s, every 1-4 s.
    const passes = events(random, 1, 4, () => {
      const d = 2 + random() * 2;
      return (t) => Math.exp(-(((t - d / 2) / (d / 5)) ** 2));
    }, 4);
    return () => {
      const swell = 0.3 + passes();
      return swell * (3 * rumble() + 0.6 * tyre(hiss()));
    };
  },
  static: (random) => {
    const hiss = pink(random);
    const bright = bandPass(2_500, 0.7);
    // Crackle: single-sample pops with a short ring, 5-40 a second.
    const pops = events(random, 0.025, 0.2, () => {
      const gain = (random() < 0.5 ? -1 : 1) * (0.5 + random());
      return (t) => gain * Math.exp(-t * 2_000);
    }, 0.004);
    return () => 0.5 * bright(hiss()) + 0.3 * hiss() + 0.6 * pops();
  },
};

/** Fixed seeds: part of what makes a bed the same everywhere. */
const SEEDS: Record<AmbienceSound, number> = { office: 0x0ff1ce, call_center: 0xca11, cafe: 0xcafe, street: 0x57ee7, static: 0x57a71c };

/**
 * One bed at 16 kHz: `LOOP_SECONDS` of samples whose end cross-fades into its start, normalized to
 * {@link BED_REFERENCE_RMS} (peaks soft-limited, so none clips).
 */
export function synthesizeBed(sound: AmbienceSound): Int16Array {
  const next = RECIPES[sound](rng(SEEDS[sound]));
  const n = LOOP_SECONDS * BED_RATE;
  const fade = FADE_SECONDS * BED_RATE;
  // Two seconds of warm-up let the filters and envelopes settle before the loop starts.
  for (let i = 0; i < 2 * BED_RATE; i += 1) next();
  const raw = new Float64Array(n + fade);
  for (let i = 0; i < raw.length; i += 1) raw[i] = next();
  const loop = new Float64Array(n);
  for (let i = 0; i < n; i += 1) loop[i] = raw[i]!;
  // Equal-power cross-fade: the loop's head is the tail's continuation, so sample n-1 runs into sample 0.
  for (let i = 0; i < fade; i += 1) {
    const x = i / fade;
    loop[i] = raw[i]! * Math.sin((x * Math.PI) / 2) + raw[n + i]! * Math.cos((x * Math.PI) / 2);
  }
  let sum = 0;
  for (const v of loop) sum += v * v;
  const gain = BED_REFERENCE_RMS / Math.sqrt(sum / n);
  const out = new Int16Array(n);
  // Soft limit above -3 dBFS: tanh keeps the rare peak (a pop, a clink) under full scale.
  const knee = 23_197;
  for (let i = 0; i < n; i += 1) {
    const v = loop[i]! * gain;
    const a = Math.abs(v);
    out[i] = Math.round(a <= knee ? v : Math.sign(v) * (knee + (32_767 - knee) * Math.tanh((a - knee) / (32_767 - knee))));
  }
  return out;
}

/** 16 kHz samples to `rate` (8 kHz: pairs averaged, a gentle low-pass before decimation). */
export function bedAtRate(bed16k: Int16Array, rate: number): Int16Array {
  if (rate === BED_RATE) return bed16k;
  if (rate !== 8_000) throw new Error(`beds are made at 16 or 8 kHz, not ${rate}`);
  const half = new Float64Array(bed16k.length >> 1);
  let sum = 0;
  for (let i = 0; i < half.length; i += 1) {
    half[i] = (bed16k[2 * i]! + bed16k[2 * i + 1]!) / 2;
    sum += half[i]! * half[i]!;
  }
  // The average drops the top octave's energy (most of a hiss): back to the reference level.
  const gain = BED_REFERENCE_RMS / Math.sqrt(sum / half.length || 1);
  return Int16Array.from(half, (v) => Math.max(-32_768, Math.min(32_767, Math.round(v * gain))));
}

const made = new Map<string, Int16Array>();

/**
 * Makes every shipped bed at both rates now, one sound per turn of the event loop. Synthesis costs ~0.1-0.2 s
 * of CPU for a bed with talkers: done when a streaming process starts, so no live call's loop waits for it.
 */
export async function warmShippedBeds(rates: readonly number[] = [8_000, BED_RATE]): Promise<void> {
  for (const sound of AMBIENCE_SOUNDS) {
    await new Promise((resolve) => setImmediate(resolve));
    for (const rate of rates) shippedBed(sound, rate);
  }
}

/** The shipped bed at `rate`, made on first use (see {@link warmShippedBeds}) and shared by every call of the process. */
export function shippedBed(sound: AmbienceSound, rate: number): Int16Array {
  const key = `${sound}@${rate}`;
  let bed = made.get(key);
  if (!bed) {
    const base = made.get(`${sound}@${BED_RATE}`) ?? synthesizeBed(sound);
    made.set(`${sound}@${BED_RATE}`, base);
    bed = bedAtRate(base, rate);
    made.set(key, bed);
  }
  return bed;
}
