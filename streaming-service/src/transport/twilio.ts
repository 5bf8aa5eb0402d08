import { PHONE_AUDIO } from '../../../lib/vendors/shared/audio-format.js';
import { encodeClear, encodeMark, encodeMedia } from '../codec/twilio.js';
import type { MediaTransport } from './port.js';

/** Twilio Media Streams as the session's transport: mu-law 8 kHz media, marks and clear as JSON messages. */
export function twilioTransport(
  streamSid: string,
  socket: { send(message: string): void; close(code: number, reason: string): void },
): MediaTransport {
  return {
    format: PHONE_AUDIO,
    sendAudio: (audio) => socket.send(encodeMedia(streamSid, audio)),
    sendMark: (name) => socket.send(encodeMark(streamSid, name)),
    clear: () => socket.send(encodeClear(streamSid)),
    // A phone has no screen: captions and states have nowhere to go.
    notify: () => undefined,
    close: (code, reason) => socket.close(code, reason),
  };
}
