// Invariant: a vendor is reported simulated exactly when the base URL the adapters would use for it points
// at a loopback address (a stand-in), decided from the configuration alone: on the real services (no base
// URL) or behind a non-loopback proxy nothing is reported; an agent's notice names only its own vendors,
// each with the key variable that makes it real, and says in one sentence what is simulated.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { isLoopbackUrl, standInsOf } from '../../lib/vendors/stand-ins.js';

const LOCAL = {
  DEEPGRAM_BASE_URL: 'http://127.0.0.1:4001', DEEPGRAM_TTS_BASE_URL: 'http://127.0.0.1:4002', ASSEMBLYAI_BASE_URL: 'http://127.0.0.1:4003',
  SPEECHMATICS_BASE_URL: 'ws://127.0.0.1:4004', OPENAI_STT_BASE_URL: 'http://127.0.0.1:4005', OPENAI_BASE_URL: 'http://localhost:4006/v1',
  ANTHROPIC_BASE_URL: 'http://[::1]:4007', GOOGLE_BASE_URL: 'http://127.0.0.1:4008', ELEVENLABS_BASE_URL: 'http://127.0.0.1:4009',
  CARTESIA_BASE_URL: 'http://127.0.0.1:4010', TWILIO_API_BASE_URL: 'http://127.0.0.1:4011',
};
const AGENT = { stt_provider: 'deepgram', llm_provider: 'openai', tts_provider: 'elevenlabs' } as const;

describe('simulated vendors', () => {
  it('tells loopback hosts from the rest', () => {
    for (const url of ['http://127.0.0.1:1', 'ws://127.8.9.10', 'http://localhost:3000', 'http://api.localhost', 'http://[::1]:80', 'http://[::ffff:127.0.0.1]:80']) expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of [undefined, '', 'https://api.deepgram.com', 'http://10.0.0.5:8080', 'http://128.0.0.1', 'http://localhost.example.com', 'not a url']) expect(isLoopbackUrl(url), String(url)).toBe(false);
  });

  it('names every capability of the agent on a stand-in, with the variable that makes it real', () => {
    const notice = standInsOf(loadConfig(LOCAL), AGENT, { telephony: false })!;
    expect(notice.parts).toEqual([
      { capability: 'stt', vendor: 'deepgram', keyVariable: 'DEEPGRAM_API_KEY' },
      { capability: 'llm', vendor: 'openai', keyVariable: 'OPENAI_API_KEY' },
      { capability: 'tts', vendor: 'elevenlabs', keyVariable: 'ELEVENLABS_API_KEY' },
    ]);
    expect(notice.message).toBe(
      'Simulated: speech recognition (Deepgram), the language model (OpenAI) and the voice (ElevenLabs) are local stand-ins. ' +
        'The recognizer writes a scripted line for whatever you say, the model repeats back what it is told and the voice is a tone. ' +
        'To make them real, set DEEPGRAM_API_KEY, OPENAI_API_KEY and ELEVENLABS_API_KEY where the platform runs (npm start: in its environment) and restart it.',
    );
    // Deepgram for both speech recognition and the voice: one key variable.
    const deepgram = standInsOf(loadConfig(LOCAL), { ...AGENT, tts_provider: 'deepgram' }, { telephony: true })!;
    expect(deepgram.parts.map((p) => `${p.capability}:${p.vendor}`)).toEqual(['stt:deepgram', 'llm:openai', 'tts:deepgram', 'telephony:twilio']);
    expect(deepgram.message).toContain('phone calls reach a simulated callee. To make them real, set DEEPGRAM_API_KEY, OPENAI_API_KEY and TWILIO_ACCOUNT_SID with TWILIO_AUTH_TOKEN where the platform runs');
  });

  it('leaves out each vendor that is real, and says nothing when all are', () => {
    const { DEEPGRAM_BASE_URL: _stt, ELEVENLABS_BASE_URL: _tts, ...rest } = LOCAL;
    // Deepgram on its real service, ElevenLabs behind a proxy of the operator's.
    const partly = standInsOf(loadConfig({ ...rest, ELEVENLABS_BASE_URL: 'https://tts-proxy.internal.example' }), AGENT, { telephony: false })!;
    expect(partly.parts).toEqual([{ capability: 'llm', vendor: 'openai', keyVariable: 'OPENAI_API_KEY' }]);
    expect(partly.message).toBe('Simulated: the language model (OpenAI) is a local stand-in. The model repeats back what it is told. To make it real, set OPENAI_API_KEY where the platform runs (npm start: in its environment) and restart it.');
    expect(standInsOf(loadConfig({}), AGENT, { telephony: true })).toBeUndefined();
  });

  it('without an agent, lists every vendor the platform reaches on a stand-in', () => {
    const notice = standInsOf(loadConfig(LOCAL), undefined, { telephony: true })!;
    expect(notice.parts.map((p) => `${p.capability}:${p.vendor}`)).toEqual([
      'stt:deepgram', 'stt:assemblyai', 'stt:speechmatics', 'stt:openai', 'llm:openai', 'llm:anthropic', 'llm:google', 'tts:elevenlabs', 'tts:deepgram', 'tts:cartesia', 'telephony:twilio',
    ]);
  });
});
