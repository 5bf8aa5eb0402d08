import { GoogleGenAI, Modality, type LiveServerMessage, type Session } from '@google/genai';
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import type { Config } from '../../config.js';
import type { RealtimeEndpoint, RealtimeHandlers, RealtimeSocket } from './openai.js';

/**
 * Gemini Live (`realtime.provider: "google"`, docs/realtime.md) behind the same port as OpenAI Realtime, so
 * the call (streaming-service/src/session/realtime/realtime-call.ts) stays provider-neutral: the call speaks
 * the port's events and this adapter translates them to and from the Live API's BidiGenerateContent messages
 * (ai.google.dev/api/live), over the real `@google/genai` SDK's `ai.live.connect`.
 *
 * - Base URL: the SDK's `httpOptions.baseUrl`; its live socket is `<base as ws(s)>/ws/google.ai.
 *   generativelanguage.<version>.GenerativeService.BidiGenerateContent?key=<key>` (`getWebsocketBaseUrl`
 *   turns `http:` into `ws:`, anything else into `wss:`), so a loopback stand-in is reached as configured.
 * - Setup: the Live API takes the whole configuration in the first message (`setup`) and cannot change it
 *   later, so the socket is "open" for the call at once (a `session.created` of the port), and the call's
 *   `session.update` is what opens the SDK's session with that configuration; `setupComplete` is the port's
 *   `session.updated`.
 * - Audio: the caller's as `realtimeInput.audio` `audio/pcm;rate=16000`; the model's inline PCM 24 kHz.
 * - A turn: the model's first `serverContent` opens a response (the caller's `inputTranscription` so far is
 *   committed first, so the conversation keeps its order); `outputTranscription` is its transcript;
 *   `turnComplete` ends it (`usageMetadata` is its usage); `interrupted` (the server VAD heard the caller) is
 *   the port's `speech_started` then a cancelled response.
 * - No truncation: the Live API has no call to cut the model's context at what played, so
 *   `conversation.item.truncate` and `response.cancel` are dropped here; the call's history keeps only the
 *   heard words (its own clip at the output clock), and the model keeps its own.
 * - Tools: `toolCall.functionCalls` end the response with its function calls; each output the call gives is
 *   sent at once as a `toolResponse` (also before an `end_call` hang-up), after which the model speaks on by
 *   itself (the call's `response.create` that follows is dropped).
 */
const OPEN_TIMEOUT_MS = 5_000;
const INPUT_MIME = 'audio/pcm;rate=16000';

type Emitted = RealtimeServerEvent;
const ev = (e: Record<string, unknown>) => e as unknown as Emitted;

export function openGeminiSocket(endpoint: RealtimeEndpoint, model: string, voice: string, handlers: RealtimeHandlers): Promise<RealtimeSocket> {
  const ai = new GoogleGenAI({ apiKey: endpoint.apiKey, httpOptions: { baseUrl: endpoint.baseUrl } });
  let session: Session | undefined;
  let closing = false;
  let ended = false;
  let seq = 0;
  const next = (p: string) => `${p}_${(seq += 1)}`;
  let heard = '';
  let response: { id: string; itemId: string; audio: boolean; usage?: Record<string, unknown> } | undefined;
  /** A tool's output (or a context message) went back: the model goes on by itself, so the call's next `response.create` is moot. */
  let toolAnswered = false;
  /**
   * A context message interrupted the model's open turn: what of that turn is still on the wire (audio the
   * server sent before it read the message) belongs to it, not to a new answer, and is dropped until the
   * server's `interrupted` (or its `turnComplete`, when the turn had ended first) closes it.
   */
  let superseded = false;
  const callNames = new Map<string, string>();
  const emit = (e: Record<string, unknown>) => handlers.event(ev(e));
  const fail = (error: Error) => {
    if (ended) return;
    ended = true;
    // The caller's words heard so far are committed only when the model's turn starts: a socket that drops
    // before it would lose them, and the cascade that takes over must see them (its conversation so far).
    if (!closing) commitCaller();
    handlers.closed(closing ? undefined : error, closing);
  };

  function commitCaller() {
    const text = heard.trim();
    heard = '';
    if (!text) return;
    const itemId = next('item');
    emit({ type: 'input_audio_buffer.committed', item_id: itemId, previous_item_id: null });
    emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, content_index: 0, transcript: text });
  }
  const open = () => {
    if (response) return response;
    commitCaller();
    response = { id: next('resp'), itemId: next('item'), audio: false };
    emit({ type: 'response.created', response: { id: response.id, status: 'in_progress', output: [] } });
    emit({ type: 'response.output_item.added', response_id: response.id, output_index: 0, item: { id: response.itemId, type: 'message', role: 'assistant' } });
    return response;
  };
  const finish = (status: 'completed' | 'cancelled') => {
    const r = response;
    if (!r) return;
    response = undefined;
    if (r.audio && status === 'completed') emit({ type: 'response.output_audio.done', response_id: r.id, item_id: r.itemId, output_index: 0, content_index: 0 });
    emit({ type: 'response.done', response: { id: r.id, status, output: [], usage: r.usage ?? null } });
  };
  const usageOf = (u: NonNullable<LiveServerMessage['usageMetadata']>) => {
    const by = (details: { modality?: string; tokenCount?: number }[] | undefined, modality: string) =>
      (details ?? []).filter((d) => d.modality === modality).reduce((n, d) => n + (d.tokenCount ?? 0), 0);
    return {
      input_token_details: { audio_tokens: by(u.promptTokensDetails, 'AUDIO'), text_tokens: by(u.promptTokensDetails, 'TEXT'), cached_tokens: u.cachedContentTokenCount ?? 0 },
      output_token_details: { audio_tokens: by(u.responseTokensDetails, 'AUDIO'), text_tokens: by(u.responseTokensDetails, 'TEXT') },
    };
  };

  const onMessage = (m: LiveServerMessage) => {
    if (m.usageMetadata && response) response.usage = usageOf(m.usageMetadata);
    const c = m.serverContent;
    if (c && superseded) {
      if (c.inputTranscription?.text) heard += c.inputTranscription.text;
      if (c.interrupted || c.turnComplete) superseded = false;
    } else if (c) {
      if (c.inputTranscription?.text) heard += c.inputTranscription.text;
      if (c.interrupted) {
        emit({ type: 'input_audio_buffer.speech_started', audio_start_ms: 0, item_id: next('item') });
        finish('cancelled');
      }
      for (const part of c.modelTurn?.parts ?? []) {
        if (!part.inlineData?.data) continue;
        const r = open();
        r.audio = true;
        emit({ type: 'response.output_audio.delta', response_id: r.id, item_id: r.itemId, output_index: 0, content_index: 0, delta: part.inlineData.data });
      }
      if (c.outputTranscription?.text) {
        const r = open();
        emit({ type: 'response.output_audio_transcript.delta', response_id: r.id, item_id: r.itemId, output_index: 0, content_index: 0, delta: c.outputTranscription.text });
      }
      if (c.turnComplete) {
        finish('completed');
        commitCaller();
      }
    }
    if (m.toolCall?.functionCalls?.length) {
      const r = open();
      for (const call of m.toolCall.functionCalls) {
        const callId = call.id ?? next('call');
        callNames.set(callId, call.name ?? '');
        emit({ type: 'response.function_call_arguments.done', response_id: r.id, item_id: next('item'), output_index: 0, call_id: callId, name: call.name, arguments: JSON.stringify(call.args ?? {}) });
      }
      finish('completed');
    }
  };

  const configure = (e: Extract<RealtimeClientEvent, { type: 'session.update' }>) => {
    const s = e.session as { instructions?: string; tools?: { name?: string; description?: string; parameters?: unknown }[] };
    const functionDeclarations = (s.tools ?? []).map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters }));
    const timer = setTimeout(() => fail(new Error(`the Gemini Live session did not set up within ${OPEN_TIMEOUT_MS} ms`)), OPEN_TIMEOUT_MS);
    ai.live
      .connect({
        model,
        config: {
          responseModalities: [Modality.AUDIO],
          ...(s.instructions ? { systemInstruction: s.instructions } : {}),
          speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: voice } } },
          inputAudioTranscription: {},
          outputAudioTranscription: {},
          ...(functionDeclarations.length > 0 ? { tools: [{ functionDeclarations }] } : {}),
        },
        callbacks: {
          onmessage: (m) => onMessage(m),
          onerror: () => undefined,
          onclose: (c) => {
            clearTimeout(timer);
            fail(new Error(`the Gemini Live socket closed ${c.code} ${c.reason}`));
          },
        },
      })
      .then((s2) => {
        clearTimeout(timer);
        session = s2;
        if (ended || closing) return s2.close();
        emit({ type: 'session.updated', session: {} });
      })
      .catch((error: unknown) => {
        clearTimeout(timer);
        fail(error instanceof Error ? error : new Error(String(error)));
      });
  };

  const socket: RealtimeSocket = {
    send: (e) => {
      switch (e.type) {
        case 'session.update':
          return configure(e);
        case 'input_audio_buffer.append':
          return session?.sendRealtimeInput({ audio: { data: e.audio, mimeType: INPUT_MIME } });
        case 'conversation.item.create': {
          const item = e.item as { type?: string; call_id?: string; output?: string };
          if (item.type === 'function_call_output' && item.call_id) {
            toolAnswered = true;
            session?.sendToolResponse({ functionResponses: [{ id: item.call_id, name: callNames.get(item.call_id) ?? '', response: { output: item.output ?? '' } }] });
          }
          // A context message (auto knowledge's passages): a text turn that interrupts the model's turn and asks for another.
          const text = item.type === 'message' ? ((e.item as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n') : '';
          if (text) {
            toolAnswered = true;
            superseded = response !== undefined;
            finish('cancelled');
            session?.sendClientContent({ turns: [{ role: 'user', parts: [{ text }] }], turnComplete: true });
          }
          return;
        }
        case 'response.create': {
          if (toolAnswered) return void (toolAnswered = false);
          const instructions = (e.response as { instructions?: string } | undefined)?.instructions ?? 'Greet the caller.';
          return session?.sendClientContent({ turns: [{ role: 'user', parts: [{ text: instructions }] }], turnComplete: true });
        }
        default:
          // response.cancel, conversation.item.truncate: the Live API has neither (the server VAD cancels).
          return;
      }
    },
    close: () => {
      closing = true;
      if (session) session.close();
      else fail(new Error('closed'));
    },
  };
  handlers.opened(socket);
  queueMicrotask(() => emit({ type: 'session.created', session: {} }));
  return Promise.resolve(socket);
}

/**
 * `GOOGLE_LIVE_BASE_URL` is read here, by the streaming service only, not in lib/config.ts: that schema rides
 * in every Lambda bundle, and one more entry put the contacts upload bundle over its 500 KB budget. It is
 * checked as a URL the same way (an invalid one is refused, the call falls back to `GOOGLE_BASE_URL`).
 */
function liveBaseUrl(): string | undefined {
  const raw = process.env.GOOGLE_LIVE_BASE_URL;
  return raw && URL.canParse(raw) ? raw : undefined;
}

/** Gemini Live's endpoint under `config` (the workspace's keys merged), or undefined without a Google key. */
export function geminiLiveEndpoint(config: Pick<Config, 'GOOGLE_API_KEY' | 'GOOGLE_BASE_URL'>): RealtimeEndpoint | undefined {
  const apiKey = config.GOOGLE_API_KEY;
  return apiKey ? { apiKey, baseUrl: liveBaseUrl() ?? config.GOOGLE_BASE_URL ?? 'https://generativelanguage.googleapis.com', provider: 'google' } : undefined;
}
