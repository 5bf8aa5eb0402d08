import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import type { RealtimeHandlers } from '../../../../lib/vendors/realtime/openai.js';

/**
 * Longest an answer is held for the call's decision (the transcript's lookup, bounded by its own timeout):
 * past it the answer plays as it came, so a lookup that never reports back cannot leave the caller in silence.
 */
export const HELD_ANSWER_MAX_MS = 4_000;

/**
 * `auto` knowledge on Gemini Live (docs/realtime.md, "The call"). The Live API's model answers a caller's turn
 * by itself: its automatic activity detection has no counterpart of OpenAI's `create_response: false`. So an
 * answer the model starts on its own (not asked for by the call: the greeting, a tool's result) is held here,
 * unplayed, from its first event, whether the caller's transcript came before it or comes after, while the
 * call looks the turn up (knowledge.ts):
 * - passages found: the call's system item goes to the model (the adapter sends it as `clientContent` with
 *   `turnComplete`, which "will interrupt any current model generation", LiveClientContent) and the held
 *   answer is dropped; the model answers again with the passages;
 * - none (or a transcript without words, or no decision within {@link HELD_ANSWER_MAX_MS}): the held answer
 *   is released as it came (the call's `response.create` is moot: it already answered);
 * - the caller speaks again: the held answer is dropped, never heard; the model answers the new turn.
 * Sits between the adapter's port and the call, so neither realtime-call.ts nor the adapter holds anything.
 */
export function holdAnswers(handlers: RealtimeHandlers): RealtimeHandlers {
  let held: RealtimeServerEvent[] | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The call asked for the next response (the greeting, a tool's output, an answer with passages): it is not held. */
  let expected = false;
  /** A replaced answer's response: its events are dropped until its end. */
  let dropping: string | undefined;
  const stopHolding = () => {
    clearTimeout(timer);
    const events = held ?? [];
    held = undefined;
    return events;
  };
  const release = () => {
    for (const e of stopHolding()) handlers.event(e);
  };
  /** Drops the held answer: the part still to come is dropped as it arrives. */
  const drop = () => {
    const events = stopHolding();
    const created = events.find((x) => x.type === 'response.created');
    const id = created?.type === 'response.created' ? created.response.id : undefined;
    const over = events.some((x) => x.type === 'response.done' && x.response.id === id);
    dropping = id && !over ? id : undefined;
  };
  const hold = (first: RealtimeServerEvent) => {
    held = [first];
    timer = setTimeout(release, HELD_ANSWER_MAX_MS);
    timer.unref?.();
  };
  return {
    opened: (socket) =>
      handlers.opened({
        send: (e: RealtimeClientEvent) => {
          if (e.type === 'conversation.item.create' && e.item.type === 'message' && e.item.role === 'system') {
            if (held) drop();
            expected = true;
          } else if (e.type === 'response.create' && held) {
            return release();
          } else if (e.type === 'response.create' || e.type === 'conversation.item.create') {
            expected = true;
          }
          socket.send(e);
        },
        close: () => socket.close(),
      }),
    event: (e) => {
      if (dropping) {
        if (e.type === 'response.done' && e.response.id === dropping) dropping = undefined;
        else if (e.type !== 'input_audio_buffer.speech_started' && e.type !== 'conversation.item.input_audio_transcription.completed') return;
      }
      if (e.type === 'input_audio_buffer.speech_started' && held) drop();
      if (held) {
        if (e.type === 'conversation.item.input_audio_transcription.completed') {
          handlers.event(e);
          if (!e.transcript.trim()) release();
          return;
        }
        if (e.type === 'conversation.item.input_audio_transcription.failed') {
          handlers.event(e);
          return;
        }
        return void held.push(e);
      }
      if (e.type === 'response.created') {
        if (!expected) return hold(e);
        expected = false;
      }
      handlers.event(e);
    },
    closed: (error, expected) => {
      stopHolding();
      handlers.closed(error, expected);
    },
  };
}
