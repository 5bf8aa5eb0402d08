// Invariant: a vendor is reported simulated exactly when the deployment declares it runs that vendor's
// stand-in (STAND_IN_VENDORS, set by what starts the stand-ins), never inferred from an address: with no
// declaration (production) nothing is reported, whatever the base URLs; an agent's notice names only its own
// declared vendors on the channel's capabilities, each with the key variable that makes it real, and says
// in one sentence what is simulated. A declaration naming an unknown capability or vendor fails the config.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { standInsOf } from '../../lib/vendors/stand-ins.js';

const ALL = 'stt:deepgram,stt:assemblyai,stt:speechmatics,stt:openai,llm:openai,llm:anthropic,llm:google,tts:elevenlabs,tts:deepgram,tts:cartesia,telephony:twilio';
const LOCAL = { STAND_IN_VENDORS: ALL };
const AGENT = { stt_provider: 'deepgram', llm_provider: 'openai', tts_provider: 'elevenlabs' } as const;

describe('simulated vendors', () => {
  it('names every capability of the agent on a stand-in, with the variable that makes it real', () => {
    const notice = standInsOf(loadConfig(LOCAL), AGENT, { channel: 'web' })!;
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
    const deepgram = standInsOf(loadConfig(LOCAL), { ...AGENT, tts_provider: 'deepgram' }, { channel: 'phone' })!;
    expect(deepgram.parts.map((p) => `${p.capability}:${p.vendor}`)).toEqual(['stt:deepgram', 'llm:openai', 'tts:deepgram', 'telephony:twilio']);
    expect(deepgram.message).toContain('phone calls reach a simulated callee. To make them real, set DEEPGRAM_API_KEY, OPENAI_API_KEY and TWILIO_ACCOUNT_SID with TWILIO_AUTH_TOKEN where the platform runs');
  });

  it('in a chat names the model only', () => {
    const notice = standInsOf(loadConfig(LOCAL), AGENT, { channel: 'chat' })!;
    expect(notice.parts).toEqual([{ capability: 'llm', vendor: 'openai', keyVariable: 'OPENAI_API_KEY' }]);
    expect(standInsOf(loadConfig({ STAND_IN_VENDORS: 'stt:deepgram,tts:elevenlabs,telephony:twilio' }), AGENT, { channel: 'chat' })).toBeUndefined();
  });

  it('leaves out each vendor not declared, and says nothing without a declaration whatever the base URLs', () => {
    // Deepgram and ElevenLabs on services of the operator's (here on loopback: an address says nothing).
    const partly = standInsOf(loadConfig({ STAND_IN_VENDORS: 'llm:openai,telephony:twilio', DEEPGRAM_BASE_URL: 'http://127.0.0.1:4001', ELEVENLABS_BASE_URL: 'http://localhost:4009' }), AGENT, { channel: 'web' })!;
    expect(partly.parts).toEqual([{ capability: 'llm', vendor: 'openai', keyVariable: 'OPENAI_API_KEY' }]);
    expect(partly.message).toBe('Simulated: the language model (OpenAI) is a local stand-in. The model repeats back what it is told. To make it real, set OPENAI_API_KEY where the platform runs (npm start: in its environment) and restart it.');
    expect(standInsOf(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:4006/v1', TWILIO_API_BASE_URL: 'http://127.0.0.1:4011' }), AGENT, { channel: 'phone' })).toBeUndefined();
    expect(standInsOf(loadConfig({}), undefined, { channel: 'phone' })).toBeUndefined();
  });

  it('without an agent, lists every declared vendor in a fixed order', () => {
    const shuffled = ALL.split(',').reverse().join(' , ');
    const notice = standInsOf(loadConfig({ STAND_IN_VENDORS: shuffled }), undefined, { channel: 'phone' })!;
    expect(notice.parts.map((p) => `${p.capability}:${p.vendor}`)).toEqual(ALL.split(','));
  });

  it('refuses a declaration that names no known capability and vendor', () => {
    for (const bad of ['deepgram', 'stt:twilio', 'voice:deepgram', 'stt:deepgram:x', 'telephony:vonage']) {
      expect(() => loadConfig({ STAND_IN_VENDORS: bad }), bad).toThrow(/STAND_IN_VENDORS/);
    }
    expect(loadConfig({ STAND_IN_VENDORS: ' ' }).STAND_IN_VENDORS).toEqual([]);
  });
});
