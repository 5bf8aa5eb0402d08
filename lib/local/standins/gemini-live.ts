import { randomBytes } from 'node:crypto';
import { bytesPerMs, type AudioFormat } from '../../vendors/shared/audio-format.js';
import { REALTIME_MODELS, REALTIME_VOICES } from '../../domain/realtime.js';
import { SttEngine, jsonOf, startWsStandin, type StandinConnection } from './stt-engine.js';
import { RealtimeStandinControl, type RealtimeScript } from './openai-realtime.js';
import { synthesizeTone } from './tts-audio.js';

/**
 * A stand-in for Gemini Live (the Live API's BidiGenerateContent WebSocket), as the `@google/genai` SDK's
 * `ai.live.connect` opens it: `<base as ws>/ws/google.ai.generativelanguage.v1beta.GenerativeService.
 * BidiGenerateContent?key=<key>`. What it enforces, from ai.google.dev/api/live (the message reference),
 * ai.google.dev/gemini-api/docs/live and .../live-guide, .../live-tools, and the SDK 2.32's types:
 * - the key (`?key=`): a wrong one closes the socket 1008 "API key not valid";
 * - the first message is `setup` (anything else closes 1007): `model` `models/<one of the Live models>`
 *   (else 1008 "... is not found for API version v1beta, or is not supported for bidiGenerateContent"), one
 *   response modality (AUDIO or TEXT), `speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName` one of the
 *   prebuilt voices, function declarations named `^[a-zA-Z0-9_.:-]{1,64}$` ("must be a-z, A-Z, 0-9, or contain
 *   underscores, colons, dots, and dashes, with a maximum length of 64"); answered `setupComplete`; a second
 *   `setup` closes 1007 (the configuration is fixed for the session);
 * - `realtimeInput.audio` is raw 16-bit little-endian PCM, `audio/pcm;rate=<hz>` ("Input audio is natively
 *   16kHz"; other mime types close 1007);
 * - automatic activity detection (the server VAD, default on): the caller's words come back as
 *   `serverContent.inputTranscription` when `inputAudioTranscription` was set; speech during the model's
 *   turn sends `serverContent.interrupted` and drops the rest of that turn;
 * - the model's turn: `serverContent.modelTurn.parts[].inlineData` `audio/pcm;rate=24000` in 100 ms chunks,
 *   `outputTranscription` (when `outputAudioTranscription` was set), `generationComplete`, then `turnComplete`
 *   with `usageMetadata` (32 tokens per second of audio, Google's "Audio: 32 tokens per second");
 * - a function call: `toolCall.functionCalls[{id, name, args}]`; the model waits for a `toolResponse` whose
 *   `functionResponses[].id` it issued (an unknown id closes 1007); `clientContent.turns` with
 *   `turnComplete` asks for a turn (a greeting).
 * - the connection's lifetime (ai.google.dev/gemini-api/docs/live-session: "The lifetime of a connection is
 *   limited ... to around 10 minutes ... You'll also receive a GoAway message before the connection ends";
 *   firebase.google.com/docs/ai-logic/live-api/sessions: "about 60 seconds before"): `goAway {timeLeft}` at
 *   lifetime minus notice, then close 1011 (what Google's server was seen sending at its limit:
 *   discuss.ai.google.dev, "Live sessions are closed ... with 1011 Deadline expired"). The knob
 *   {@link GeminiLiveControl.sessionLimit} shortens it;
 * - session resumption: a `setup.sessionResumption` gets `sessionResumptionUpdate {newHandle, resumable:
 *   true}` after setup and after every finished turn (the conversation so far, kept under the handle), and
 *   `{newHandle: "", resumable: false}` while the model generates or waits for a function's answer ("at some
 *   points ... model executing function calls or just generating", the SDK's LiveServerSessionResumptionUpdate);
 *   a setup with `sessionResumption.handle` continues that conversation when the handle is one this stand-in
 *   issued and still valid ("Resumption tokens are valid for 2 hours after the last session termination",
 *   ai.google.dev/gemini-api/docs/live-session), and is closed 1007 otherwise (Google refused a stale handle
 *   with 1007, the same report); `contextWindowCompression.slidingWindow` is accepted (nothing is dropped:
 *   the stand-in's conversations stay far below any trigger).
 * There is no truncation message in the Live API: the model's context keeps its whole turn.
 * The model answers by the OpenAI stand-in's script (an echo by default), its audio a tone.
 */
export interface GeminiLiveStandin {
  /** The SDK's `httpOptions.baseUrl` for it (`http://127.0.0.1:<port>`). */
  readonly baseUrl: string;
  readonly control: GeminiLiveControl;
  stop(): Promise<void>;
}

type Turn = { role: 'user' | 'assistant' | 'tool' | 'system'; text: string };

/** Google's: a connection ends after about 10 minutes, the `goAway` about 60 seconds before; a handle lasts 2 hours after its session ends. */
const CONNECTION_LIFETIME_MS = 10 * 60_000;
const GO_AWAY_NOTICE_MS = 60_000;
const HANDLE_TTL_MS = 2 * 60 * 60_000;

/** The OpenAI stand-in's control, and Gemini's session limit and resumption handles. */
export class GeminiLiveControl extends RealtimeStandinControl {
  lifetimeMs = CONNECTION_LIFETIME_MS;
  noticeMs = GO_AWAY_NOTICE_MS;
  /** How long a handle stays valid once the connection that issued it has closed. */
  handleTtlMs = HANDLE_TTL_MS;
  /** The conversation under each handle issued, and when it stops being valid (set when its connection closes). */
  readonly handles = new Map<string, { readonly turns: readonly Turn[]; validUntil: number }>();
  /** Setups that resumed a session with a handle issued here. */
  resumed = 0;
  /** `goAway`s sent, and connections this stand-in ended at their lifetime. */
  goAways = 0;
  expired = 0;
  /** Fault knob: every resumption is refused (closed 1007) until the next `setScript`, as for an expired session. */
  refuseResumption = false;
  /** Fault knob: a resuming setup's `setupComplete` comes this late (a slow reconnect). */
  resumeDelayMs = 0;
  /** @internal The open connections' "lifetime is up" (goAway, then close after the notice). */
  readonly lifetimes = new Set<(noticeMs: number) => void>();

  /** Fault knob: connections opened from now on last `lifetimeMs`, the `goAway` `noticeMs` before (Google: ~10 min, ~60 s). */
  sessionLimit(lifetimeMs: number, noticeMs: number): void {
    this.lifetimeMs = lifetimeMs;
    this.noticeMs = noticeMs;
  }

  /** Fault knob: the open connections reach their lifetime now: `goAway` with `noticeMs` left, then the close. */
  expireNow(noticeMs = this.noticeMs): void {
    for (const end of [...this.lifetimes]) end(noticeMs);
  }

  override setScript(script: Partial<RealtimeScript>): void {
    super.setScript(script);
    this.sessionLimit(CONNECTION_LIFETIME_MS, GO_AWAY_NOTICE_MS);
    this.refuseResumption = false;
    this.resumeDelayMs = 0;
  }
}

const OUTPUT_RATE = 24_000;
const OUTPUT_FORMAT: AudioFormat = { encoding: 'linear16', sampleRate: OUTPUT_RATE };
const FUNCTION_NAME = /^[a-zA-Z0-9_.:-]{1,64}$/;
const AUDIO_TOKENS_PER_SECOND = 32;
// The SDK joins `ws://host:port/` and `/ws/...` into `//ws/...`, which a URL parser reads as a host: match the tail.
const PATH = /google\.ai\.generativelanguage\.v1(beta|alpha)?\.GenerativeService\.BidiGenerateContent$/;

export async function startGeminiLiveStandin(script: Partial<RealtimeScript> = {}): Promise<GeminiLiveStandin> {
  const control = new GeminiLiveControl(script, 'google');
  const running = await startWsStandin(control.stt, {
    authorize: (_req, url) => (PATH.test(url.pathname) ? undefined : { status: 404, body: { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } } }),
    onConnection: (connection, url) => runSession(control, connection, url.searchParams.get('key') ?? undefined),
  });
  return { baseUrl: running.origin, control, stop: running.stop };
}

interface Setup {
  model?: string;
  generationConfig?: { responseModalities?: string[]; speechConfig?: { voiceConfig?: { prebuiltVoiceConfig?: { voiceName?: string } } } };
  systemInstruction?: { parts?: { text?: string }[] };
  tools?: { functionDeclarations?: { name?: string }[] }[];
  inputAudioTranscription?: object;
  outputAudioTranscription?: object;
  realtimeInputConfig?: { automaticActivityDetection?: { disabled?: boolean } };
  sessionResumption?: { handle?: string };
  contextWindowCompression?: { slidingWindow?: { targetTokens?: string }; triggerTokens?: string };
}

function runSession(control: GeminiLiveControl, connection: StandinConnection, key: string | undefined): void {
  const index = connection.session.index;
  const log: { connection: number; event: Record<string, unknown> }[] = [];
  control.received.push(log);
  const send = (body: Record<string, unknown>) => connection.sendJson(body);
  const refuse = (code: 1007 | 1008, reason: string) => connection.close(code, reason.slice(0, 123));
  if (!control.stt.accepts(key)) return refuse(1008, 'API key not valid. Please pass a valid API key.');
  let setup: Setup | undefined;
  let instructions = '';
  let tools: string[] = [];
  let items: Turn[] = [];
  const callIds = new Map<string, string>();
  let engine: SttEngine | undefined;
  let inputFormat: AudioFormat | undefined;
  let inputAudioMs = 0;
  let active: { cancelled: boolean; timers: Set<NodeJS.Timeout>; waitingTool: boolean } | undefined;

  /** A resumption point (the conversation so far under a new handle), or none while the model is busy. */
  const resumable = (yes: boolean) => {
    if (!setup?.sessionResumption) return;
    if (!yes) return send({ sessionResumptionUpdate: { newHandle: '', resumable: false } });
    const handle = `session-${randomBytes(12).toString('hex')}`;
    issued.push(handle);
    control.handles.set(handle, { turns: items.map((i) => ({ ...i })), validUntil: Infinity });
    send({ sessionResumptionUpdate: { newHandle: handle, resumable: true } });
  };
  const issued: string[] = [];
  const lifetime: NodeJS.Timeout[] = [];
  let goneAway = false;
  const endOfLife = (noticeMs: number) => {
    if (goneAway) return;
    goneAway = true;
    lifetime.forEach(clearTimeout);
    control.goAways += 1;
    send({ goAway: { timeLeft: `${noticeMs / 1000}s` } });
    lifetime.push(setTimeout(() => {
      control.expired += 1;
      connection.close(1011, 'Deadline expired before operation could complete.');
    }, noticeMs));
  };
  control.lifetimes.add(endOfLife);
  lifetime.push(setTimeout(() => endOfLife(Math.min(control.noticeMs, control.lifetimeMs)), Math.max(0, control.lifetimeMs - control.noticeMs)));

  const cancel = () => {
    const r = active;
    if (!r) return;
    r.cancelled = true;
    for (const t of r.timers) clearTimeout(t);
    active = undefined;
    send({ serverContent: { interrupted: true } });
  };

  const usage = (outputAudioMs: number) => {
    const audioIn = Math.ceil((inputAudioMs / 1000) * AUDIO_TOKENS_PER_SECOND);
    const textIn = Math.ceil((instructions.length + items.filter((i) => i.role !== 'user').reduce((n, i) => n + i.text.length, 0)) / 4);
    const audioOut = Math.ceil((outputAudioMs / 1000) * AUDIO_TOKENS_PER_SECOND);
    return {
      promptTokenCount: audioIn + textIn,
      responseTokenCount: audioOut,
      totalTokenCount: audioIn + textIn + audioOut,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: textIn }, { modality: 'AUDIO', tokenCount: audioIn }],
      responseTokensDetails: [{ modality: 'AUDIO', tokenCount: audioOut }],
    };
  };

  const respond = (responseInstructions: string | undefined) => {
    const r = { cancelled: false, timers: new Set<NodeJS.Timeout>(), waitingTool: false };
    active = r;
    const later = (ms: number, fn: () => void) => {
      const t = setTimeout(() => {
        r.timers.delete(t);
        if (!r.cancelled) fn();
      }, ms);
      r.timers.add(t);
    };
    const reply = control.script.reply({ instructions, items: [...items], ...(responseInstructions ? { responseInstructions } : {}), tools });
    resumable(false);
    if ('toolCall' in reply) {
      later(control.script.firstAudioDelayMs, () => {
        const callId = `function-call-${randomBytes(8).toString('hex')}`;
        callIds.set(callId, reply.toolCall.name);
        let args: unknown = {};
        try {
          args = JSON.parse(reply.toolCall.arguments || '{}');
        } catch {
          args = {};
        }
        items.push({ role: 'tool', text: `${reply.toolCall.name}(${reply.toolCall.arguments})` });
        r.waitingTool = true;
        send({ toolCall: { functionCalls: [{ id: callId, name: reply.toolCall.name, args }] } });
        control.responseFinished(connection, 1011);
      });
      return;
    }
    const audio = synthesizeTone(reply.text, OUTPUT_FORMAT);
    const audioMs = audio.length / bytesPerMs(OUTPUT_FORMAT);
    later(control.script.firstAudioDelayMs, () => {
      items.push({ role: 'assistant', text: reply.text });
      const chunk = Math.round(100 * bytesPerMs(OUTPUT_FORMAT));
      const chunks = Math.max(1, Math.ceil(audio.length / chunk));
      const words = reply.text.split(/(?<=\s)/);
      const pace = control.script.realtimeFactor > 0 ? 100 / control.script.realtimeFactor : 0;
      let sentWords = 0;
      for (let i = 0; i < chunks; i += 1) {
        later(i * pace, () => {
          send({ serverContent: { modelTurn: { role: 'model', parts: [{ inlineData: { mimeType: `audio/pcm;rate=${OUTPUT_RATE}`, data: Buffer.from(audio.subarray(i * chunk, (i + 1) * chunk)).toString('base64') } }] } } });
          const upTo = Math.ceil(((i + 1) / chunks) * words.length);
          const text = words.slice(sentWords, upTo).join('');
          sentWords = upTo;
          if (text && setup?.outputAudioTranscription) send({ serverContent: { outputTranscription: { text } } });
        });
      }
      later(chunks * pace, () => {
        active = undefined;
        send({ serverContent: { generationComplete: true } });
        send({ serverContent: { turnComplete: true }, usageMetadata: usage(audioMs) });
        resumable(true);
        control.responseFinished(connection, 1011);
      });
    });
  };

  const startEngine = (format: AudioFormat) => {
    inputFormat = format;
    engine?.close();
    const vad = setup?.realtimeInputConfig?.automaticActivityDetection?.disabled !== true;
    engine = new SttEngine(
      () => ({ ...control.stt.script, interimResults: false }),
      { endpointingMs: vad ? 500 : null, utteranceEndMs: null, interimResults: false, format, language: 'detect' },
      index,
      (e) => {
        if (e.type === 'speech_started' && vad) {
          if (active && !active.waitingTool) cancel();
        } else if (e.type === 'final' && e.utterance >= 0) {
          items.push({ role: 'user', text: e.text });
          if (setup?.inputAudioTranscription) send({ serverContent: { inputTranscription: { text: e.text } } });
          if (control.callerTurnTranscribed(connection)) return;
          if (vad && !active) respond(undefined);
        }
      },
    );
  };

  const onSetup = (s: Setup) => {
    const model = (s.model ?? '').replace(/^models\//, '');
    if (!REALTIME_MODELS.google.includes(model)) {
      return refuse(1008, `models/${model} is not found for API version v1beta, or is not supported for bidiGenerateContent.`);
    }
    const modalities = s.generationConfig?.responseModalities ?? ['AUDIO'];
    if (modalities.length !== 1 || !['AUDIO', 'TEXT'].includes(modalities[0]!)) return refuse(1007, 'Request contains an invalid argument: setup.generationConfig.responseModalities');
    const voice = s.generationConfig?.speechConfig?.voiceConfig?.prebuiltVoiceConfig?.voiceName;
    if (voice !== undefined && !REALTIME_VOICES.google.includes(voice)) return refuse(1007, `Request contains an invalid argument: voice_name ${voice} is not supported`);
    const names = (s.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name ?? ''));
    const bad = names.find((n) => !FUNCTION_NAME.test(n));
    if (bad !== undefined) return refuse(1007, `Request contains an invalid argument: function_declarations name "${bad}"`);
    const resuming = s.sessionResumption?.handle !== undefined;
    if (resuming) {
      const resumed = control.handles.get(s.sessionResumption!.handle!);
      if (!resumed || resumed.validUntil < Date.now() || control.refuseResumption) return refuse(1007, 'Request contains an invalid argument.');
      items = resumed.turns.map((i) => ({ ...i }));
      control.resumed += 1;
    }
    setup = s;
    instructions = (s.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('');
    tools = names;
    const ready = () => {
      if (connection.ws.readyState !== connection.ws.OPEN) return;
      send({ setupComplete: {} });
      resumable(true);
    };
    if (resuming && control.resumeDelayMs > 0) lifetime.push(setTimeout(ready, control.resumeDelayMs));
    else ready();
  };

  connection.ws.on('message', (data, isBinary) => {
    const m = jsonOf(data, isBinary);
    if (!m) return refuse(1007, 'Invalid JSON payload received.');
    log.push({ connection: index, event: m });
    if (!setup) {
      if (!m.setup) return refuse(1007, 'Request contains an invalid argument: the first message must be setup.');
      return onSetup(m.setup as Setup);
    }
    if (m.setup) return refuse(1007, 'Request contains an invalid argument: setup may be sent only once.');
    if (m.realtimeInput) {
      const audio = (m.realtimeInput as { audio?: { data?: string; mimeType?: string } }).audio;
      if (!audio) return;
      const rate = /^audio\/pcm(?:;rate=(\d+))?$/.exec(audio.mimeType ?? '');
      if (!rate) return refuse(1007, `Request contains an invalid argument: unsupported mime type ${String(audio.mimeType)}`);
      const sampleRate = Number(rate[1] ?? 16_000);
      if (!inputFormat || inputFormat.sampleRate !== sampleRate) startEngine({ encoding: 'linear16', sampleRate });
      const bytes = new Uint8Array(Buffer.from(String(audio.data ?? ''), 'base64'));
      inputAudioMs += bytes.length / bytesPerMs(inputFormat!);
      engine!.pushAudio(bytes);
      control.stt.audioReceived(connection, bytes.length);
      return;
    }
    if (m.clientContent) {
      const c = m.clientContent as { turns?: { role?: string; parts?: { text?: string }[] }[]; turnComplete?: boolean };
      if ((c.turns ?? []).some((t) => t.role !== undefined && t.role !== 'user' && t.role !== 'model')) return refuse(1007, 'Request contains an invalid argument: turns.role must be user or model.');
      const text = (c.turns ?? []).flatMap((t) => (t.parts ?? []).map((p) => p.text ?? '')).join(' ');
      // "Appended to the conversation history"; "will interrupt any current model generation" (LiveClientContent).
      if (text) items.push({ role: 'system', text });
      if (active && !active.waitingTool) cancel();
      if (c.turnComplete && !active) respond(text || undefined);
      return;
    }
    if (m.toolResponse) {
      const responses = (m.toolResponse as { functionResponses?: { id?: string; name?: string; response?: unknown }[] }).functionResponses ?? [];
      for (const f of responses) {
        if (!f.id || !callIds.has(f.id)) return refuse(1007, `Request contains an invalid argument: no function call with id ${String(f.id)}`);
        callIds.delete(f.id);
        items.push({ role: 'tool', text: JSON.stringify(f.response ?? {}) });
      }
      active = undefined;
      return respond(undefined);
    }
    return refuse(1007, 'Request contains an invalid argument: unknown message.');
  });

  connection.ws.on('close', () => {
    lifetime.forEach(clearTimeout);
    control.lifetimes.delete(endOfLife);
    // "Valid for 2 hours after the last session termination."
    for (const h of issued) {
      const entry = control.handles.get(h);
      if (entry) entry.validUntil = Date.now() + control.handleTtlMs;
    }
    engine?.close();
    if (active) for (const t of active.timers) clearTimeout(t);
  });
}
