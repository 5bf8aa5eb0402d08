/**
 * Invariant: the tones `send_dtmf` plays (in-band, mu-law 8 kHz) are recognised key for key by a Goertzel
 * receiver (the Twilio stand-in's IVR), one key per tone whatever the chunking, pauses included; speech-like
 * audio and silence produce no keys.
 */
import { describe, expect, it } from 'vitest';
import { DtmfDetector } from '../../lib/local/standins/twilio/dtmf-detector.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { dtmfAudio } from '../../streaming-service/src/session/dtmf-tones.js';

const feed = (audio: Uint8Array, chunk: number) => {
  const d = new DtmfDetector();
  for (let i = 0; i < audio.length; i += chunk) d.push(audio.subarray(i, i + chunk));
  return d.digits.join('');
};

describe('DTMF tones', () => {
  it('every key round-trips through the receiver, in any chunk size', () => {
    const audio = dtmfAudio('1234567890*#w5');
    for (const chunk of [1, 160, 333, 4096]) expect(feed(audio, chunk)).toBe('1234567890*#5');
  });

  it('a repeated key is heard twice thanks to the gap', () => {
    expect(feed(dtmfAudio('11'), 160)).toBe('11');
  });

  it('single tones and silence are not keys', () => {
    const noise = new Uint8Array([...tone(500, 440), ...tone(500, 1000), ...new Uint8Array(4000).fill(0xff)]);
    expect(feed(noise, 160)).toBe('');
  });
});
