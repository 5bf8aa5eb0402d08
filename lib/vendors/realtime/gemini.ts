import { GoogleGenAI, Modality, type LiveConnectConfig, type LiveServerMessage, type Session } from '@google/genai';
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import type { Config } from '../../config.js';
import type { RealtimeEndpoint, RealtimeHandlers, RealtimeSocket } from './openai.js';
import { GeminiResumption } from './gemini-resumption.js';

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
 * - Resumption (./gemini-resumption.ts): every setup asks for `sessionResumption`; after a `goAway`, or an
 *   unexpected close, the session continues on a new connection with the newest handle, the caller's audio
 *   buffered meanwhile (at most 200 messages, the rest dropped); the call sees nothing of it. Caller words
 *   the old connection heard but the model had not answered are sent again as a text turn. A move that fails is the socket closing (the cascade
 *   takes the call). A function call issued before the handle is answered as a `clientContent` turn (the new
 *   connection does not know its id).
 */
const OPEN_TIMEOUT_MS = 5_000;
const INPUT_MIME = 'audio/pcm;rate=16000';

type Emitted = RealtimeServerEvent;
const ev = (e: Record<string, unknown>) => e as unknown as Emitted;

export function openGeminiSocket(endpoint: RealtimeEndpoint, model: string, voice: string, handlers: RealtimeHandlers): Promise<RealtimeSocket> {
  const ai = new GoogleGenAI({ apiKey: endpoint.apiKey, httpOptions: { baseUrl: endpoint.baseUrl } });
  /** The connection the session is on; undefined while it opens or moves (messages wait in `queued`). */
  let session: Session | undefined;
  let connection = 0;
  let moving = false;
  const queued: ((s: Session) => void)[] = [];
  let closing = false;
  let ended = false;
  let seq = 0;
  const next = (p: string) => `${p}_${(seq += 1)}`;
  let heard = '';
  let response: { id: string; itemId: string; audio: boolean; usage?: Record<string, unknown> } | undefined;
  /** A tool's output or a turn went to the model: it will speak by itself, and is not idle until it has. */
  let awaitingModel = false;
  /** A tool's output (or a context message) went back: the model goes on by itself, so the call's next `response.create` is moot. */
  let toolAnswered = false;
  /**
   * A context message interrupted the model's open turn: what of that turn is still on the wire (audio the
   * server sent before it read the message) belongs to it, not to a new answer, and is dropped until the
   * server's `interrupted` (or its `turnComplete`, when the turn had ended first) closes it.
   */
  let superseded = false;
  /** Function calls not answered yet: their name and the connection that issued them. */
  const calls = new Map<string, { name: string; connection: number }>();
  let setupConfig: LiveConnectConfig | undefined;
  const emit = (e: Record<string, unknown>) => handlers.event(ev(e));
  const fail = (error: Error) => {
    if (ended) return;
    ended = true;
    resumption.reset();
    // The caller's words heard so far are committed only when the model's turn starts: a socket that drops
    // before it would lose them, and the cascade that takes over must see them (its conversation so far).
    if (!closing) commitCaller();
    handlers.closed(closing ? undefined : error, closing);
  };
  const idle = () => !response && calls.size === 0 && !awaitingModel && !heard.trim();
  const deliver = (send: (s: Session) => void) => {
    if (session) send(session);
    else if (moving && queued.length < 200) queued.push(send);
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
    if (m.sessionResumptionUpdate) resumption.update(m.sessionResumptionUpdate);
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
        awaitingModel = false;
        finish('completed');
        commitCaller();
      }
    }
    if (m.toolCall?.functionCalls?.length) {
      const r = open();
      for (const call of m.toolCall.functionCalls) {
        const callId = call.id ?? next('call');
        calls.set(callId, { name: call.name ?? '', connection });
        emit({ type: 'response.function_call_arguments.done', response_id: r.id, item_id: next('item'), output_index: 0, call_id: callId, name: call.name, arguments: JSON.stringify(call.args ?? {}) });
      }
      finish('completed');
    }
    if (m.goAway) resumption.goAway(m.goAway, idle());
    else if (idle()) resumption.idle();
  };

  /** A connection with the session's setup (and a handle to resume); resolves once its setup is complete. */
  const connect = (handle: string | undefined): Promise<Session> => {
    const mine = (connection += 1);
    return new Promise((resolve, reject) => {
      let ready = false;
      let opened: Session | undefined;
      const timer = setTimeout(() => {
        opened?.close();
        reject(new Error(`the Gemini Live session did not set up within ${OPEN_TIMEOUT_MS} ms`));
      }, OPEN_TIMEOUT_MS);
      ai.live
        .connect({
          model,
          config: { ...setupConfig, sessionResumption: handle ? { handle } : {} },
          callbacks: {
            onmessage: (m) => {
              if (mine !== connection) return;
              if (m.setupComplete && !ready) {
                ready = true;
                clearTimeout(timer);
                if (opened) resolve(opened);
              }
              if (ready) onMessage(m);
            },
            onerror: () => undefined,
            onclose: (c) => {
              clearTimeout(timer);
              const error = new Error(`the Gemini Live socket closed ${c.code} ${c.reason}`);
              if (!ready) return reject(error);
              if (closing) return fail(error);
              if (mine !== connection) return;
              // An unexpected close: the session goes on from the newest handle, or the call falls back.
              move(error.message);
            },
          },
        })
        .then((s) => {
          opened = s;
          if (ready) resolve(s);
        })
        .catch((error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
    });
  };

  /** Moves the session to a new connection with the newest handle; the old one is closed once the new one is up. */
  function move(why: string): void {
    if (moving || ended || closing) return;
    const handle = resumption.handle;
    if (!handle) return fail(new Error(`the Gemini Live session cannot be resumed (${why}): no resumable handle`));
    moving = true;
    const old = session;
    session = undefined;
    // Caller words the old connection heard but the model had not answered are not under the handle.
    const unanswered = heard.trim();
    // Whatever the old connection was saying is lost with it: the turn ends here.
    if (response) finish('cancelled');
    awaitingModel = false;
    superseded = false;
    connect(handle).then(
      (s) => {
        moving = false;
        resumption.reset();
        if (ended) return s.close();
        session = s;
        old?.close();
        if (unanswered) {
          commitCaller();
          awaitingModel = true;
          s.sendClientContent({ turns: [{ role: 'user', parts: [{ text: unanswered }] }], turnComplete: true });
        }
        for (const send of queued.splice(0)) send(s);
      },
      (error: unknown) => {
        moving = false;
        queued.length = 0;
        old?.close();
        fail(new Error(`the Gemini Live session could not be resumed (${why}): ${error instanceof Error ? error.message : String(error)}`));
      },
    );
  }
  const resumption = new GeminiResumption(move);

  const configure = (e: Extract<RealtimeClientEvent, { type: 'session.update' }>) => {
    const s = e.session as { instructions?: string; tools?: { name?: string; description?: string; parameters?: unknown }[] };
    const functionDeclarations = (s.tools ?? []).map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters }));
    setupConfig = {
      responseModalities: [Modality.AUDIO],
      ...(s.instructions ? { systemInstruction: s.instructions } : {}),
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: voice } } },
      inputAudioTranscription: {},
      outputAudioTranscription: {},
      ...(functionDeclarations.length > 0 ? { tools: [{ functionDeclarations }] } : {}),
      // Google's defaults (ai.google.dev/gemini-api/docs/live-session, "Context window compression"): without
      // it an audio-only session ends at 15 minutes; with it the oldest turns slide out and the call goes on.
      contextWindowCompression: { slidingWindow: {} },
    };
    connect(undefined).then(
      (s2) => {
        session = s2;
        if (ended || closing) return s2.close();
        emit({ type: 'session.updated', session: {} });
      },
      (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
    );
  };

  const answer = (callId: string, output: string) => {
    const call = calls.get(callId);
    calls.delete(callId);
    awaitingModel = true;
    if (!call || call.connection === connection) {
      toolAnswered = true;
      return deliver((s) => s.sendToolResponse({ functionResponses: [{ id: callId, name: call?.name ?? '', response: { output } }] }));
    }
    // Issued on a connection since replaced: this one never made that call, so the result is told as a turn.
    const text = `The result of the function call ${call.name} you made: ${output}`;
    toolAnswered = true;
    deliver((s) => s.sendClientContent({ turns: [{ role: 'user', parts: [{ text }] }], turnComplete: true }));
  };

  const socket: RealtimeSocket = {
    send: (e) => {
      switch (e.type) {
        case 'session.update':
          return configure(e);
        case 'input_audio_buffer.append':
          return deliver((s) => s.sendRealtimeInput({ audio: { data: e.audio, mimeType: INPUT_MIME } }));
        case 'conversation.item.create': {
          const item = e.item as { type?: string; call_id?: string; output?: string; content?: { text?: string }[] };
          if (item.type === 'function_call_output' && item.call_id) return answer(item.call_id, item.output ?? '');
          // A context message (auto knowledge's passages): a text turn that interrupts the model's turn and asks for another.
          const text = item.type === 'message' ? (item.content ?? []).map((c) => c.text ?? '').join('\n') : '';
          if (text) {
            toolAnswered = true;
            superseded = response !== undefined;
            awaitingModel = true;
            finish('cancelled');
            deliver((s) => s.sendClientContent({ turns: [{ role: 'user', parts: [{ text }] }], turnComplete: true }));
          }
          return;
        }
        case 'response.create': {
          if (toolAnswered) return void (toolAnswered = false);
          const instructions = (e.response as { instructions?: string } | undefined)?.instructions ?? 'Greet the caller.';
          awaitingModel = true;
          return deliver((s) => s.sendClientContent({ turns: [{ role: 'user', parts: [{ text: instructions }] }], turnComplete: true }));
        }
        default:
          // response.cancel, conversation.item.truncate: the Live API has neither (the server VAD cancels).
          return;
      }
    },
    close: () => {
      closing = true;
      resumption.reset();
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
