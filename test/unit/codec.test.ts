/**
 * Invariant: the media codec is lossless where G.711 is (every mu-law byte survives decode/encode), close
 * to the signal where it is lossy, and Twilio messages round-trip to exactly the wire shapes Twilio uses.
 */
import { describe, expect, it } from 'vitest';
import { MULAW_TO_LINEAR, mulawToPcm, pcmToMulaw, resample } from '../../lib/vendors/shared/mulaw.js';
import { PHONE_AUDIO, WIDEBAND_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { decodeToPcm, pcmToLinear16, rms } from '../../lib/vendors/shared/pcm.js';
import { decodeTwilio, encodeClear, encodeMark, encodeMedia } from '../../streaming-service/src/codec/twilio.js';

describe('mu-law', () => {
  it('every byte survives decode then encode (0x7f and 0xff both mean zero)', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const back = pcmToMulaw(mulawToPcm(all));
    for (let i = 0; i < 256; i += 1) {
      if (i === 0x7f) expect(back[i]).toBe(0xff);
      else expect(back[i]).toBe(i);
    }
  });

  it('matches the G.711 reference points', () => {
    expect(MULAW_TO_LINEAR[0xff]).toBe(0);
    expect(MULAW_TO_LINEAR[0x00]).toBe(-32_124);
    expect(MULAW_TO_LINEAR[0x80]).toBe(32_124);
    expect(pcmToMulaw(Int16Array.of(0, 32_767, -32_768))).toEqual(Uint8Array.of(0xff, 0x80, 0x00));
  });

  it('keeps a sine within G.711 quantization error', () => {
    const pcm = Int16Array.from({ length: 800 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));
    const back = mulawToPcm(pcmToMulaw(pcm));
    for (let i = 0; i < pcm.length; i += 1) expect(Math.abs(back[i]! - pcm[i]!)).toBeLessThanOrEqual(Math.abs(pcm[i]!) * 0.07 + 8);
  });

  it('resamples 24 kHz to 8 kHz keeping a tone and the duration', () => {
    const pcm24 = Int16Array.from({ length: 2400 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 24_000)));
    const pcm8 = resample(pcm24, 24_000, 8000);
    expect(pcm8.length).toBe(800);
    const expected = Int16Array.from({ length: 800 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 8000)));
    const err = pcm8.reduce((s, v, i) => s + Math.abs(v - expected[i]!), 0) / 800;
    expect(err).toBeLessThan(400);
  });

  it('measures level: silence is ~0, a tone is loud', () => {
    expect(rms(decodeToPcm(new Uint8Array(160).fill(0xff), PHONE_AUDIO))).toBe(0);
    const tone = pcmToMulaw(Int16Array.from({ length: 160 }, (_, i) => Math.round(6000 * Math.sin(i / 3))));
    expect(rms(decodeToPcm(tone, PHONE_AUDIO))).toBeGreaterThan(3000);
  });
});

describe('Twilio Media Streams messages', () => {
  it('decodes start with custom parameters, media, mark, dtmf and stop', () => {
    expect(decodeTwilio('{"event":"connected","protocol":"Call","version":"1.0.0"}')).toEqual({ kind: 'connected' });
    const start = decodeTwilio(JSON.stringify({
      event: 'start', sequenceNumber: '1', streamSid: 'MZ1',
      start: { accountSid: 'AC1', streamSid: 'MZ1', callSid: 'CA1', tracks: ['inbound'], customParameters: { token: 't' }, mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } },
    }));
    expect(start).toEqual({ kind: 'start', streamSid: 'MZ1', callSid: 'CA1', accountSid: 'AC1', customParameters: { token: 't' }, encoding: 'audio/x-mulaw', sampleRate: 8000 });
    const media = decodeTwilio(JSON.stringify({ event: 'media', sequenceNumber: '2', streamSid: 'MZ1', media: { track: 'inbound', chunk: '1', timestamp: '20', payload: Buffer.from([1, 2, 3]).toString('base64') } }));
    expect(media).toEqual({ kind: 'media', audio: Uint8Array.of(1, 2, 3), timestampMs: 20, track: 'inbound' });
    expect(decodeTwilio('{"event":"mark","sequenceNumber":"3","streamSid":"MZ1","mark":{"name":"p1"}}')).toEqual({ kind: 'mark', name: 'p1' });
    expect(decodeTwilio('{"event":"dtmf","streamSid":"MZ1","sequenceNumber":"4","dtmf":{"track":"inbound_track","digit":"5"}}')).toEqual({ kind: 'dtmf', digit: '5' });
    expect(decodeTwilio('{"event":"stop","sequenceNumber":"5","streamSid":"MZ1","stop":{"accountSid":"AC1","callSid":"CA1"}}')).toEqual({ kind: 'stop', callSid: 'CA1' });
  });

  it('returns undefined for malformed frames', () => {
    for (const bad of ['', 'not json', '{}', '{"event":"start"}', '{"event":"media","media":{"payload":1}}', '[]']) {
      expect(decodeTwilio(bad)).toBeUndefined();
    }
  });

  it('encodes media, mark and clear exactly as Twilio expects', () => {
    expect(JSON.parse(encodeMedia('MZ1', Uint8Array.of(255, 0)))).toEqual({ event: 'media', streamSid: 'MZ1', media: { payload: Buffer.from([255, 0]).toString('base64') } });
    expect(JSON.parse(encodeMark('MZ1', 'p1'))).toEqual({ event: 'mark', streamSid: 'MZ1', mark: { name: 'p1' } });
    expect(JSON.parse(encodeClear('MZ1'))).toEqual({ event: 'clear', streamSid: 'MZ1' });
  });
});

describe('linear16 bytes', () => {
  it('round-trips samples little-endian, whatever the input offset', () => {
    const pcm = Int16Array.from([0, 1, -1, 32_767, -32_768, 1234]);
    const bytes = pcmToLinear16(pcm);
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect([...decodeToPcm(shifted.subarray(1), WIDEBAND_AUDIO)]).toEqual([...pcm]);
    // A trailing odd byte is not half a sample.
    expect(decodeToPcm(bytes.subarray(0, 5), WIDEBAND_AUDIO)).toHaveLength(2);
  });
});
