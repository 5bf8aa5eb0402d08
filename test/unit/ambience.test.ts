/**
 * Invariant: the ambience bed is ours, the same everywhere, at the level docs/api.md states, and a seamless
 * loop; it is mixed into outbound audio only, follows the far end's playhead (a `clear` never makes it jump),
 * keeps the line full in the silences without delaying the agent (the bed buffered ahead is dropped when the
 * agent starts) and without counting as the agent speaking; bad sounds, volumes and URLs are refused; a
 * custom file is fetched once, capped, and must be a 16-bit PCM WAV.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentCreate } from '../../lib/domain/agent.js';
import { AMBIENCE_SOUNDS, BED_REFERENCE_RMS, ambienceOf } from '../../lib/domain/ambience.js';
import { assertAgentAmbience } from '../../lib/domain/ambience-url.js';
import { ValidationError } from '../../lib/domain/errors.js';
import { bedAtRate, shippedBed, synthesizeBed } from '../../lib/media/ambience-beds.js';
import { CustomBeds } from '../../lib/media/custom-bed.js';
import { decodeWav, WavFormatError } from '../../lib/media/wav.js';
import { PHONE_AUDIO, WIDEBAND_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { mulawToPcm, pcmToMulaw } from '../../lib/vendors/shared/mulaw.js';
import { rms } from '../../lib/vendors/shared/pcm.js';
import { CallRecorder, wavHeader } from '../../streaming-service/src/end/recording.js';
import { BedMixer } from '../../streaming-service/src/session/ambience.js';
import { AudioOut, BED_HANDLE } from '../../streaming-service/src/session/audio-out.js';
import { twilioTransport } from '../../streaming-service/src/transport/twilio.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('shipped beds', () => {
  it.each(AMBIENCE_SOUNDS)('%s: deterministic, at the reference level at 16 and 8 kHz, unclipped, and a seamless loop', (sound) => {
    const bed = synthesizeBed(sound);
    expect(synthesizeBed(sound)).toEqual(bed);
    expect(bed.length).toBe(8 * 16_000);
    for (const b of [bed, bedAtRate(bed, 8_000)]) {
      expect(Math.abs(rms(b) / BED_REFERENCE_RMS - 1)).toBeLessThan(0.02);
      let peak = 0;
      for (const v of b) peak = Math.max(peak, Math.abs(v));
      expect(peak).toBeLessThan(32_767);
      // The wrap from the last sample to the first is a step like the loop's own (a cut between unrelated
      // samples of these mostly low-pass beds would stand out from them).
      const steps = Array.from({ length: b.length - 1 }, (_, i) => Math.abs(b[i + 1]! - b[i]!)).sort((x, y) => x - y);
      expect(Math.abs(b[0]! - b.at(-1)!)).toBeLessThanOrEqual(steps[Math.floor(steps.length * 0.9999)]!);
    }
  });

  it('each sound is its own bed, and the shared copy is made once', () => {
    const beds = AMBIENCE_SOUNDS.map((s) => shippedBed(s, 8_000));
    for (let i = 1; i < beds.length; i += 1) expect(beds[i]).not.toEqual(beds[0]);
    expect(shippedBed('office', 8_000)).toBe(beds[0]);
  });
});

describe('BedMixer', () => {
  const loop = Int16Array.from({ length: 8_000 }, (_, i) => ((i * 37) % 2_000) - 1_000);

  it('follows the playhead: the frame playing at t is the loop at t, scaled by the volume', () => {
    const m = new BedMixer(loop, 0.5, WIDEBAND_AUDIO, 1_000);
    // 16 kHz: 1.5 s after the origin is sample 24,000, 8,000 into the third time round the loop.
    const frame = new Int16Array(m.bed(2_500, 640).buffer);
    expect(Array.from(frame.subarray(0, 4))).toEqual(Array.from(loop.subarray(0, 4), (v) => (v * 16_384) >> 15));
    expect(rms(frame)).toBeGreaterThan(0);
  });

  it('continues exactly across frames sent back to back, whatever the float rounding', () => {
    const one = new BedMixer(loop, 1, PHONE_AUDIO, 0);
    const two = new BedMixer(loop, 1, PHONE_AUDIO, 0);
    const whole = one.bed(10, 320);
    const parts = [...two.bed(10, 160), ...two.bed(10 + 160 / 8 + 1e-9, 160)];
    expect(parts).toEqual([...whole]);
  });

  it('mixes under the agent: mu-law decoded, summed and encoded; PCM summed', () => {
    const agent = Int16Array.from({ length: 160 }, (_, i) => Math.round(8_000 * Math.sin(i / 5)));
    const phone = new BedMixer(loop, 0.25, PHONE_AUDIO, 0);
    const mixed = mulawToPcm(phone.mix(pcmToMulaw(agent), 0));
    const bedOnly = mulawToPcm(new BedMixer(loop, 0.25, PHONE_AUDIO, 0).bed(0, 160));
    const expected = mulawToPcm(pcmToMulaw(agent)).map((v, i) => v + bedOnly[i]!);
    // Within mu-law's step at these levels.
    mixed.forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThan(400));
    const web = new BedMixer(loop, 0.25, WIDEBAND_AUDIO, 0);
    const pcm = new Int16Array(web.mix(new Uint8Array(agent.buffer.slice(0)), 0).buffer);
    const webBed = new Int16Array(new BedMixer(loop, 0.25, WIDEBAND_AUDIO, 0).bed(0, 320).buffer);
    expect(Array.from(pcm)).toEqual(Array.from(agent, (v, i) => v + webBed[i]!));
  });
});

describe('AudioOut with a bed', () => {
  type Sent = { event: string; bytes?: number; name?: string };
  const setUp = (recorder?: CallRecorder) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const sent: Sent[] = [];
    const plays: { handleId: string; playAt: number; sentAt: number }[] = [];
    const start = performance.now();
    const out = new AudioOut(
      twilioTransport('MZ1', {
        send: (m) => {
          const msg = JSON.parse(m) as { event: string; media?: { payload: string }; mark?: { name: string } };
          sent.push({ event: msg.event, bytes: msg.media ? Buffer.from(msg.media.payload, 'base64').length : undefined, name: msg.mark?.name });
        },
        close: () => undefined,
      }),
      {
        onAudioSent: (handleId, audio, sentAt, playAt) => {
          plays.push({ handleId, playAt, sentAt });
          recorder?.addAgent(audio, playAt - start);
        },
        onCleared: (atMs) => recorder?.cutAgent(atMs - start),
      },
    );
    // Static: a steady hiss, so every short window of it has the bed's level.
    out.playBed(new BedMixer(shippedBed('static', 8_000), 0.5, PHONE_AUDIO, start));
    return { out, sent, plays, start };
  };
  const media = (sent: readonly Sent[]) => sent.filter((m) => m.event === 'media').reduce((n, m) => n + m.bytes!, 0);

  it('keeps 400 ms of bed ahead in a silence, 300 ms a message, and the agent counts as silent', () => {
    const { out, sent } = setUp();
    expect(sent).toEqual([{ event: 'media', bytes: 3_200, name: undefined }]);
    vi.advanceTimersByTime(1_000);
    // The bed up to 1.3 s: topped up at 300, 600 and 900 ms, when 100 ms were left, 300 ms a message.
    expect(media(sent)).toBe(10_400);
    expect(sent.slice(1).every((m) => m.bytes === 2_400)).toBe(true);
    expect(out.bufferedMs()).toBe(0);
    expect(out.isBusy()).toBe(false);
    out.close();
  });

  it('drops the bed buffered ahead when the agent starts, so its first frame plays at once, mixed', () => {
    const { out, sent, plays } = setUp();
    vi.advanceTimersByTime(130);
    const before = sent.length;
    const now = performance.now();
    out.enqueueAudio('h1', new Uint8Array(1_600).fill(0xff));
    out.enqueueMark('h1', 'h1.0');
    expect(sent.slice(before).map((m) => m.event)).toEqual(['clear', 'media', 'mark']);
    const first = plays.find((p) => p.handleId === 'h1')!;
    expect(first.playAt).toBe(now);
    expect(out.bufferedMs()).toBe(200);
    // Silence (0xff) under which the bed plays: what left is not silence.
    expect(sent[before + 1]!.bytes).toBe(1_600);
    // Once the agent's audio has played, the bed alone goes on after it.
    vi.advanceTimersByTime(400);
    expect(plays.filter((p) => p.handleId === BED_HANDLE && p.playAt >= now + 200).length).toBeGreaterThan(0);
    expect(out.isBusy()).toBe(false);
    out.close();
  });

  it('does not clear while the agent is still playing: more audio goes right after it', () => {
    const { out, sent } = setUp();
    out.enqueueAudio('h1', new Uint8Array(1_600));
    const clears = sent.filter((m) => m.event === 'clear').length;
    vi.advanceTimersByTime(60);
    out.enqueueAudio('h1', new Uint8Array(800));
    expect(sent.filter((m) => m.event === 'clear').length).toBe(clears);
    out.close();
  });

  it('leaves a voice streamed in real time alone: no bed between its chunks, and the bed joins after it', () => {
    const { out, sent, plays } = setUp();
    vi.advanceTimersByTime(50);
    // One second of voice in 40 ms chunks, each arriving as the last one plays.
    for (let i = 0; i < 25; i += 1) {
      out.enqueueAudio('h1', new Uint8Array(320));
      vi.advanceTimersByTime(40);
    }
    const voice = plays.filter((p) => p.handleId === 'h1');
    const [first, last] = [voice[0]!.playAt, voice.at(-1)!.playAt + 40];
    // Only the first chunk's clear (the silence's bed dropped), and no bed inside the voice.
    expect(sent.filter((m) => m.event === 'clear')).toHaveLength(1);
    expect(plays.filter((p) => p.handleId === BED_HANDLE && p.playAt > first && p.playAt < last - 1e-6)).toEqual([]);
    vi.advanceTimersByTime(400);
    expect(plays.some((p) => p.handleId === BED_HANDLE && p.playAt >= last - 1e-6)).toBe(true);
    out.close();
  });

  it('plays on through a pause and after a barge-in, and the recording has no gap', () => {
    const recorder = new CallRecorder(10, PHONE_AUDIO);
    const { out, sent } = setUp(recorder);
    vi.advanceTimersByTime(200);
    out.enqueueAudio('h1', new Uint8Array(4_000).fill(0x80));
    vi.advanceTimersByTime(100);
    out.pause();
    const paused = sent.length;
    vi.advanceTimersByTime(300);
    expect(media(sent.slice(paused))).toBeGreaterThan(0);
    out.resume();
    vi.advanceTimersByTime(100);
    out.clear('h1');
    vi.advanceTimersByTime(600);
    out.close();
    const wav = recorder.toWav();
    const right = Int16Array.from({ length: (wav.length - 44) / 4 }, (_, i) => wav.readInt16LE(44 + i * 4 + 2));
    // Every 50 ms of the call has sound in it: bed or agent, never a hole.
    for (let at = 0; at + 400 <= right.length; at += 400) expect(rms(right, at, at + 400)).toBeGreaterThan(BED_REFERENCE_RMS * 0.5 * 0.3);
  });
});

describe('ambience settings', () => {
  const base = { name: 'A', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram' };
  it('takes a shipped sound or a URL and a volume in 0-1; refuses the rest', () => {
    expect(AgentCreate.parse({ ...base, ambience: { sound: 'cafe' } }).ambience).toEqual({ sound: 'cafe', volume: 0.3 });
    for (const ambience of [{ sound: 'forest' }, { sound: 'office', volume: 1.5 }, { sound: 'office', volume: -0.1 }, { sound: 'ftp://x.example.com/a.wav' }, { sound: 'office', gain: 1 }]) {
      expect(AgentCreate.safeParse({ ...base, ambience }).success, JSON.stringify(ambience)).toBe(false);
    }
    expect(ambienceOf({ ambience_enabled: false, ambience: { sound: 'cafe', volume: 1 } })).toBeUndefined();
    expect(ambienceOf({ ambience_enabled: true })).toEqual({ sound: 'office', volume: 0.3 });
  });

  it('refuses custom URLs that are not public https', () => {
    const policy = { allowedHosts: [] };
    expect(() => assertAgentAmbience({ sound: 'https://cdn.example.com/lobby.wav', volume: 0.3 }, policy)).not.toThrow();
    for (const sound of ['http://cdn.example.com/a.wav', 'https://127.0.0.1/a.wav', 'https://169.254.169.254/latest', 'https://metadata.internal/a.wav', 'https://u:p@cdn.example.com/a.wav', 'https://[::1]/a.wav']) {
      expect(() => assertAgentAmbience({ sound, volume: 0.3 }, policy), sound).toThrow(ValidationError);
    }
  });
});

describe('custom bed files', () => {
  const wav = (samples: Int16Array, rate: number, channels = 1) => {
    const data = Buffer.from(samples.buffer.slice(0));
    const header = wavHeader(data.length, channels, rate);
    header.writeUInt16LE(channels, 22);
    return new Uint8Array(Buffer.concat([header, data]));
  };

  it('reads 16-bit PCM WAV, mono or stereo (mixed down), and refuses other files', () => {
    const stereo = Int16Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? 1_000 : 3_000));
    expect(decodeWav(wav(stereo, 16_000, 2))).toEqual({ sampleRate: 16_000, samples: Int16Array.from([2_000, 2_000, 2_000, 2_000]) });
    expect(() => decodeWav(new TextEncoder().encode('<html>hello</html>'))).toThrow(WavFormatError);
    const eightBit = wav(new Int16Array(8), 8_000);
    new DataView(eightBit.buffer).setUint16(34, 8, true);
    expect(() => decodeWav(eightBit)).toThrow(/16-bit PCM/);
    expect(() => decodeWav(wav(new Int16Array(8), 96_000))).toThrow(/8000 to 48000/);
  });

  it('fetches a file once for every call and rate, and refuses what is too big, too short or not there', async () => {
    const samples = Int16Array.from({ length: 32_000 }, (_, i) => (i % 100) * 10);
    const asked: string[] = [];
    const files: Record<string, Response | (() => Response)> = {
      'https://cdn.example.com/ok.wav': () => new Response(wav(samples, 16_000)),
      'https://cdn.example.com/big.wav': () => new Response('x', { headers: { 'content-length': String(3 * 1024 * 1024) } }),
      'https://cdn.example.com/short.wav': () => new Response(wav(new Int16Array(800), 16_000)),
      'https://cdn.example.com/gone.wav': () => new Response('no', { status: 404 }),
    };
    const beds = new CustomBeds({
      allowedHosts: [],
      fetch: async (url) => {
        asked.push(String(url));
        const f = files[String(url)]!;
        return typeof f === 'function' ? f() : f;
      },
    });
    const [a, b, c] = await Promise.all([beds.loop('https://cdn.example.com/ok.wav', 16_000), beds.loop('https://cdn.example.com/ok.wav', 16_000), beds.loop('https://cdn.example.com/ok.wav', 8_000)]);
    expect(a).toEqual(samples);
    expect(b).toBe(a);
    expect(c.length).toBe(16_000);
    expect(asked).toEqual(['https://cdn.example.com/ok.wav']);
    await expect(beds.loop('https://cdn.example.com/big.wav', 8_000)).rejects.toThrow(/over 2097152/);
    await expect(beds.loop('https://cdn.example.com/short.wav', 8_000)).rejects.toThrow(/under 1000 ms/);
    await expect(beds.loop('https://cdn.example.com/gone.wav', 8_000)).rejects.toThrow(/404/);
  });
});
