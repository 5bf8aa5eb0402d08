/**
 * Invariant: the speech stand-ins honour languages as their vendors document them. Deepgram refuses a
 * model/language pair it does not serve with its 400; OpenAI refuses a `language` that is not one of its
 * ISO-639-1 codes; ElevenLabs' Flash v2.5 refuses a `language_code` it does not speak. Asked to detect
 * (Deepgram `multi`, AssemblyAI Multilingual with `language_detection`, Speechmatics `auto`), each reports
 * the language spoken in its own wire field, and the real adapters turn that into the transcript's
 * `language`; told a language, they transcribe in it and report none.
 */
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { normalizeTranscript } from '../../lib/local/standins/stt-engine.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { startTtsStandins, type TtsStandins } from '../../lib/local/standins/tts.js';
import { createSttProvider } from '../../lib/vendors/stt/index.js';
import type { SttEvent, SttOptions, SttProviderId, SttStream } from '../../lib/vendors/stt/port.js';
import { elevenLabsTts } from '../../lib/vendors/tts/elevenlabs.js';
import type { TtsOptions } from '../../lib/vendors/tts/port.js';

let stt: SttStandins;
let tts: TtsStandins;

beforeAll(async () => {
  // The caller says a German line; a recognizer told a language hears it in that one.
  stt = await startSttStandins(loadConfig({}), { transcripts: () => ({ text: 'Guten Tag.', language: 'de' }), finalDelayMs: 30 });
  tts = await startTtsStandins(loadConfig({}));
});
afterAll(async () => {
  await Promise.all([stt?.stop(), tts?.stop()]);
});

/** The handshake's answer: the HTTP status of a refusal, or 101 once upgraded. */
function handshake(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.terminate();
      resolve({ status: 101, body: '' });
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('error', () => undefined);
  });
}

/** Half a second of tone then silence, in real-time 20 ms packets; the events until the stream closes. */
async function transcribe(vendor: SttProviderId, language: string): Promise<Extract<SttEvent, { type: 'transcript' }>[]> {
  const options: SttOptions = { language, endpointingMs: 300, utteranceEndMs: 1_000 };
  const stream: SttStream = await createSttProvider(vendor, loadConfig(stt.env)).connect(options);
  const events: SttEvent[] = [];
  const done = (async () => {
    for await (const e of stream.events) events.push(e);
  })();
  const audio = new Uint8Array([...tone(600), ...new Uint8Array(1_600 * 8).fill(0xff)]);
  const t0 = performance.now();
  for (let i = 0, n = 0; i < audio.length; i += 160, n += 1) {
    const wait = t0 + n * 20 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    stream.sendAudio(audio.subarray(i, i + 160));
  }
  await stream.close();
  await done;
  return events.filter((e): e is Extract<SttEvent, { type: 'transcript' }> => e.type === 'transcript' && e.isFinal && e.text.trim() !== '');
}

describe('Deepgram', () => {
  const listen = (query: string) => handshake(`${stt.env.DEEPGRAM_BASE_URL!.replace(/^http/, 'ws')}/v1/listen?encoding=mulaw&sample_rate=8000&${query}`, { authorization: `Token ${stt.env.DEEPGRAM_API_KEY!}` });

  it('refuses the pairs it does not serve, with its 400', async () => {
    for (const query of ['model=nova-3&language=es-ES', 'model=nova-3&language=xx', 'model=enhanced&language=multi', 'model=base&language=de']) {
      const answer = await listen(query);
      expect(answer.status, query).toBe(400);
      expect(JSON.parse(answer.body), query).toMatchObject({ err_code: 'INVALID_QUERY_PARAMETER', err_msg: 'No such model/language/tier combination found.' });
    }
    for (const query of ['model=nova-3&language=es', 'model=nova-3&language=pt-BR', 'model=nova-3&language=multi', 'model=nova-2&language=multi', 'model=nova-3&language=en-US']) {
      expect((await listen(query)).status, query).toBe(101);
    }
  });

  it('reports the detected language with multi, and the adapter passes it on', async () => {
    const finals = await transcribe('deepgram', 'multi');
    expect(finals.map((e) => [normalizeTranscript(e.text), e.language])).toEqual([['guten tag', 'de']]);
    const results = stt.control.deepgram!.sessions.at(-1)!.frames.flatMap((f) => (f.dir === 'out' && f.kind === 'text' ? [f.json as Record<string, any>] : [])).filter((m) => m.type === 'Results' && m.is_final && m.channel.alternatives[0].transcript);
    expect(results[0]!.channel.alternatives[0].languages).toEqual(['de']);
    expect(results[0]!.channel.alternatives[0].words.every((w: { language?: string }) => w.language === 'de')).toBe(true);
  });

  it('reports none when told the language', async () => {
    const finals = await transcribe('deepgram', 'es-ES');
    expect(finals.map((e) => [normalizeTranscript(e.text), e.language])).toEqual([['guten tag', undefined]]);
    expect(stt.control.deepgram!.sessions.at(-1)!.query.language).toBe('es');
  });
});

describe('AssemblyAI and Speechmatics', () => {
  it('AssemblyAI Multilingual names the turn’s language_code', async () => {
    const finals = await transcribe('assemblyai', 'multi');
    expect(finals.map((e) => [normalizeTranscript(e.text), e.language])).toEqual([['guten tag', 'de']]);
    expect(stt.control.assemblyai!.sessions.at(-1)!.query).toMatchObject({ speech_model: 'universal-streaming-multilingual', language_detection: 'true' });
  });

  it('Speechmatics auto names each result’s language', async () => {
    const finals = await transcribe('speechmatics', 'multi');
    expect(finals.map((e) => [normalizeTranscript(e.text), e.language])).toEqual([['guten tag', 'de']]);
  });

  it('Speechmatics told French reports French, whatever was said', async () => {
    const finals = await transcribe('speechmatics', 'fr-FR');
    expect(finals.map((e) => e.language)).toEqual([undefined]);
    const sent = stt.control.speechmatics!.sessions.at(-1)!.frames.flatMap((f) => (f.dir === 'out' && f.kind === 'text' ? [f.json as Record<string, any>] : []));
    const words = sent.filter((m) => m.message === 'AddTranscript').flatMap((m) => m.results);
    expect(new Set(words.map((w: { alternatives: { language: string }[] }) => w.alternatives[0]!.language))).toEqual(new Set(['fr']));
  });
});

describe('OpenAI transcription', () => {
  it('refuses a language that is not an ISO-639-1 code it takes', async () => {
    const error = await createSttProvider('openai', loadConfig(stt.env), { retryBaseDelayMs: 10, retryMaxDelayMs: 20 }).connect({ language: 'xx-XX', endpointingMs: 300, utteranceEndMs: 1_000 }).catch((e: unknown) => e);
    expect(String(error)).toMatch(/Invalid language 'xx'/);
  });
});

describe('ElevenLabs', () => {
  const socket = (query: string) =>
    handshake(`${tts.env.ELEVENLABS_BASE_URL!.replace(/^http/, 'ws')}/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/multi-stream-input?output_format=ulaw_8000&${query}`, { 'xi-api-key': tts.env.ELEVENLABS_API_KEY! });

  it('the adapter enforces a fixed language on the models that take language_code, and none for multi', async () => {
    const standin = tts.control.elevenlabs!;
    const provider = elevenLabsTts({ apiKey: tts.env.ELEVENLABS_API_KEY!, baseUrl: tts.env.ELEVENLABS_BASE_URL! });
    const queryOf = async (options: Omit<TtsOptions, 'voiceId'>) => {
      const session = await provider.connect({ voiceId: '21m00Tcm4TlvDq8ikWAM', ...options });
      const query = standin.connections.at(-1)!.query;
      await session.close();
      return query;
    };
    expect((await queryOf({ language: 'de' })).language_code).toBe('de');
    // A multi call's voice is told no language: Flash v2.5 then speaks the text's.
    expect((await queryOf({})).language_code).toBeUndefined();
    expect((await queryOf({ language: 'de', model: 'eleven_multilingual_v2' })).language_code).toBeUndefined();
  });

  it('Flash v2.5 refuses a language_code it does not speak; Multilingual v2 ignores it', async () => {
    const refused = await socket('model_id=eleven_flash_v2_5&language_code=fa');
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ detail: { message: "Model 'eleven_flash_v2_5' does not support language_code 'fa'." } });
    expect((await socket('model_id=eleven_flash_v2_5&language_code=de')).status).toBe(101);
    expect((await socket('model_id=eleven_multilingual_v2&language_code=fa')).status).toBe(101);
  });
});
