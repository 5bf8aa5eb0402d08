import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import type { Logger } from '../../../../lib/observability/log.js';
import type { RealtimeUsage } from '../../../../lib/domain/realtime.js';
import { describeError } from '../../../../lib/observability/log.js';
import { PHONE_AUDIO, bytesPerMs, sameFormat, type AudioFormat } from '../../../../lib/vendors/shared/audio-format.js';
import { PcmConverter } from '../../../../lib/vendors/shared/pcm.js';
import { openRealtimeSocket, type RealtimeEndpoint, type RealtimeSocket } from '../../../../lib/vendors/realtime/openai.js';
import { openGeminiSocket } from '../../../../lib/vendors/realtime/gemini.js';
import { pcmToMulaw } from '../../../../lib/vendors/shared/mulaw.js';
import { linear16ToPcm as linear16ToPcmSamples } from '../../../../lib/vendors/shared/pcm.js';
import type { CallSetup } from '../../call/types.js';
import type { AgentRound, Conversation, Entry } from '../../conversation/conversation.js';
import { callText } from '../../conversation/prompt.js';
import { runTools, type TurnChannel, type TurnHost } from '../../conversation/turn-loop.js';
import { parseArguments } from '../../tools/http.js';
import type { BuiltInAction } from '../../tools/registry.js';
import type { LlmToolCall } from '../../../../lib/vendors/llm/port.js';
import type { AudioOut } from '../audio-out.js';
import type { WaitingPhrases } from '../reply.js';
import type { Speaker } from '../speaker.js';
import { RealtimeFiller } from './filler.js';
import { RealtimeKnowledge } from './knowledge.js';
import { holdAnswers } from './held-answer.js';
import type { SpeechHandle, Phrase } from '../speech-handle.js';
import type { CallStateMachine } from '../state.js';
import type { CallTimeline } from '../timeline.js';
import type { TransferResult } from '../transfer.js';

/**
 * A speech-to-speech call (docs/realtime.md): the caller's audio goes to the vendor's realtime model, whose
 * audio is played through the call's own output (so marks, recording, live listen and barge-in work as for
 * the cascade) and whose transcripts feed the call's conversation (so history, analysis and a fallback see
 * the same turns). The session keeps everything else: silence, the duration limit, the end.
 *
 * - Turn-taking and barge-in: the model's server VAD decides both (`create_response`, `interrupt_response`):
 *   the model's turns must follow the audio it hears, and a second opinion (ours) would cut its speech while
 *   it still thinks the caller is silent. On `speech_started` the utterance is interrupted here (playback
 *   cleared) and the model's item truncated at what was heard (`conversation.item.truncate` with the played
 *   milliseconds), so the model's context matches the caller's experience.
 * - Tools: the agent's tools are sent as `function` tools; a call is run by the cascade's tool runner
 *   (timeouts, idempotency, end call, transfer) and answered with `function_call_output` + `response.create`;
 *   a slow one gets the cascade's filler in the cascade's voice while the model is quiet (filler.ts).
 * - `auto` knowledge: the model waits for each turn's passages before it answers (knowledge.ts).
 * - Fallback: a session that cannot open, or closes unexpectedly, hands the call to the cascade: the
 *   conversation so far (the model's heard words, the caller's transcripts) is already the cascade's.
 */

/** What the realtime call may use of its session. */
export interface RealtimeHost {
  readonly setup: CallSetup;
  readonly format: AudioFormat;
  readonly log: Logger;
  readonly timeline: CallTimeline;
  readonly conversation: Conversation<SpeechHandle>;
  readonly out: Pick<AudioOut, 'enqueueAudio' | 'enqueueMark' | 'heardBytes' | 'isBusy'>;
  readonly state: CallStateMachine;
  readonly turns: TurnHost;
  readonly hasPhoneLine: boolean;
  /** The cascade's filler phrases and delay, said in the cascade's voice while a tool runs (filler.ts). */
  readonly waiting: WaitingPhrases;
  speakerFor(handle: SpeechHandle): Promise<Speaker | undefined>;
  newHandle(purpose: SpeechHandle['purpose']): SpeechHandle;
  current(): SpeechHandle | undefined;
  interrupt(atMs: number): void;
  afterUtterance(handle: SpeechHandle): void;
  transfer(to: string, mode: 'cold' | 'warm', summary: string): Promise<TransferResult>;
  hangUp(): void;
  /** The caller's words, heard (notices, the silence clock). */
  heard(text: string): void;
  /** The realtime session is gone: the cascade takes over from here. */
  fellBack(): void;
}


/** Error codes that leave the session healthy (a cancel racing the server's own). */
const BENIGN = new Set(['response_cancel_not_active']);

/** The model's wire formats for the call's: the phone's mu-law as is, anything else as 24 kHz PCM. */
function wireFormats(format: AudioFormat, provider: RealtimeEndpoint['provider']) {
  if (provider === 'google') {
    // Gemini Live: 16 kHz PCM in, 24 kHz PCM out (ai.google.dev/gemini-api/docs/live: "Input audio ... 16-bit
    // PCM, 16kHz, little-endian"; "Output audio ... 24kHz"); the phone's mu-law is decoded and re-encoded.
    const up = new PcmConverter(format, 16_000);
    const down = new PcmConverter({ encoding: 'linear16', sampleRate: 24_000 }, format.sampleRate);
    const fromModel = format.encoding === 'mulaw' ? (a: Uint8Array) => pcmToMulaw(linear16ToPcmSamples(down.push(a))) : (a: Uint8Array) => down.push(a);
    return { wire: { type: 'audio/pcm' as const, rate: 24_000 as const }, wireBytesPerMs: 48, toModel: (a: Uint8Array) => up.push(a), fromModel };
  }
  if (sameFormat(format, PHONE_AUDIO)) {
    return { wire: { type: 'audio/pcmu' as const }, wireBytesPerMs: 8, toModel: (a: Uint8Array) => a, fromModel: (a: Uint8Array) => a };
  }
  const up = new PcmConverter(format, 24_000);
  const down = new PcmConverter({ encoding: 'linear16', sampleRate: 24_000 }, format.sampleRate);
  return { wire: { type: 'audio/pcm' as const, rate: 24_000 as const }, wireBytesPerMs: 48, toModel: (a: Uint8Array) => up.push(a), fromModel: (a: Uint8Array) => down.push(a) };
}

interface ResponseState {
  readonly handle: SpeechHandle;
  readonly round: AgentRound;
  itemId?: string;
  phrase?: Phrase;
  modelAudioMs: number;
  /** The server cancelled it for the caller's speech: our cancel would race its own. */
  serverCancelled: boolean;
  done: boolean;
}

export class RealtimeCall {
  readonly usage: RealtimeUsage;
  /** When (epoch ms) the session went down and the cascade took the call: its seconds are billed as the cascade's. */
  fellBackAt: number | undefined;
  private socket: RealtimeSocket | undefined;
  private state: 'opening' | 'open' | 'down' | 'closed' = 'opening';
  private readonly pending: Uint8Array[] = [];
  private readonly audio: ReturnType<typeof wireFormats>;
  private readonly responses = new Map<string, ResponseState>();
  private readonly userItems = new Map<string, Extract<Entry<SpeechHandle>, { type: 'user' }>>();
  private greeted = false;
  private readonly filler: RealtimeFiller;
  private readonly knowledge: RealtimeKnowledge;

  constructor(
    private readonly host: RealtimeHost,
    private readonly endpoint: RealtimeEndpoint,
    private readonly config: { readonly model: string; readonly voice: string },
  ) {
    this.audio = wireFormats(host.format, endpoint.provider);
    const quiet = () => this.state === 'open' && ![...this.responses.values()].some((r) => !r.done) && !host.out.isBusy();
    this.filler = new RealtimeFiller(host, quiet);
    this.knowledge = new RealtimeKnowledge(host.turns, host.log, (e) => this.socket?.send(e), () => this.state === 'open');
    this.usage = { model: config.model, inputAudioTokens: 0, inputTextTokens: 0, cachedTokens: 0, cachedAudioTokens: 0, outputAudioTokens: 0, outputTextTokens: 0 };
  }

  /** True while the realtime model carries the call (caller audio goes to it, not to the recognizer). */
  get active(): boolean {
    return this.state === 'opening' || this.state === 'open';
  }

  start(): void {
    const port: Parameters<typeof openRealtimeSocket>[2] = {
      opened: (socket) => {
        if (this.state === 'opening') this.socket = socket;
        else socket.close();
      },
      event: (e) => {
        try {
          this.onEvent(e);
        } catch (error) {
          this.host.log.log('warn', 'realtime event failed', describeError(error));
        }
      },
      closed: (error) => {
        if (error) this.down(error);
      },
    };
    const google = this.endpoint.provider === 'google';
    // Gemini answers a turn by itself: under `auto` knowledge its answer waits for the passages (held-answer.ts).
    const handlers = google && this.knowledge.auto ? holdAnswers(port) : port;
    const opened = google ? openGeminiSocket(this.endpoint, this.config.model, this.config.voice, handlers) : openRealtimeSocket(this.endpoint, this.config.model, handlers);
    opened.catch((error: unknown) => this.down(error));
  }

  /** Caller audio, in the call's format; false once the cascade has it. */
  sendAudio(audio: Uint8Array): boolean {
    if (!this.active) return false;
    const bytes = this.audio.toModel(audio);
    if (bytes.length === 0) return true;
    if (this.state === 'opening') {
      // Up to 2 s of the caller's first words wait for the socket; older audio is dropped (a hello, not a turn).
      this.pending.push(bytes);
      if (this.pending.length > 100) this.pending.shift();
      return true;
    }
    this.socket?.send({ type: 'input_audio_buffer.append', audio: Buffer.from(bytes).toString('base64') });
    return true;
  }

  close(): void {
    this.state = 'closed';
    this.socket?.close();
  }

  private down(error: unknown): void {
    if (!this.active) return;
    this.state = 'down';
    this.fellBackAt = Date.now();
    this.host.log.log('warn', 'realtime session down: the cascade takes the call', describeError(error));
    this.host.timeline.fallback('realtime', error, 'cascade');
    const current = this.host.current();
    if (current && [...this.responses.values()].some((r) => r.handle === current && !r.done)) this.host.interrupt(performance.now());
    this.socket?.close();
    this.host.fellBack();
  }

  private configure(): void {
    const { agent } = this.host.setup;
    const tools = this.host.turns.tools.specs.map((t) => ({ type: 'function' as const, name: t.name, description: t.description, parameters: t.parameters as Record<string, unknown> }));
    this.socket?.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        instructions: callText(this.host.setup, agent.system_prompt),
        output_modalities: ['audio'],
        tools,
        audio: {
          input: {
            format: this.audio.wire,
            transcription: { model: 'gpt-4o-mini-transcribe' },
            // `auto` knowledge: the answer waits for the turn's passages (knowledge.ts).
            turn_detection: { type: 'server_vad', create_response: !this.knowledge.auto, interrupt_response: true },
          },
          output: { format: this.audio.wire, voice: this.config.voice },
        },
      },
    });
  }

  /** The opening line: the first message said in the model's voice, or one it writes (model_generated). */
  private greet(): void {
    if (this.greeted) return;
    this.greeted = true;
    for (const bytes of this.pending.splice(0)) this.socket?.send({ type: 'input_audio_buffer.append', audio: Buffer.from(bytes).toString('base64') });
    const { agent } = this.host.setup;
    const mode = agent.first_message_mode ?? 'agent_speaks_first';
    const text = callText(this.host.setup, agent.first_message).trim();
    if (mode === 'model_generated') this.socket?.send({ type: 'response.create' });
    else if (mode === 'agent_speaks_first' && text) {
      this.socket?.send({ type: 'response.create', response: { instructions: `Greet the caller by saying exactly this, and nothing else: "${text}"` } });
    }
  }

  private onEvent(e: RealtimeServerEvent): void {
    switch (e.type) {
      case 'session.created':
        this.state = 'open';
        return this.configure();
      case 'session.updated':
        return this.greet();
      case 'input_audio_buffer.speech_started': {
        this.filler.cut();
        this.knowledge.callerSpeaking();
        const current = this.host.current();
        const r = [...this.responses.values()].find((x) => x.handle === current);
        if (current && r) {
          r.serverCancelled = true;
          this.host.interrupt(performance.now());
        }
        return;
      }
      case 'input_audio_buffer.committed': {
        const last = this.host.conversation.entries.at(-1);
        const entry = last?.type === 'user' ? last : { type: 'user' as const, text: '' };
        if (entry !== last) this.host.conversation.entries.push(entry);
        this.userItems.set(e.item_id, entry);
        return;
      }
      case 'conversation.item.input_audio_transcription.completed': {
        const entry = this.userItems.get(e.item_id);
        const text = e.transcript.trim();
        if (!entry) return;
        if (text) {
          entry.text = entry.text ? `${entry.text} ${text}` : text;
          this.host.heard(text);
          if (this.knowledge.auto) void this.knowledge.answer(text);
        } else if (!entry.text) {
          const at = this.host.conversation.entries.indexOf(entry);
          if (at >= 0) this.host.conversation.entries.splice(at, 1);
        }
        return;
      }
      case 'conversation.item.input_audio_transcription.failed':
        // `auto` knowledge: a turn without words has nothing to look up, but it still gets its answer.
        if (this.knowledge.auto && this.state === 'open') this.socket?.send({ type: 'response.create' });
        return;
      case 'response.created': {
        this.filler.cut();
        this.host.turns.agentTurns += 1;
        const handle = this.host.newHandle('reply');
        if (this.host.state.canGo('thinking')) this.host.state.go('thinking');
        const entry = this.host.conversation.addAgent(handle);
        const round: AgentRound = { generated: '', toolCalls: [], results: new Map() };
        entry.rounds.push(round);
        const r: ResponseState = { handle, round, modelAudioMs: 0, serverCancelled: false, done: false };
        this.responses.set(e.response.id!, r);
        handle.signal.addEventListener('abort', () => this.truncate(r), { once: true });
        return;
      }
      case 'response.output_item.added': {
        const r = this.responses.get(e.response_id);
        if (r && e.item.type === 'message') r.itemId = e.item.id;
        return;
      }
      case 'response.output_audio.delta': {
        const r = this.responses.get(e.response_id);
        if (!r || r.handle.interrupted) return;
        const wire = new Uint8Array(Buffer.from(e.delta, 'base64'));
        r.modelAudioMs += wire.length / this.audio.wireBytesPerMs;
        const bytes = this.audio.fromModel(wire);
        const phrase = (r.phrase ??= r.handle.addPhrase('', 0));
        phrase.audioBytes += bytes.length;
        this.host.out.enqueueAudio(r.handle.id, bytes);
        return;
      }
      case 'response.output_audio_transcript.delta': {
        const r = this.responses.get(e.response_id);
        if (!r) return;
        const phrase = (r.phrase ??= r.handle.addPhrase('', 0));
        phrase.text += e.delta;
        r.round.generated += e.delta;
        return;
      }
      case 'response.output_audio.done': {
        const r = this.responses.get(e.response_id);
        if (!r?.phrase || r.handle.interrupted) return;
        this.host.out.enqueueMark(r.handle.id, r.phrase.markName);
        r.handle.markSent(r.phrase);
        return;
      }
      case 'response.function_call_arguments.done': {
        const r = this.responses.get(e.response_id);
        r?.round.toolCalls.push({ id: e.call_id, name: e.name, arguments: e.arguments });
        return;
      }
      case 'response.done':
        return void this.onResponseDone(e);
      case 'error':
        if (!BENIGN.has(e.error.code ?? '')) this.host.log.log('warn', 'realtime error event', { code: e.error.code, message: e.error.message });
        return;
      default:
        return;
    }
  }

  private async onResponseDone(e: Extract<RealtimeServerEvent, { type: 'response.done' }>): Promise<void> {
    const r = this.responses.get(e.response.id!);
    if (!r) return;
    r.done = true;
    const u = e.response.usage;
    if (u) {
      this.usage.inputAudioTokens += u.input_token_details?.audio_tokens ?? 0;
      this.usage.inputTextTokens += u.input_token_details?.text_tokens ?? 0;
      this.usage.cachedTokens += u.input_token_details?.cached_tokens ?? 0;
      this.usage.cachedAudioTokens = (this.usage.cachedAudioTokens ?? 0) + (u.input_token_details?.cached_tokens_details?.audio_tokens ?? 0);
      this.usage.outputAudioTokens += u.output_token_details?.audio_tokens ?? 0;
      this.usage.outputTextTokens += u.output_token_details?.text_tokens ?? 0;
    }
    const { handle, round } = r;
    let stop = false;
    if (e.response.status === 'completed' && round.toolCalls.length > 0) {
      stop = (await runTools(this.host.turns, this.channel(handle), round, 0)) === 'stop';
      for (const call of round.toolCalls) {
        const result = round.results.get(call.id);
        if (result) this.socket?.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.id, output: result.content } });
      }
      if (!stop && this.state === 'open') this.socket?.send({ type: 'response.create' });
    }
    handle.finishProducing();
    await handle.whenSettled();
    this.host.afterUtterance(handle);
  }

  /** What the model heard of its own item: the played milliseconds (marks and the output clock). */
  private truncate(r: ResponseState): void {
    if (!r.itemId || r.done && r.handle.settled) return;
    if (!r.serverCancelled && !r.done && this.state === 'open') this.socket?.send({ type: 'response.cancel' });
    const heardMs = Math.min(r.modelAudioMs, this.host.out.heardBytes(r.handle.id) / bytesPerMs(this.host.format));
    if (this.state === 'open') this.socket?.send({ type: 'conversation.item.truncate', item_id: r.itemId, content_index: 0, audio_end_ms: Math.floor(heardMs) });
  }

  /** The tool runner's view of a realtime reply: the model speaks its own words; built-ins act on the call. */
  private channel(handle: SpeechHandle): TurnChannel {
    const { host, filler } = this;
    return {
      signal: handle.signal,
      get interrupted() {
        return handle.interrupted;
      },
      text: () => undefined,
      roundEnd: () => undefined,
      // A filler when the tool is slow and the model quiet (filler.ts); the tool's timeout (tools/http.ts) bounds the wait.
      toolsStart: () => filler.toolsStart(),
      async builtIn(action: BuiltInAction, call: LlmToolCall): Promise<{ content: string; stop?: boolean }> {
        if (action.kind === 'transfer' || action.kind === 'end_call') filler.cut();
        if (action.kind === 'transfer') {
          if (!host.hasPhoneLine) return { content: JSON.stringify({ error: 'this call is in a web browser, not on a phone line, so it cannot be transferred' }) };
          await handle.whenQuiet();
          const result = await host.transfer(action.to, action.mode, String(parseArguments(call.arguments).summary ?? ''));
          return { content: JSON.stringify(result.ok ? { transferred: true } : { transferred: false, error: `the transfer did not happen: ${result.reason}` }), stop: result.ok };
        }
        if (action.kind === 'end_call') {
          await handle.whenQuiet();
          host.hangUp();
          return { content: JSON.stringify({ ended: true }), stop: true };
        }
        return { content: JSON.stringify({ error: `${call.name} is not available on a speech-to-speech call` }) };
      },
    };
  }
}

/** The realtime call for an agent that sets `realtime`, or undefined (the cascade answers). */
export function realtimeFor(host: RealtimeHost, endpoint: RealtimeEndpoint | undefined): RealtimeCall | undefined {
  const realtime = host.setup.agent.realtime;
  return realtime && endpoint ? new RealtimeCall(host, endpoint, realtime) : undefined;
}
