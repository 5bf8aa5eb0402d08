import type { CallEndReason } from '../../../lib/domain/history.js';
import type { AudioFormat } from '../../../lib/vendors/shared/audio-format.js';

/**
 * The one port a call session talks to its caller through. Two adapters implement it: Twilio Media Streams
 * (the phone: mu-law 8 kHz in JSON messages, transport/twilio.ts) and the browser (PCM16 16 kHz in binary
 * frames, transport/web.ts). The session never asks which one it has.
 */
export interface MediaTransport {
  /** The audio both ways; the session asks its STT and TTS vendors for exactly this. */
  readonly format: AudioFormat;
  /** Agent audio to play, in `format`, in order. */
  sendAudio(audio: Uint8Array): void;
  /** A marker echoed back (a `mark_echo` frame) once the audio sent before it has played. */
  sendMark(name: string): void;
  /** Drop every buffered sample now (barge-in); outstanding marks are then echoed. */
  clear(): void;
  /** What a caller with a screen sees (captions, the agent's state); a phone line ignores it. */
  notify(notice: SessionNotice): void;
  /** Ends the media connection (the call is over). */
  close(code: number, reason: string): void;
}

/** What the session tells a caller who can see: live captions, the agent's state, the end. */
export type SessionNotice =
  | { readonly type: 'caption'; readonly role: 'user' | 'agent'; readonly text: string; readonly final: boolean }
  | { readonly type: 'state'; readonly state: 'listening' | 'thinking' | 'speaking' }
  /** Another agent took the call over (docs/handoffs.md): the page shows its name from here. */
  | { readonly type: 'agent'; readonly agentId: string; readonly agentName: string }
  /** An agent test's call only (docs/agent-tests.md): a tool call the agent ran, with its arguments. */
  | { readonly type: 'tool_call'; readonly name: string; readonly arguments: Readonly<Record<string, unknown>> }
  | { readonly type: 'ended'; readonly reason: CallEndReason };
