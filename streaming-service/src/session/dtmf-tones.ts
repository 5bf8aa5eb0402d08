import { pcmToMulaw } from '../../../lib/vendors/shared/mulaw.js';

/**
 * In-band DTMF: the keypad's dual tones as audio, for the `send_dtmf` tool. A Media Stream cannot carry
 * RFC 2833 events towards Twilio, and redirecting the call to `<Play digits>` would end the stream (and
 * the conversation), so the tones are played into the call like any other agent audio. The carrier passes
 * them to the far end, where IVRs detect them as they detect a handset's keys.
 */

/** Row (low) and column (high) frequencies of each key, ITU-T Q.23. */
export const DTMF_FREQUENCIES: Readonly<Record<string, readonly [number, number]>> = {
  '1': [697, 1209], '2': [697, 1336], '3': [697, 1477], A: [697, 1633],
  '4': [770, 1209], '5': [770, 1336], '6': [770, 1477], B: [770, 1633],
  '7': [852, 1209], '8': [852, 1336], '9': [852, 1477], C: [852, 1633],
  '*': [941, 1209], '0': [941, 1336], '#': [941, 1477], D: [941, 1633],
};

/** Keys `send_dtmf` accepts; `w` is a half-second pause (the usual dial-string convention). */
export const SENDABLE_DIGITS = /^[0-9*#w]{1,32}$/;

/**
 * Tone and gap lengths. Q.24 asks receivers to accept 40 ms tones; 100 ms on, 100 ms off is what handsets
 * send and what every IVR recognises, even after a lossy codec.
 */
const TONE_MS = 100;
const GAP_MS = 100;
const PAUSE_MS = 500;
/** Each tone at about -7 dBm0: loud and clean, well below clipping when the two add up. */
const AMPLITUDE = 7_000;
const RATE = 8_000;

/** The audio of a dial string (mu-law 8 kHz), ready for the outbound queue. */
export function dtmfAudio(digits: string): Uint8Array {
  const samplesPerMs = RATE / 1000;
  const parts: Int16Array[] = [];
  for (const key of digits) {
    if (key === 'w') {
      parts.push(new Int16Array(PAUSE_MS * samplesPerMs));
      continue;
    }
    const pair = DTMF_FREQUENCIES[key];
    if (!pair) continue;
    const tone = new Int16Array(TONE_MS * samplesPerMs);
    for (let i = 0; i < tone.length; i += 1) {
      const t = i / RATE;
      tone[i] = Math.round(AMPLITUDE * (Math.sin(2 * Math.PI * pair[0] * t) + Math.sin(2 * Math.PI * pair[1] * t)));
    }
    parts.push(tone, new Int16Array(GAP_MS * samplesPerMs));
  }
  const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    pcm.set(p, at);
    at += p.length;
  }
  return pcmToMulaw(pcm);
}
