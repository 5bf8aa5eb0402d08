import { AsyncQueue } from '../../lib/vendors/shared/async-queue.js';
import type { LlmEvent, LlmProvider, LlmRequest, LlmToolCall } from '../../lib/vendors/llm/port.js';
import type { SttEvent, SttProvider, SttStream } from '../../lib/vendors/stt/port.js';
import type { TtsAudioChunk, TtsProvider, TtsSession, TtsUtterance } from '../../lib/vendors/tts/port.js';

/**
 * In-memory implementations of the STT, LLM and TTS ports for unit tests of the call session: no sockets,
 * no timing beyond what a test scripts. Each records what it was asked.
 */
export class FakeStt implements SttProvider {
  readonly id = 'deepgram' as const;
  readonly audio: Uint8Array[] = [];
  events = new AsyncQueue<SttEvent>();
  closed = false;
  async connect(): Promise<SttStream> {
    return {
      sendAudio: (mulaw) => this.audio.push(mulaw),
      finalize: () => undefined,
      close: async () => {
        this.closed = true;
        this.events.end();
      },
      events: this.events,
    };
  }
  emit(event: SttEvent): void {
    this.events.push(event);
  }
}

export class FakeLlm implements LlmProvider {
  readonly id = 'openai' as const;
  readonly requests: LlmRequest[] = [];
  constructor(
    private readonly reply: (request: LlmRequest) => string | { text?: string; toolCalls?: LlmToolCall[] } = () => 'Fine, thank you.',
  ) {}
  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    this.requests.push(request);
    const answer = this.reply(request);
    const { text = '', toolCalls = [] } = typeof answer === 'string' ? { text: answer } : answer;
    for (const word of text.split(/(?<= )/).filter(Boolean)) {
      if (signal.aborted) return;
      yield { type: 'text', delta: word, atMs: performance.now() };
    }
    for (const call of toolCalls) yield { type: 'tool_call', call, atMs: performance.now() };
    yield { type: 'done', finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop', atMs: performance.now() };
  }
}

/** Audio: `msPerChar(text)` (default 1 ms, 8 bytes of mu-law) per character, delivered at once. */
export class FakeTts implements TtsProvider {
  readonly id = 'elevenlabs' as const;
  readonly spoken: string[] = [];
  readonly cancelled: string[] = [];
  constructor(private readonly msPerChar: (text: string) => number = () => 1) {}
  async connect(): Promise<TtsSession> {
    return {
      utterance: (id: string): TtsUtterance => {
        let text = '';
        const audio = new AsyncQueue<TtsAudioChunk>();
        return {
          pushText: (t) => {
            text += t;
          },
          flush: () => undefined,
          end: () => {
            this.spoken.push(text.trim());
            audio.push({ audio: new Uint8Array(text.trim().length * 8 * this.msPerChar(text.trim())).fill(0x7f), atMs: performance.now() });
            audio.end();
          },
          cancel: () => {
            this.cancelled.push(id);
            audio.end();
          },
          audio,
        };
      },
      close: async () => undefined,
    };
  }
}
