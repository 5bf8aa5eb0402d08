import { mulawToPcm } from '../../../vendors/shared/mulaw.js';

/**
 * A DTMF receiver for the Twilio stand-in's simulated IVR: the Goertzel algorithm over 205-sample blocks
 * (the classic choice at 8 kHz: every DTMF frequency falls near a bin centre) at the eight keypad
 * frequencies. A key counts when its row and column tones both dominate the block's energy in two blocks
 * in a row, and again only after a block without it, so one long tone is one key.
 */
const ROWS = [697, 770, 852, 941] as const;
const COLS = [1209, 1336, 1477, 1633] as const;
const KEYS = ['123A', '456B', '789C', '*0#D'] as const;
const BLOCK = 205;
const RATE = 8_000;

function goertzel(samples: Float64Array, hz: number): number {
  const k = Math.round((BLOCK * hz) / RATE);
  const coeff = 2 * Math.cos((2 * Math.PI * k) / BLOCK);
  let s1 = 0;
  let s2 = 0;
  for (const x of samples) {
    const s = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

/** The key whose two tones carry most of this block's energy, if any. */
function keyOf(block: Float64Array): string | undefined {
  const energy = block.reduce((n, x) => n + x * x, 0);
  if (energy < BLOCK * 200 * 200) return undefined;
  const rows = ROWS.map((f) => goertzel(block, f));
  const cols = COLS.map((f) => goertzel(block, f));
  const r = rows.indexOf(Math.max(...rows));
  const c = cols.indexOf(Math.max(...cols));
  // A pure tone of amplitude A gives a Goertzel power of about (A * N / 2)^2; energy is A^2 * N / 2.
  // Both tones together must hold most of the energy, and each must stand clear of its group's others.
  const share = ((rows[r]! + cols[c]!) * 2) / BLOCK / energy;
  const clear = rows.every((p, i) => i === r || p * 4 < rows[r]!) && cols.every((p, i) => i === c || p * 4 < cols[c]!);
  return share > 0.6 && clear ? KEYS[r]![c] : undefined;
}

export class DtmfDetector {
  readonly digits: string[] = [];
  private pending = new Float64Array(BLOCK);
  private filled = 0;
  private candidate: string | undefined;
  private seen = 0;
  private holding: string | undefined;

  /** Feeds mu-law audio as it plays; returns the keys recognised in it. */
  push(mulaw: Uint8Array): string[] {
    const found: string[] = [];
    for (const sample of mulawToPcm(mulaw)) {
      this.pending[this.filled++] = sample;
      if (this.filled < BLOCK) continue;
      this.filled = 0;
      const key = keyOf(this.pending);
      if (key !== this.candidate) {
        this.candidate = key;
        this.seen = 0;
      }
      this.seen += 1;
      if (key === undefined) this.holding = undefined;
      else if (this.seen >= 2 && this.holding !== key) {
        this.holding = key;
        this.digits.push(key);
        found.push(key);
      }
    }
    return found;
  }
}
