/**
 * The exact wire sequence each STT adapter produces against its stand-in (./stt-contract.test.ts), narrowband
 * and wideband: handshake, parameters, auth, audio framing, keepalive and close.
 */
import { expect } from 'vitest';
import { wireSteps, type StandinSession } from '../../lib/local/standins/stt-engine.js';
import { WIDEBAND_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { pcmToLinear16 } from '../../lib/vendors/shared/pcm.js';
import type { SttOptions, SttProviderId } from '../../lib/vendors/stt/port.js';
import { LEAD_SILENCE_MS, OPTIONS, WIDEBAND_SPEECH, binaryIn, jsonIn, sent, type VendorCase } from './stt-contract-support.js';


// ---------------------------------------------------------------------------------------------------------
// Per vendor: how finalize shows on the wire, and the exact wire sequence of a whole stream
// ---------------------------------------------------------------------------------------------------------

export const VENDORS: readonly VendorCase[] = [
  {
    id: 'deepgram',
    keyVar: 'DEEPGRAM_API_KEY',
    realSpeechStarted: true,
    isFinalize: (m) => m.type === 'Finalize',
    wire: (s, _control, audioBytes) => {
      expect(s.path).toBe('/v1/listen');
      expect(s.query).toEqual({
        model: 'nova-3',
        language: 'en-US',
        encoding: 'mulaw',
        sample_rate: '8000',
        channels: '1',
        interim_results: 'true',
        endpointing: '300',
        utterance_end_ms: '1000',
        vad_events: 'true',
        smart_format: 'true',
      });
      expect(s.headers.authorization).toBe('Token standin');
      const steps = wireSteps(s.frames);
      expect(steps.at(-1)).toEqual({ json: { type: 'CloseStream' } });
      for (const step of steps.slice(0, -1)) if ('json' in step) expect(step.json).toEqual({ type: 'KeepAlive' });
      expect(steps.filter((st) => 'json' in st && (st.json as { type: string }).type === 'KeepAlive').length).toBeGreaterThanOrEqual(1);
      // The adapter opens with 20 ms of silence (KeepAlive holds only a socket that has had audio).
      expect(binaryIn(s)[0]!.bytes).toBe(160);
      expect('binary' in steps[0]!).toBe(true);
      expect(binaryIn(s).reduce((n, f) => n + f.bytes, 0)).toBe(audioBytes + 160);
      expect((sent(s).at(-1) as { json: { type: string } }).json.type).toBe('Metadata');
      expect(s.closed).toEqual({ code: 1000, reason: '', by: 'server' });
    },
  },
  {
    id: 'assemblyai',
    keyVar: 'ASSEMBLYAI_API_KEY',
    realSpeechStarted: false,
    isFinalize: (m) => m.type === 'ForceEndpoint',
    wire: (s, _control, audioBytes) => {
      expect(s.path).toBe('/v3/ws');
      expect(s.query).toEqual({
        sample_rate: '8000',
        encoding: 'pcm_mulaw',
        speech_model: 'universal-streaming-english',
        min_turn_silence: '300',
        max_turn_silence: '1000',
        format_turns: 'false',
      });
      expect(s.headers.authorization).toBe('standin');
      // AssemblyAI refuses messages outside 50-1000 ms; the adapter gathers Twilio's 20 ms packets.
      for (const f of binaryIn(s)) {
        expect(f.bytes).toBeGreaterThanOrEqual(400);
        expect(f.bytes).toBeLessThanOrEqual(8_000);
      }
      const total = binaryIn(s).reduce((n, f) => n + f.bytes, 0);
      expect(total).toBeGreaterThanOrEqual(audioBytes);
      expect(total).toBeLessThan(audioBytes + 400);
      const steps = wireSteps(s.frames);
      expect(steps).toEqual([{ binary: binaryIn(s).length, bytes: total }, { json: { type: 'Terminate' } }]);
      expect((sent(s)[0] as { json: { type: string } }).json.type).toBe('Begin');
      expect((sent(s).at(-1) as { json: { type: string } }).json.type).toBe('Termination');
      expect(s.closed).toEqual({ code: 1000, reason: '', by: 'server' });
    },
  },
  {
    id: 'speechmatics',
    keyVar: 'SPEECHMATICS_API_KEY',
    realSpeechStarted: true,
    isFinalize: (m) => m.message === 'ForceEndOfUtterance',
    wire: (s, control, audioBytes) => {
      const keyRequest = control.httpRequests.at(-1)!;
      expect(keyRequest).toMatchObject({ method: 'POST', path: '/v1/api_keys', query: { type: 'rt' }, status: 201 });
      expect(keyRequest.headers.authorization).toBe('Bearer standin');
      expect(JSON.parse(keyRequest.body)).toEqual({ ttl: 60 });
      expect(s.path).toBe('/v2');
      expect(s.query.jwt).toMatch(/^[\w-]{20,}$/);
      expect(s.query.jwt).not.toBe('standin');
      const [start, ...rest] = wireSteps(s.frames);
      expect(start).toEqual({
        json: {
          message: 'StartRecognition',
          audio_format: { type: 'raw', encoding: 'mulaw', sample_rate: 8_000 },
          transcription_config: {
            language: 'en',
            output_locale: 'en-US',
            model: 'enhanced',
            enable_partials: true,
            max_delay: 0.7,
            conversation_config: { end_of_utterance_silence_trigger: 0.3 },
          },
        },
      });
      const packets = binaryIn(s).length;
      expect(rest).toEqual([{ binary: packets, bytes: audioBytes }, { json: { message: 'EndOfStream', last_seq_no: packets } }]);
      const out = sent(s).map((f) => (f.kind === 'text' ? (f.json as { message: string }).message : 'binary'));
      expect(out[0]).toBe('RecognitionStarted');
      expect(out.filter((m) => m === 'AudioAdded')).toHaveLength(packets);
      expect(out.at(-1)).toBe('EndOfTranscript');
      expect(s.closed?.code).toBe(1000);
    },
  },
  {
    id: 'openai',
    keyVar: 'OPENAI_API_KEY',
    realSpeechStarted: true,
    isFinalize: (m) => m.type === 'input_audio_buffer.commit',
    wire: (s, _control, audioBytes) => {
      expect(s.path).toBe('/v1/realtime');
      expect(s.query).toEqual({ intent: 'transcription' });
      expect(s.headers.authorization).toBe('Bearer standin');
      const [update, ...appends] = jsonIn(s);
      expect(update).toEqual({
        type: 'session.update',
        session: {
          type: 'transcription',
          audio: {
            input: {
              format: { type: 'audio/pcmu' },
              transcription: { model: 'gpt-4o-transcribe', language: 'en' },
              turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 300 },
            },
          },
        },
      });
      expect(binaryIn(s)).toHaveLength(0);
      expect(appends.every((m) => m.type === 'input_audio_buffer.append')).toBe(true);
      expect(appends.reduce((n, m) => n + Buffer.from(String(m.audio), 'base64').length, 0)).toBe(audioBytes);
      const out = sent(s).map((f) => (f.kind === 'text' ? (f.json as { type: string }).type : 'binary'));
      expect(out.slice(0, 2)).toEqual(['session.created', 'session.updated']);
      expect(out).toContain('input_audio_buffer.committed');
      expect(s.closed).toMatchObject({ code: 1000, by: 'client' });
    },
  },
];

// ---------------------------------------------------------------------------------------------------------
// Wideband: the browser's linear16 16 kHz, and how each adapter puts it on the wire
// ---------------------------------------------------------------------------------------------------------

export const WIDEBAND_OPTIONS: SttOptions = { ...OPTIONS, format: WIDEBAND_AUDIO };
export const WIDEBAND_PACKET_BYTES = 640; // 20 ms of linear16 16 kHz

/** Lead silence + speech + trailing silence, linear16 16 kHz bytes. */
export function widebandCallerAudio(trailingMs: number): Uint8Array {
  const pcm = new Int16Array(((LEAD_SILENCE_MS + trailingMs) * 16_000) / 1_000 + WIDEBAND_SPEECH.length);
  pcm.set(WIDEBAND_SPEECH, (LEAD_SILENCE_MS * 16_000) / 1_000);
  return pcmToLinear16(pcm);
}

/** Per vendor: the stream's declared format and framing for wideband audio of `audioBytes`. */
export const WIDEBAND_WIRE: Record<SttProviderId, (s: StandinSession, audioBytes: number) => void> = {
  deepgram: (s, audioBytes) => {
    expect(s.query).toMatchObject({ encoding: 'linear16', sample_rate: '16000', channels: '1' });
    // 20 ms of linear16 16 kHz silence first (640 bytes), then the audio.
    expect(binaryIn(s)[0]!.bytes).toBe(640);
    expect(binaryIn(s).reduce((n, f) => n + f.bytes, 0)).toBe(audioBytes + 640);
  },
  assemblyai: (s, audioBytes) => {
    expect(s.query).toMatchObject({ encoding: 'pcm_s16le', sample_rate: '16000' });
    // 50 ms of linear16 16 kHz is 1,600 bytes: the least AssemblyAI takes in one message.
    for (const f of binaryIn(s)) {
      expect(f.bytes).toBeGreaterThanOrEqual(1_600);
      expect(f.bytes % 2).toBe(0);
    }
    const total = binaryIn(s).reduce((n, f) => n + f.bytes, 0);
    expect(total).toBeGreaterThanOrEqual(audioBytes);
    expect(total).toBeLessThan(audioBytes + 1_600);
  },
  speechmatics: (s, audioBytes) => {
    expect(jsonIn(s)[0]).toMatchObject({ message: 'StartRecognition', audio_format: { type: 'raw', encoding: 'pcm_s16le', sample_rate: 16_000 } });
    expect(binaryIn(s).reduce((n, f) => n + f.bytes, 0)).toBe(audioBytes);
  },
  openai: (s, audioBytes) => {
    // audio/pcm is 24 kHz only: the adapter resamples 16 kHz to 24 kHz (1.5 times the samples).
    const [update, ...appends] = jsonIn(s);
    expect((update as { session: { audio: { input: { format: unknown } } } }).session.audio.input.format).toEqual({ type: 'audio/pcm', rate: 24_000 });
    const sentBytes = appends.filter((m) => m.type === 'input_audio_buffer.append').reduce((n, m) => n + Buffer.from(String(m.audio), 'base64').length, 0);
    const inputSamples = audioBytes / 2;
    // All of it, less the resampler's look-ahead (at most 2 input samples) still held when the stream closed.
    expect(sentBytes).toBeGreaterThanOrEqual((inputSamples - 2) * 1.5 * 2);
    expect(sentBytes).toBeLessThanOrEqual(inputSamples * 1.5 * 2);
    expect(sentBytes % 2).toBe(0);
  },
};

// ---------------------------------------------------------------------------------------------------------
// The contract, once per implementation
// ---------------------------------------------------------------------------------------------------------
