// Invariant: each STT stand-in refuses an audio format the way its vendor documents it (Deepgram's 400 at the
// handshake, AssemblyAI's close 3006, Speechmatics' invalid_audio_type, OpenAI's invalid_value), so an adapter
// that asks for a format the vendor does not take fails against the stand-in as it would in production.
import { WebSocket } from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { FINAL_DELAY_MS, SPOKEN } from './stt-contract-support.js';

let standins: SttStandins;
let standinEnv: Record<string, string>;

beforeAll(async () => {
  // No keys: every vendor gets a stand-in here, whatever the environment holds for the real-vendor runs.
  standins = await startSttStandins(loadConfig({}), { transcripts: () => SPOKEN, finalDelayMs: FINAL_DELAY_MS });
  standinEnv = standins.env;
});

afterAll(async () => {
  await standins?.stop();
});

describe('STT stand-ins refuse an audio format as their vendor does', () => {
  beforeEach(() => {
    for (const control of Object.values(standins.control)) {
      control.reset();
      control.requireKey(undefined);
    }
  });

  /** Opens a raw socket to a stand-in; resolves with its first messages, or its handshake status, or its close. */
  function probe(url: string, headers: Record<string, string>, send?: (ws: WebSocket) => void, until = 1) {
    return new Promise<{ status?: number; messages: Record<string, unknown>[]; close?: { code: number; reason: string } }>((resolve) => {
      const ws = new WebSocket(url, { headers });
      const messages: Record<string, unknown>[] = [];
      ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode, messages }));
      ws.on('error', () => undefined);
      ws.on('open', () => send?.(ws));
      ws.on('message', (data) => {
        messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
        if (messages.length === until) {
          resolve({ messages });
          ws.terminate();
        }
      });
      ws.on('close', (code, reason) => resolve({ messages, close: { code, reason: reason.toString() } }));
    });
  }
  const wsBase = (url: string) => url.replace(/^http/, 'ws');

  it('Deepgram: 400 for linear16 without a sample rate or at one it does not take', async () => {
    const base = `${wsBase(standinEnv.DEEPGRAM_BASE_URL!)}/v1/listen`;
    const auth = { Authorization: 'Token standin' };
    expect((await probe(`${base}?encoding=linear16`, auth)).status).toBe(400);
    expect((await probe(`${base}?encoding=linear16&sample_rate=abc`, auth)).status).toBe(400);
  });

  it('AssemblyAI: closes 3006 for an encoding it does not know', async () => {
    const result = await probe(`${standinEnv.ASSEMBLYAI_BASE_URL!}?sample_rate=16000&encoding=pcm_f64le&speech_model=universal-streaming-english`, { Authorization: 'standin' });
    expect(result.close?.code).toBe(3006);
  });

  it('Speechmatics: invalid_audio_type for an encoding the stand-in does not decode', async () => {
    const result = await probe(
      standinEnv.SPEECHMATICS_BASE_URL!,
      { Authorization: 'Bearer standin' },
      (ws) => ws.send(JSON.stringify({ message: 'StartRecognition', audio_format: { type: 'raw', encoding: 'pcm_f64le', sample_rate: 16_000 }, transcription_config: { language: 'en' } })),
    );
    expect(result.messages[0]).toMatchObject({ message: 'Error', type: 'invalid_audio_type' });
  });

  it('OpenAI: audio/pcm at any rate but 24 kHz is an invalid_value error, as OpenAI answers it', async () => {
    const result = await probe(
      `${wsBase(standinEnv.OPENAI_STT_BASE_URL!)}/realtime?intent=transcription`,
      { Authorization: 'Bearer standin' },
      (ws) => ws.send(JSON.stringify({ type: 'session.update', session: { type: 'transcription', audio: { input: { format: { type: 'audio/pcm', rate: 16_000 } } } } })),
      2,
    );
    expect(result.messages.map((m) => m.type)).toEqual(['session.created', 'error']);
    expect(result.messages[1]!.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_value', param: 'session.audio.input.format.rate' });
  });
});
