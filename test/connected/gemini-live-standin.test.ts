/**
 * Invariant: the Gemini Live stand-in, reached by the `@google/genai` SDK's `ai.live.connect` at its
 * `httpOptions.baseUrl`, is as strict as Google documents (lib/local/standins/gemini-live.ts): a wrong key,
 * an unknown model and an unknown voice close the socket (1008, 1008, 1007) before `setupComplete`; a first
 * message other than `setup` closes it 1007; a turn asked for with `clientContent` streams 24 kHz PCM in
 * `modelTurn`, its `outputTranscription`, then `turnComplete` with `usageMetadata`; a function call waits for
 * a `toolResponse` with the id it issued; a connection ends at its lifetime (`goAway` with `timeLeft`, then
 * close 1011), and a setup with a handle it issued resumes, one it did not (or an expired one) closes 1007.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 15_000 });
import WebSocket from 'ws';
import { GoogleGenAI, Modality, type LiveServerMessage, type Session } from '@google/genai';
import { STANDIN_KEY } from '../../lib/local/standins/catalog.js';
import { startGeminiLiveStandin, type GeminiLiveStandin } from '../../lib/local/standins/gemini-live.js';
import { defaultRealtimeReply } from '../../lib/local/standins/openai-realtime.js';
import { WAIT_MS } from '../support/progress.js';

let standin: GeminiLiveStandin;
beforeAll(async () => {
  standin = await startGeminiLiveStandin({ firstAudioDelayMs: 10, realtimeFactor: 0 });
});
afterAll(() => standin?.stop());

function connect(model: string, voice: string, apiKey = STANDIN_KEY, tools?: { name: string }[], extra: Record<string, unknown> = {}) {
  const ai = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: standin.baseUrl } });
  const messages: LiveServerMessage[] = [];
  let closed: { code: number; reason: string } | undefined;
  const session = ai.live.connect({
    model,
    config: {
      responseModalities: [Modality.AUDIO],
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: voice } } },
      outputAudioTranscription: {},
      ...(tools && { tools: [{ functionDeclarations: tools.map((t) => ({ ...t, parametersJsonSchema: { type: 'object', properties: {} } })) }] }),
      ...extra,
    },
    callbacks: {
      onmessage: (m) => messages.push(m),
      onclose: (e) => {
        closed = { code: e.code, reason: e.reason };
      },
    },
  });
  const next = async (pick: (m: LiveServerMessage) => unknown, from = 0) => {
    for (let i = 0; i < 500; i += 1) {
      const found = messages.slice(from).find(pick);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no such message');
  };
  const whenClosed = async () => {
    for (let i = 0; i < 500 && !closed; i += 1) await new Promise((r) => setTimeout(r, 10));
    return closed;
  };
  return { session, messages, next, whenClosed };
}

describe('the Gemini Live stand-in', () => {
  it('refuses a wrong key, an unknown model and an unknown voice by closing the socket before setupComplete', async () => {
    const wrongKey = connect('gemini-live-2.5-flash-preview', 'Puck', 'AIza-wrong');
    expect(await wrongKey.whenClosed()).toMatchObject({ code: 1008, reason: expect.stringMatching(/API key not valid/) });
    const model = connect('gemini-2.5-flash', 'Puck');
    expect(await model.whenClosed()).toMatchObject({ code: 1008, reason: expect.stringMatching(/models\/gemini-2.5-flash is not found/) });
    const voice = connect('gemini-live-2.5-flash-preview', 'marin');
    expect(await voice.whenClosed()).toMatchObject({ code: 1007, reason: expect.stringMatching(/voice_name marin/) });
    expect(model.messages.some((m) => m.setupComplete)).toBe(false);
  });

  it('closes 1007 when the first message is not setup', async () => {
    const ws = new WebSocket(`${standin.baseUrl.replace(/^http/, 'ws')}/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=${STANDIN_KEY}`);
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ realtimeInput: { audio: { data: '', mimeType: 'audio/pcm;rate=16000' } } }));
    const [code, reason] = await new Promise<[number, string]>((r) => ws.once('close', (c, why) => r([c, why.toString()])));
    expect(code).toBe(1007);
    expect(reason).toMatch(/first message must be setup/);
  });

  it('streams a turn as 24 kHz PCM with its transcription, then turnComplete with usage', async () => {
    const c = connect('gemini-2.5-flash-native-audio-preview-09-2025', 'Kore');
    const session: Session = await c.session;
    expect(c.messages.some((m) => m.setupComplete)).toBe(true);
    session.sendClientContent({ turns: [{ role: 'user', parts: [{ text: 'Say exactly this: "Hello there."' }] }], turnComplete: true });
    const done = await c.next((m) => m.serverContent?.turnComplete);
    const audio = c.messages.flatMap((m) => m.serverContent?.modelTurn?.parts ?? []).map((p) => p.inlineData!);
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.every((a) => a.mimeType === 'audio/pcm;rate=24000')).toBe(true);
    expect(c.messages.map((m) => m.serverContent?.outputTranscription?.text ?? '').join('')).toBe('Hello there.');
    expect(done.usageMetadata?.responseTokensDetails?.[0]).toMatchObject({ modality: 'AUDIO', tokenCount: expect.any(Number) });
    session.close();
  });

  it('issues a function call and answers only a toolResponse carrying its id', async () => {
    standin.control.setScript({
      firstAudioDelayMs: 10,
      realtimeFactor: 0,
      reply: (r) => (r.items.some((i) => i.role === 'tool') ? { text: 'Done.' } : { toolCall: { name: 'end_call', arguments: '{}' } }),
    });
    const c = connect('gemini-live-2.5-flash-preview', 'Puck', STANDIN_KEY, [{ name: 'end_call' }]);
    const session = await c.session;
    session.sendClientContent({ turns: [{ role: 'user', parts: [{ text: 'Bye.' }] }], turnComplete: true });
    const call = (await c.next((m) => m.toolCall)).toolCall!.functionCalls![0]!;
    expect(call.name).toBe('end_call');
    session.sendToolResponse({ functionResponses: [{ id: call.id, name: call.name, response: { ended: true } }] });
    await c.next((m) => m.serverContent?.turnComplete);
    session.sendToolResponse({ functionResponses: [{ id: 'function-call-unknown', name: 'end_call', response: {} }] });
    expect(await c.whenClosed()).toMatchObject({ code: 1007, reason: expect.stringMatching(/no function call with id/) });
    standin.control.setScript({ reply: defaultRealtimeReply, firstAudioDelayMs: 10, realtimeFactor: 0 });
  });

  it('ends a connection at its lifetime with a goAway first, and resumes only its own, unexpired handles', async () => {
    const control = standin.control;
    const resumption = { sessionResumption: {} };
    try {
      control.sessionLimit(800, 500);
      const first = connect('gemini-live-2.5-flash-preview', 'Puck', STANDIN_KEY, undefined, resumption);
      const update = (await first.next((m) => m.sessionResumptionUpdate?.resumable)).sessionResumptionUpdate!;
      expect(update.newHandle).toMatch(/^session-/);
      expect((await first.next((m) => m.goAway)).goAway).toEqual({ timeLeft: '0.5s' });
      expect((await first.whenClosed())?.code).toBe(1011);

      control.sessionLimit(10 * 60_000, 60_000);
      const again = connect('gemini-live-2.5-flash-preview', 'Puck', STANDIN_KEY, undefined, { sessionResumption: { handle: update.newHandle } });
      await again.next((m) => m.setupComplete);
      (await again.session).close();
      const forged = connect('gemini-live-2.5-flash-preview', 'Puck', STANDIN_KEY, undefined, { sessionResumption: { handle: 'session-not-issued-here' } });
      expect((await forged.whenClosed())?.code).toBe(1007);

      // "Valid for 2 hours after the last session termination": here no time at all.
      control.handleTtlMs = 0;
      const short = connect('gemini-live-2.5-flash-preview', 'Puck', STANDIN_KEY, undefined, resumption);
      const stale = (await short.next((m) => m.sessionResumptionUpdate?.resumable)).sessionResumptionUpdate!.newHandle;
      (await short.session).close();
      await short.whenClosed();
      await vi.waitFor(() => expect(control.handles.get(stale!)!.validUntil).toBeLessThan(Infinity), { timeout: WAIT_MS });
      const late = connect('gemini-live-2.5-flash-preview', 'Puck', STANDIN_KEY, undefined, { sessionResumption: { handle: stale } });
      expect((await late.whenClosed())?.code).toBe(1007);
    } finally {
      control.sessionLimit(10 * 60_000, 60_000);
      control.handleTtlMs = 2 * 60 * 60_000;
    }
  });
});
