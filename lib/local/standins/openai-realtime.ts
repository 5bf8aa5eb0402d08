import { randomBytes } from 'node:crypto';
import { bytesPerMs, type AudioFormat } from '../../vendors/shared/audio-format.js';
import { REALTIME_MODELS, REALTIME_VOICES } from '../../domain/realtime.js';
import { SttEngine, SttStandinControl, jsonOf, startWsStandin, type StandinConnection, type SttScript } from './stt-engine.js';
import { synthesizeTone } from './tts-audio.js';

/**
 * A stand-in for OpenAI Realtime speech-to-speech sessions, `GET <base>/realtime?model=<model>` upgraded, as
 * the `openai` SDK's `OpenAIRealtimeWS` opens them. What it enforces, from OpenAI's Realtime reference
 * (developers.openai.com/api/reference/resources/realtime, client and server events) and the guides
 * developers.openai.com/api/docs/guides/realtime-conversations and .../realtime-websocket, cross-checked
 * with the `openai` 6.49 SDK's types (`resources/realtime/realtime.d.ts`):
 * - handshake: `Authorization: Bearer <key>` (401 `invalid_api_key`), `?model=` one of the documented
 *   realtime models (else an `error` event `model_not_found` and close 1008: the model is the socket's);
 * - `session.created` first; `session.update` needs `session.type: "realtime"`; audio formats are
 *   `audio/pcm` (24 kHz only: any other `rate` is `invalid_value`), `audio/pcmu`, `audio/pcma` (not decoded
 *   here); `audio.output.voice` one of the built-in voices, and it cannot change once the model has spoken
 *   ("cannot be changed during the session once the model has responded with audio at least once");
 *   tools are `{type: "function", name, parameters}` with names `^[a-zA-Z0-9_-]{1,64}$`;
 * - server VAD (`turn_detection.type: server_vad`, default on): `input_audio_buffer.speech_started`,
 *   `speech_stopped`, `committed`, `conversation.item.added`/`done`, the input transcription's `completed`
 *   (when `audio.input.transcription` is set), then a response when `create_response` (default true); a
 *   caller who starts speaking during a response cancels it when `interrupt_response` (default true);
 * - a response: `response.created`, `response.output_item.added`, `conversation.item.added`,
 *   `response.content_part.added`, `response.output_audio.delta` and `response.output_audio_transcript.delta`,
 *   their `.done`s, `response.content_part.done`, `response.output_item.done`, `conversation.item.done`,
 *   `response.done` with `usage` (audio tokens: 1 per 100 ms of the caller's audio, 1 per 50 ms of the
 *   model's, OpenAI's published rates); a function call streams `response.function_call_arguments.delta`/`.done`;
 * - `conversation.item.create` (`function_call_output` needs a `call_id` the model issued), `response.create`
 *   (error `conversation_already_has_active_response` while one runs), `response.cancel`
 *   (`response_cancel_not_active` when none runs), `conversation.item.truncate` (the item must be an assistant
 *   audio item; `audio_end_ms` beyond its audio is `invalid_value`), answered `conversation.item.truncated`;
 *   after a truncation the item's transcript keeps only what was heard (OpenAI deletes the unheard text).
 * The model "answers" by the script (an echo by default), its audio a tone whose length follows the text.
 */

/** What the model says or does in answer to the conversation so far. */
export type RealtimeReply = { readonly text: string } | { readonly toolCall: { readonly name: string; readonly arguments: string } };

export interface RealtimeScriptRequest {
  /** The session's instructions, as last set. */
  readonly instructions: string;
  /** The conversation: the caller's transcribed turns, the model's heard words, tool results, text the client added (`system`: OpenAI system items, Gemini `clientContent` turns). */
  readonly items: readonly { readonly role: 'user' | 'assistant' | 'tool' | 'system'; readonly text: string }[];
  /** `response.create`'s own instructions (a greeting asked for), when given. */
  readonly responseInstructions?: string;
  readonly tools: readonly string[];
}

export interface RealtimeScript {
  readonly reply: (request: RealtimeScriptRequest) => RealtimeReply;
  /** Scripted delay from a response's start to its first audio (the model's "thinking"). */
  readonly firstAudioDelayMs: number;
  /** Send speed relative to playback; OpenAI streams audio faster than real time. */
  readonly realtimeFactor: number;
  /** The caller's words, as the stand-in's recognizer hears them (stt-engine.ts). */
  readonly stt: Partial<SttScript>;
}

/** Echo: "You said: <the caller's last words>"; to a greeting request, its quoted words or a hello. */
export function defaultRealtimeReply(request: RealtimeScriptRequest): RealtimeReply {
  if (request.responseInstructions) return { text: /"([^"]+)"/.exec(request.responseInstructions)?.[1] ?? 'Hello, how can I help?' };
  const last = [...request.items].reverse().find((i) => i.role === 'user');
  return { text: last ? `You said: ${last.text}` : 'Hello, how can I help?' };
}

/** 300 ms to first audio: near what OpenAI's realtime models show on a warm socket; 4x real time after. */
export const DEFAULT_REALTIME_SCRIPT = { reply: defaultRealtimeReply, firstAudioDelayMs: 300, realtimeFactor: 4, stt: {} } as const satisfies RealtimeScript;

/** A test's handle on the stand-in. */
export class RealtimeStandinControl {
  script: RealtimeScript;
  readonly stt: SttStandinControl;
  /** Every client event, per connection, in order (`type` and the whole event). */
  readonly received: { connection: number; event: Record<string, unknown> }[][] = [];
  /** Truncations accepted: item, heard ms, the item's audio ms. */
  readonly truncations: { itemId: string; audioEndMs: number; audioMs: number; heardText: string }[] = [];
  private dropAfterResponses: number | undefined;
  private dropAfterCallerTurns: number | undefined;
  /** Sockets dropped by {@link dropAfterResponse} and {@link dropAfterCallerTurn}. */
  drops = 0;

  constructor(script: Partial<RealtimeScript>, vendor: 'openai' | 'google' = 'openai') {
    this.script = { ...DEFAULT_REALTIME_SCRIPT, ...script };
    this.stt = new SttStandinControl(vendor, this.script.stt);
  }

  setScript(script: Partial<RealtimeScript>): void {
    this.script = { ...DEFAULT_REALTIME_SCRIPT, ...script };
    this.stt.setScript(this.script.stt);
  }

  /** Fault knob: the socket closes 1011 (server error) once `count` more responses have finished. */
  dropAfterResponse(count = 1): void {
    this.dropAfterResponses = count;
  }

  /**
   * Fault knob (the Gemini Live stand-in): the socket closes 1011 right after the caller's `count`th next
   * turn is transcribed, before the model answers it.
   */
  dropAfterCallerTurn(count = 1): void {
    this.dropAfterCallerTurns = count;
  }

  /** @internal True when the knob above closed the socket (the turn is not to be answered). */
  callerTurnTranscribed(connection: StandinConnection, code = 1011): boolean {
    if (this.dropAfterCallerTurns === undefined) return false;
    this.dropAfterCallerTurns -= 1;
    if (this.dropAfterCallerTurns > 0) return false;
    this.dropAfterCallerTurns = undefined;
    this.drops += 1;
    connection.close(code, 'Internal server error');
    return true;
  }

  /** @internal */
  responseFinished(connection: StandinConnection, code = 1011): void {
    if (this.dropAfterResponses === undefined) return;
    this.dropAfterResponses -= 1;
    if (this.dropAfterResponses > 0) return;
    this.dropAfterResponses = undefined;
    this.drops += 1;
    connection.close(code, 'Internal server error');
  }
}

export interface RealtimeStandin {
  /** The `openai` SDK's `baseURL` for it (`http://127.0.0.1:<port>/v1`). */
  readonly baseUrl: string;
  readonly control: RealtimeStandinControl;
  stop(): Promise<void>;
}

const PCM_RATE = 24_000;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const id = (prefix: string) => `${prefix}_${randomBytes(11).toString('base64url')}`;

interface FormatConfig {
  type: string;
  rate?: number;
}

const decodable = (f: FormatConfig): AudioFormat | null =>
  f.type === 'audio/pcmu' ? { encoding: 'mulaw', sampleRate: 8_000 } : f.type === 'audio/pcm' ? { encoding: 'linear16', sampleRate: PCM_RATE } : null;

export async function startOpenAiRealtimeStandin(script: Partial<RealtimeScript> = {}): Promise<RealtimeStandin> {
  const control = new RealtimeStandinControl(script);
  const running = await startWsStandin(control.stt, {
    authorize: (req, url) => {
      if (!url.pathname.endsWith('/realtime')) return { status: 404, body: { error: { message: 'Not found', type: 'invalid_request_error', code: null, param: null } } };
      const key = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!control.stt.accepts(key)) {
        return { status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key', param: null } } };
      }
      return undefined;
    },
    onConnection: (connection, url) => runSession(control, connection, url.searchParams.get('model') ?? ''),
  });
  return { baseUrl: `${running.origin}/v1`, control, stop: running.stop };
}

interface Item {
  readonly id: string;
  readonly role: 'user' | 'assistant' | 'tool' | 'system';
  text: string;
  /** Assistant audio items: how much audio the model produced. */
  audioMs: number;
}

function runSession(control: RealtimeStandinControl, connection: StandinConnection, model: string): void {
  const index = connection.session.index;
  const log: { connection: number; event: Record<string, unknown> }[] = [];
  control.received.push(log);
  const event = (body: Record<string, unknown>) => connection.sendJson({ event_id: id('event'), ...body });
  const error = (code: string | null, message: string, param: string | null = null, eventId: unknown = null) =>
    event({ type: 'error', error: { type: 'invalid_request_error', code, message, param, event_id: eventId ?? null } });
  if (!REALTIME_MODELS.openai.includes(model)) {
    error('model_not_found', `The model '${model}' does not exist or you do not have access to it.`, 'model');
    connection.close(1008, 'model_not_found');
    return;
  }
  const session = {
    type: 'realtime',
    object: 'realtime.session',
    id: id('sess'),
    model,
    instructions: '',
    output_modalities: ['audio'],
    tools: [] as { type: string; name: string; description?: string; parameters?: unknown }[],
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: PCM_RATE } as FormatConfig,
        transcription: null as { model?: string } | null,
        turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500, create_response: true, interrupt_response: true } as Record<string, unknown> | null,
      },
      output: { format: { type: 'audio/pcm', rate: PCM_RATE } as FormatConfig, voice: 'alloy', speed: 1 },
    },
  };
  const items: Item[] = [];
  const callIds = new Set<string>();
  let spoken = false;
  let engine: SttEngine | undefined;
  let active: { id: string; cancelled: boolean; timers: Set<NodeJS.Timeout> } | undefined;
  let inputAudioMs = 0;
  const userItems = new Map<number, string>();

  const configureEngine = () => {
    engine?.close();
    const vad = session.audio.input.turn_detection;
    const format = decodable(session.audio.input.format);
    if (!format) return;
    engine = new SttEngine(
      () => ({ ...control.stt.script, interimResults: false }),
      { endpointingMs: vad ? Number(vad.silence_duration_ms ?? 500) : null, utteranceEndMs: null, interimResults: false, format, language: 'detect' },
      index,
      (e) => {
        if (e.type === 'speech_started' && vad) {
          const itemId = id('item');
          userItems.set(e.utterance, itemId);
          event({ type: 'input_audio_buffer.speech_started', audio_start_ms: Math.max(0, Math.round(e.atMs - 300)), item_id: itemId });
          if (active && vad.interrupt_response !== false) cancel('turn_detected');
        } else if (e.type === 'endpoint') {
          const itemId = userItems.get(e.utterance) ?? id('item');
          event({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: Math.round(e.lastVoicedMs ?? 0), item_id: itemId });
          commit(itemId);
        } else if (e.type === 'final' && e.utterance >= 0) {
          const itemId = userItems.get(e.utterance);
          const item = items.find((i) => i.id === itemId);
          if (!item) return;
          item.text = e.text;
          if (session.audio.input.transcription) {
            event({ type: 'conversation.item.input_audio_transcription.completed', item_id: item.id, content_index: 0, transcript: e.text, usage: { type: 'duration', seconds: (e.endMs - e.startMs) / 1_000 } });
          }
          // The response waits for the words here (the stand-in's model "hears" through its transcript).
          if (vad && vad.create_response !== false && !active) respond(undefined);
        }
      },
    );
  };

  const commit = (itemId: string) => {
    const previous = items.at(-1)?.id ?? null;
    items.push({ id: itemId, role: 'user', text: '', audioMs: 0 });
    event({ type: 'input_audio_buffer.committed', previous_item_id: previous, item_id: itemId });
    const item = { id: itemId, object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_audio', transcript: null }] };
    event({ type: 'conversation.item.added', previous_item_id: previous, item });
    event({ type: 'conversation.item.done', previous_item_id: previous, item });
  };

  const cancel = (reason: 'turn_detected' | 'client_cancelled') => {
    const r = active;
    if (!r) return;
    r.cancelled = true;
    for (const t of r.timers) clearTimeout(t);
    active = undefined;
    event({ type: 'response.done', response: { id: r.id, object: 'realtime.response', status: 'cancelled', status_details: { type: 'cancelled', reason }, output: [], usage: null } });
  };

  const usage = (outputAudioMs: number, outputText: string) => {
    const audioIn = Math.ceil(inputAudioMs / 100) + items.filter((i) => i.role === 'assistant').reduce((n, i) => n + Math.ceil(i.audioMs / 50), 0);
    const textIn = Math.ceil(session.instructions.length / 4) + items.filter((i) => i.role === 'tool' || i.role === 'system').reduce((n, i) => n + Math.ceil(i.text.length / 4), 0);
    const audioOut = Math.ceil(outputAudioMs / 50);
    const textOut = Math.ceil(outputText.length / 4);
    return {
      total_tokens: audioIn + textIn + audioOut + textOut,
      input_tokens: audioIn + textIn,
      output_tokens: audioOut + textOut,
      input_token_details: { text_tokens: textIn, audio_tokens: audioIn, image_tokens: 0, cached_tokens: 0 },
      output_token_details: { text_tokens: textOut, audio_tokens: audioOut },
    };
  };

  const respond = (responseInstructions: string | undefined) => {
    const r = { id: id('resp'), cancelled: false, timers: new Set<NodeJS.Timeout>() };
    active = r;
    const later = (ms: number, fn: () => void) => {
      const t = setTimeout(() => {
        r.timers.delete(t);
        if (!r.cancelled) fn();
      }, ms);
      r.timers.add(t);
    };
    event({ type: 'response.created', response: { id: r.id, object: 'realtime.response', status: 'in_progress', output: [], usage: null } });
    const reply = control.script.reply({
      instructions: session.instructions,
      items: items.map((i) => ({ role: i.role, text: i.text })),
      ...(responseInstructions ? { responseInstructions } : {}),
      tools: session.tools.map((t) => t.name),
    });
    const previous = items.at(-1)?.id ?? null;
    const itemId = id('item');
    const finish = (output: unknown[], outputAudioMs: number, text: string) => {
      active = undefined;
      event({ type: 'response.done', response: { id: r.id, object: 'realtime.response', status: 'completed', status_details: null, output, usage: usage(outputAudioMs, text) } });
      control.responseFinished(connection);
    };
    if ('toolCall' in reply) {
      const callId = id('call');
      callIds.add(callId);
      const item = { id: itemId, object: 'realtime.item', type: 'function_call', status: 'in_progress', name: reply.toolCall.name, call_id: callId, arguments: '' };
      later(control.script.firstAudioDelayMs, () => {
        event({ type: 'response.output_item.added', response_id: r.id, output_index: 0, item });
        event({ type: 'conversation.item.added', previous_item_id: previous, item });
        event({ type: 'response.function_call_arguments.delta', response_id: r.id, item_id: itemId, output_index: 0, call_id: callId, delta: reply.toolCall.arguments });
        event({ type: 'response.function_call_arguments.done', response_id: r.id, item_id: itemId, output_index: 0, call_id: callId, name: reply.toolCall.name, arguments: reply.toolCall.arguments });
        const done = { ...item, status: 'completed', arguments: reply.toolCall.arguments };
        event({ type: 'response.output_item.done', response_id: r.id, output_index: 0, item: done });
        event({ type: 'conversation.item.done', previous_item_id: previous, item: done });
        items.push({ id: itemId, role: 'tool', text: `${reply.toolCall.name}(${reply.toolCall.arguments})`, audioMs: 0 });
        finish([done], 0, reply.toolCall.arguments);
      });
      return;
    }
    const format = decodable(session.audio.output.format) ?? { encoding: 'linear16', sampleRate: PCM_RATE };
    const audio = synthesizeTone(reply.text, format);
    const audioMs = audio.length / bytesPerMs(format);
    const item: Item = { id: itemId, role: 'assistant', text: reply.text, audioMs };
    const wire = { id: itemId, object: 'realtime.item', type: 'message', status: 'in_progress', role: 'assistant', content: [] as unknown[] };
    const part = { type: 'audio', transcript: '' };
    const ids = { response_id: r.id, item_id: itemId, output_index: 0, content_index: 0 };
    later(control.script.firstAudioDelayMs, () => {
      spoken = true;
      items.push(item);
      event({ type: 'response.output_item.added', response_id: r.id, output_index: 0, item: wire });
      event({ type: 'conversation.item.added', previous_item_id: previous, item: wire });
      event({ type: 'response.content_part.added', ...ids, part });
      // 100 ms of audio per delta, paced at the script's factor; the transcript's words spread over them.
      const chunk = Math.round(100 * bytesPerMs(format));
      const chunks = Math.max(1, Math.ceil(audio.length / chunk));
      const words = reply.text.split(/(?<=\s)/);
      const pace = control.script.realtimeFactor > 0 ? 100 / control.script.realtimeFactor : 0;
      let sentWords = 0;
      for (let i = 0; i < chunks; i += 1) {
        later(i * pace, () => {
          event({ type: 'response.output_audio.delta', ...ids, delta: Buffer.from(audio.subarray(i * chunk, (i + 1) * chunk)).toString('base64') });
          const upTo = Math.ceil(((i + 1) / chunks) * words.length);
          for (; sentWords < upTo; sentWords += 1) event({ type: 'response.output_audio_transcript.delta', ...ids, delta: words[sentWords] });
        });
      }
      later(chunks * pace, () => {
        event({ type: 'response.output_audio.done', ...ids });
        event({ type: 'response.output_audio_transcript.done', ...ids, transcript: reply.text });
        event({ type: 'response.content_part.done', ...ids, part: { type: 'audio', transcript: reply.text } });
        const done = { ...wire, status: 'completed', content: [{ type: 'output_audio', transcript: reply.text }] };
        event({ type: 'response.output_item.done', response_id: r.id, output_index: 0, item: done });
        event({ type: 'conversation.item.done', previous_item_id: previous, item: done });
        finish([done], audioMs, reply.text);
      });
    });
  };

  event({ type: 'session.created', session });
  configureEngine();

  connection.ws.on('message', (data, isBinary) => {
    const m = jsonOf(data, isBinary);
    if (!m) return error('invalid_json', 'The server could not parse the message as JSON.');
    log.push({ connection: index, event: m });
    switch (m.type) {
      case 'session.update':
        return update(m);
      case 'input_audio_buffer.append': {
        const format = decodable(session.audio.input.format);
        if (!format || !engine) return error('invalid_value', `The stand-in decodes audio/pcmu and audio/pcm input, not ${session.audio.input.format.type}.`, 'session.audio.input.format', m.event_id);
        const bytes = new Uint8Array(Buffer.from(String(m.audio ?? ''), 'base64'));
        inputAudioMs += bytes.length / bytesPerMs(format);
        engine.pushAudio(bytes);
        control.stt.audioReceived(connection, bytes.length);
        return;
      }
      case 'conversation.item.create': {
        const item = (m.item ?? {}) as { type?: string; call_id?: string; output?: string; role?: string; content?: { type?: string; text?: string }[] };
        if (item.type === 'function_call_output') {
          if (!item.call_id || !callIds.has(item.call_id)) return error('invalid_value', `Invalid value: '${String(item.call_id)}'. No function call with this call_id exists.`, 'item.call_id', m.event_id);
          items.push({ id: id('item'), role: 'tool', text: String(item.output ?? ''), audioMs: 0 });
        } else if (item.type === 'message' && (item.role === 'user' || item.role === 'assistant' || item.role === 'system')) {
          // Content types by role (RealtimeConversationItem{System,User,Assistant}Message): a system message's are all `input_text`.
          const allowed = item.role === 'system' ? ['input_text'] : item.role === 'user' ? ['input_text', 'input_audio', 'input_image'] : ['output_text', 'output_audio'];
          const bad = (item.content ?? []).findIndex((c) => !allowed.includes(String(c.type)));
          if (bad >= 0) return error('invalid_value', `Invalid value: '${String(item.content![bad]!.type)}'. Supported values are: ${allowed.map((t) => `'${t}'`).join(', ')}.`, `item.content[${bad}].type`, m.event_id);
          items.push({ id: id('item'), role: item.role, text: (item.content ?? []).map((c) => c.text ?? '').join(' '), audioMs: 0 });
        } else return error('invalid_value', `Invalid value: '${String(item.type)}'.`, 'item.type', m.event_id);
        const added = items.at(-1)!;
        const wire = { id: added.id, object: 'realtime.item', ...item, status: 'completed' };
        event({ type: 'conversation.item.added', previous_item_id: items.at(-2)?.id ?? null, item: wire });
        event({ type: 'conversation.item.done', previous_item_id: items.at(-2)?.id ?? null, item: wire });
        return;
      }
      case 'response.create': {
        if (active) return error('conversation_already_has_active_response', `Conversation already has an active response in progress: ${active.id}. Wait until the response is finished before creating a new one.`, null, m.event_id);
        const instructions = (m.response as { instructions?: string } | undefined)?.instructions;
        return respond(instructions);
      }
      case 'response.cancel':
        if (!active) return error('response_cancel_not_active', 'Cancellation failed: no active response found', null, m.event_id);
        return cancel('client_cancelled');
      case 'conversation.item.truncate': {
        const item = items.find((i) => i.id === m.item_id);
        const end = Number(m.audio_end_ms);
        if (!item || item.role !== 'assistant') return error('invalid_value', `Invalid value: '${String(m.item_id)}'. Only assistant messages with audio can be truncated.`, 'item_id', m.event_id);
        if (!Number.isFinite(end) || end < 0 || end > item.audioMs + 1) {
          return error('invalid_value', `Audio content of ${Math.round(item.audioMs)}ms is already shorter than ${end}ms`, 'audio_end_ms', m.event_id);
        }
        const words = item.text.split(/\s+/).filter(Boolean);
        item.text = words.slice(0, Math.floor((end / item.audioMs) * words.length)).join(' ');
        control.truncations.push({ itemId: item.id, audioEndMs: end, audioMs: item.audioMs, heardText: item.text });
        item.audioMs = end;
        event({ type: 'conversation.item.truncated', item_id: item.id, content_index: Number(m.content_index ?? 0), audio_end_ms: end });
        return;
      }
      default:
        return error('invalid_value', `Invalid value: '${String(m.type)}'. Supported values are: 'session.update', 'input_audio_buffer.append', 'input_audio_buffer.commit', 'input_audio_buffer.clear', 'conversation.item.create', 'conversation.item.truncate', 'conversation.item.delete', 'conversation.item.retrieve', 'response.create', 'response.cancel', and 'output_audio_buffer.clear'.`, 'type', m.event_id);
    }
  });

  const update = (m: Record<string, unknown>) => {
    const s = (m.session ?? {}) as {
      type?: string;
      model?: string;
      instructions?: string;
      tools?: { type?: string; name?: string; description?: string; parameters?: unknown }[];
      audio?: { input?: { format?: FormatConfig; transcription?: { model?: string } | null; turn_detection?: Record<string, unknown> | null }; output?: { format?: FormatConfig; voice?: string } };
    };
    if (s.type !== 'realtime') return error('invalid_value', "Invalid value: session.type must be 'realtime' on a realtime session.", 'session.type', m.event_id);
    if (s.model !== undefined && s.model !== model) return error('invalid_value', 'The model of a session cannot be changed.', 'session.model', m.event_id);
    for (const [where, f] of [['input', s.audio?.input?.format], ['output', s.audio?.output?.format]] as const) {
      if (!f) continue;
      if (!['audio/pcm', 'audio/pcmu', 'audio/pcma'].includes(f.type)) return error('invalid_value', `Invalid value: '${f.type}'. Supported values are: 'audio/pcm', 'audio/pcmu', and 'audio/pcma'.`, `session.audio.${where}.format.type`, m.event_id);
      if (f.type === 'audio/pcm' && f.rate !== undefined && f.rate !== PCM_RATE) return error('invalid_value', `Invalid value: ${f.rate}. Supported values are: ${PCM_RATE}.`, `session.audio.${where}.format.rate`, m.event_id);
    }
    const voice = s.audio?.output?.voice;
    if (voice !== undefined && !REALTIME_VOICES.openai.includes(voice)) {
      return error('invalid_value', `Invalid value: '${voice}'. Supported values are: ${REALTIME_VOICES.openai.map((v) => `'${v}'`).join(', ')}.`, 'session.audio.output.voice', m.event_id);
    }
    if (voice !== undefined && voice !== session.audio.output.voice && spoken) {
      return error('cannot_update_voice', 'Cannot update a conversation\'s voice if assistant audio is present.', 'session.audio.output.voice', m.event_id);
    }
    for (const [i, t] of (s.tools ?? []).entries()) {
      if (t.type !== 'function') return error('invalid_value', `Invalid value: '${String(t.type)}'. Supported values are: 'function' and 'mcp'.`, `session.tools[${i}].type`, m.event_id);
      if (!t.name || !TOOL_NAME.test(t.name)) return error('invalid_value', `Invalid 'session.tools[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `session.tools[${i}].name`, m.event_id);
    }
    if (s.instructions !== undefined) session.instructions = s.instructions;
    if (s.tools) session.tools = s.tools as typeof session.tools;
    const input = s.audio?.input;
    if (input?.format) session.audio.input.format = input.format.type === 'audio/pcm' ? { type: 'audio/pcm', rate: PCM_RATE } : input.format;
    if (input?.transcription !== undefined) session.audio.input.transcription = input.transcription;
    if (input?.turn_detection !== undefined) session.audio.input.turn_detection = input.turn_detection && { ...session.audio.input.turn_detection, ...input.turn_detection };
    const output = s.audio?.output;
    if (output?.format) session.audio.output.format = output.format.type === 'audio/pcm' ? { type: 'audio/pcm', rate: PCM_RATE } : output.format;
    if (voice) session.audio.output.voice = voice;
    if (input?.format || input?.turn_detection !== undefined) configureEngine();
    event({ type: 'session.updated', session });
  };

  connection.ws.on('close', () => {
    engine?.close();
    if (active) for (const t of active.timers) clearTimeout(t);
  });
}
