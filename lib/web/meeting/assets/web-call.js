/**
 * The browser side of one `/web-stream` socket (docs/meeting.md, "The wire protocol"), shared by the meeting
 * page and the embeddable widget (docs/widget.md): the `hello` with the credential (never in the URL: URLs
 * reach access logs), the agent's audio into the playback engine, server marks queued behind that audio and
 * `clear` for a barge-in. Every other message (`ready`, `caption`, `state`, `ended`, `error`) and the close
 * go to the page, which decides what they mean for it (the meeting rejoins, the widget does not).
 */

export const PCM_FORMAT = { encoding: 'linear16', sampleRate: 16000 };

/**
 * Opens the socket for `session` (`{streamUrl, credential}`), playing into `audio` (an AudioEngine).
 * `handlers.onMessage(message)` and `handlers.onClose(event)` are called only while `handlers.current()`
 * (default: always) says this socket is still the page's: a replaced socket's late events are dropped.
 */
export function openCallSocket(session, audio, handlers) {
  const socket = new WebSocket(session.streamUrl);
  socket.binaryType = 'arraybuffer';
  const current = () => (handlers.current ? handlers.current(socket) : true);
  socket.onopen = () => {
    socket.send(JSON.stringify({ type: 'hello', credential: session.credential, format: PCM_FORMAT }));
  };
  socket.onmessage = (event) => {
    if (!current()) return;
    if (typeof event.data !== 'string') {
      audio.play(event.data);
      return;
    }
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === 'mark') audio.mark(String(message.name));
    else if (message.type === 'clear') audio.clear();
    else handlers.onMessage(message);
  };
  socket.onclose = (event) => {
    if (current()) handlers.onClose(event);
  };
  return socket;
}

/** Sends a control message if the socket is open (a closed one has nothing to tell). */
export function sendControl(socket, message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
