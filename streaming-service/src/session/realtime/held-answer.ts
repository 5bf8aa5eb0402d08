import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import type { RealtimeHandlers } from '../../../../lib/vendors/realtime/openai.js';

/**
 * `auto` knowledge on Gemini Live (docs/realtime.md, "The call"). The Live API's model answers a caller's turn
 * by itself: its automatic activity detection has no counterpart of OpenAI's `create_response: false`. So the
 * answer it starts after a transcribed caller turn is held here, unplayed, while the call looks the turn up
 * (knowledge.ts):
 * - passages found: the call's system item goes to the model (the adapter sends it as `clientContent` with
 *   `turnComplete`, which "will interrupt any current model generation", LiveClientContent) and the held
 *   answer is dropped; the model answers again with the passages;
 * - none: the held answer is released as it came (the call's `response.create` is moot: it already answered).
 * Sits between the adapter's port and the call, so neither realtime-call.ts nor the adapter holds anything.
 */
export function holdAnswers(handlers: RealtimeHandlers): RealtimeHandlers {
  let held: RealtimeServerEvent[] | undefined;
  /** A replaced answer's response: its events are dropped until its end. */
  let dropping: string | undefined;
  const release = () => {
    const events = held ?? [];
    held = undefined;
    for (const e of events) handlers.event(e);
  };
  return {
    opened: (socket) =>
      handlers.opened({
        send: (e: RealtimeClientEvent) => {
          if (held && e.type === 'conversation.item.create' && e.item.type === 'message') {
            const created = held.find((x) => x.type === 'response.created');
            const id = created?.type === 'response.created' ? created.response.id : undefined;
            const over = held.some((x) => x.type === 'response.done' && x.response.id === id);
            held = undefined;
            dropping = id && !over ? id : undefined;
            return socket.send(e);
          }
          if (held && e.type === 'response.create') return release();
          socket.send(e);
        },
        close: () => socket.close(),
      }),
    event: (e) => {
      if (dropping) {
        if (e.type === 'response.done' && e.response.id === dropping) dropping = undefined;
        return;
      }
      const turn = e.type === 'conversation.item.input_audio_transcription.completed';
      if (held && !turn) return void held.push(e);
      // A turn the call did not answer (the caller went on) lets its answer through before the next is held.
      release();
      handlers.event(e);
      if (turn && e.transcript.trim()) held = [];
    },
    closed: (error, expected) => {
      held = undefined;
      handlers.closed(error, expected);
    },
  };
}
