import { z } from 'zod';

/**
 * Twilio Media Streams messages <-> typed values, in one pure module (STYLE 7). Inbound messages are
 * validated with zod (external data); outbound ones are built as plain objects on the hot path.
 */

const numericString = z.string().regex(/^\d+$/);

const Connected = z.object({ event: z.literal('connected'), protocol: z.string(), version: z.string() });
const Start = z.object({
  event: z.literal('start'),
  sequenceNumber: numericString,
  streamSid: z.string(),
  start: z.object({
    accountSid: z.string(),
    streamSid: z.string(),
    callSid: z.string(),
    tracks: z.array(z.string()),
    customParameters: z.record(z.string(), z.string()).default({}),
    mediaFormat: z.object({ encoding: z.string(), sampleRate: z.number(), channels: z.number() }),
  }),
});
const Media = z.object({
  event: z.literal('media'),
  sequenceNumber: numericString,
  streamSid: z.string(),
  media: z.object({
    track: z.string().default('inbound'),
    chunk: numericString,
    timestamp: numericString,
    payload: z.string(),
  }),
});
const Mark = z.object({
  event: z.literal('mark'),
  sequenceNumber: numericString.optional(),
  streamSid: z.string(),
  mark: z.object({ name: z.string() }),
});
const Dtmf = z.object({
  event: z.literal('dtmf'),
  streamSid: z.string(),
  sequenceNumber: numericString.optional(),
  dtmf: z.object({ track: z.string(), digit: z.string() }),
});
const Stop = z.object({
  event: z.literal('stop'),
  sequenceNumber: numericString.optional(),
  streamSid: z.string(),
  stop: z.object({ accountSid: z.string(), callSid: z.string() }),
});

export const TwilioInbound = z.discriminatedUnion('event', [Connected, Start, Media, Mark, Dtmf, Stop]);
export type TwilioInbound = z.infer<typeof TwilioInbound>;

/** What the stream tells us, decoded; media payloads become bytes. */
export type InboundEvent =
  | { readonly kind: 'connected' }
  | {
      readonly kind: 'start';
      readonly streamSid: string;
      readonly callSid: string;
      readonly accountSid: string;
      readonly customParameters: Readonly<Record<string, string>>;
      readonly encoding: string;
      readonly sampleRate: number;
    }
  | { readonly kind: 'media'; readonly audio: Uint8Array; readonly timestampMs: number; readonly track: string }
  | { readonly kind: 'mark'; readonly name: string }
  | { readonly kind: 'dtmf'; readonly digit: string }
  | { readonly kind: 'stop'; readonly callSid: string };

/**
 * Parses one text frame. Media frames take a fast path (they are 50 a second per call and their shape is
 * checked field by field); others go through the zod schema. Returns undefined for anything malformed.
 */
export function decodeTwilio(text: string): InboundEvent | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const m = raw as { event?: unknown; media?: { payload?: unknown; timestamp?: unknown; track?: unknown } };
  if (m?.event === 'media' && typeof m.media?.payload === 'string' && typeof m.media.timestamp === 'string') {
    return {
      kind: 'media',
      audio: base64Bytes(m.media.payload),
      timestampMs: Number(m.media.timestamp),
      track: typeof m.media.track === 'string' ? m.media.track : 'inbound',
    };
  }
  const parsed = TwilioInbound.safeParse(raw);
  if (!parsed.success) return undefined;
  const msg = parsed.data;
  switch (msg.event) {
    case 'connected':
      return { kind: 'connected' };
    case 'start':
      return {
        kind: 'start',
        streamSid: msg.start.streamSid,
        callSid: msg.start.callSid,
        accountSid: msg.start.accountSid,
        customParameters: msg.start.customParameters,
        encoding: msg.start.mediaFormat.encoding,
        sampleRate: msg.start.mediaFormat.sampleRate,
      };
    case 'media':
      return {
        kind: 'media',
        audio: base64Bytes(msg.media.payload),
        timestampMs: Number(msg.media.timestamp),
        track: msg.media.track,
      };
    case 'mark':
      return { kind: 'mark', name: msg.mark.name };
    case 'dtmf':
      return { kind: 'dtmf', digit: msg.dtmf.digit };
    case 'stop':
      return { kind: 'stop', callSid: msg.stop.callSid };
  }
}

/**
 * A base64 payload's bytes, as a plain Uint8Array over the memory Buffer decoded them into (Node's shared
 * pool for a media frame's 160 bytes): a copy into an ArrayBuffer of its own would cost every frame of every
 * call an allocation the garbage collector then tracks.
 */
function base64Bytes(payload: string): Uint8Array {
  const bytes = Buffer.from(payload, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Outbound audio: raw mu-law 8 kHz, base64, no header. Written as a template (base64 never needs escaping)
 * rather than stringified from an object: the same text for a fraction of the work, for every message of
 * agent audio.
 */
export const encodeMedia = (streamSid: string, mulaw: Uint8Array): string =>
  `{"event":"media","streamSid":${JSON.stringify(streamSid)},"media":{"payload":"${Buffer.from(mulaw.buffer, mulaw.byteOffset, mulaw.byteLength).toString('base64')}"}}`;

/** A mark Twilio echoes once the audio sent before it has played. */
export const encodeMark = (streamSid: string, name: string): string =>
  JSON.stringify({ event: 'mark', streamSid, mark: { name } });

/** Drops Twilio's buffered audio; every outstanding mark is then echoed. */
export const encodeClear = (streamSid: string): string => JSON.stringify({ event: 'clear', streamSid });
