import { createHash } from 'node:crypto';
import * as z from 'zod';
import { signToken, verifyToken, type SignedTokenResult } from './signed-token.js';

/**
 * Steering a call while it runs (docs/live-calls.md): the request bodies of `POST /api/calls/{id}/end|say|
 * context|transfer|listen`, the command the API hands the streaming task that holds the call, and the two
 * signed tokens that carry them: the control token (API to streaming service, bound to one call and one
 * command body) and the listen token (a listener's URL, bound to one call).
 */

/** A line to speak; a TTS vendor's one request takes a few thousand characters, a spoken line needs far fewer. */
const SpokenText = z.string().trim().min(1).max(1_000);

/** E.164 (`+` and 8 to 15 digits, ITU-T E.164) or a SIP URI (`sip:` / `sips:` user@host, RFC 3261). */
const TRANSFER_TARGET = /^(\+[1-9]\d{7,14}|sips?:[^\s@<>"]+@[A-Za-z0-9.-]+(:\d{1,5})?(;[^\s<>"]*)?)$/;

export const EndCallRequest = z
  .strictObject({
    /** Said first (interrupting whatever the agent is saying), then the call ends. */
    message: SpokenText.optional(),
  })
  .meta({ id: 'EndCallRequest' });
export type EndCallRequest = z.infer<typeof EndCallRequest>;

export const SayRequest = z
  .strictObject({
    text: SpokenText,
    /** `interrupt`: cut what the agent is saying and speak now. `queue`: speak once the current utterance is over. */
    mode: z.enum(['interrupt', 'queue']).default('queue'),
  })
  .meta({ id: 'SayRequest' });
export type SayRequest = z.infer<typeof SayRequest>;

export const ContextRequest = z
  .strictObject({
    /** Seen by the model from its next turn on, as a system message; never spoken, never in the transcript. */
    message: z.string().trim().min(1).max(4_000),
  })
  .meta({ id: 'ContextRequest' });
export type ContextRequest = z.infer<typeof ContextRequest>;

export const TransferRequest = z
  .strictObject({
    to: z.string().trim().regex(TRANSFER_TARGET, 'to is an E.164 number (+14155550123) or a SIP URI (sip:user@host)'),
    /** As the transfer tool (docs/telephony.md, "Transfer"): `cold` redirects at once, `warm` rings the target with `summary` first. */
    mode: z.enum(['cold', 'warm']).default('cold'),
    /** What a warm transfer's target hears before they choose; defaults to who is calling and their last words. */
    summary: z.string().trim().max(1_500).optional(),
  })
  .meta({ id: 'TransferRequest' });
export type TransferRequest = z.infer<typeof TransferRequest>;

/** What the streaming task is asked to do: one of the control requests, or a read of the call's live state. */
export const LiveCommand = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('end'), message: SpokenText.optional() }),
  z.strictObject({ kind: z.literal('say'), text: SpokenText, mode: z.enum(['interrupt', 'queue']) }),
  z.strictObject({ kind: z.literal('context'), message: z.string().min(1).max(4_000) }),
  z.strictObject({ kind: z.literal('transfer'), to: z.string().regex(TRANSFER_TARGET), mode: z.enum(['cold', 'warm']), summary: z.string().max(1_500).optional() }),
  z.strictObject({ kind: z.literal('status') }),
]);
export type LiveCommand = z.infer<typeof LiveCommand>;

/** One transcript line of a call in progress: what was said (the agent's: what the caller heard so far). */
export const LiveTranscriptEntry = z.object({ role: z.enum(['user', 'agent']), text: z.string() });
export type LiveTranscriptEntry = z.infer<typeof LiveTranscriptEntry>;

/** The owning task's answer to a command. */
export const LiveCommandResult = z.object({
  /** The session's state (`listening`, `thinking`, `speaking`, `transferring`, `ending`, ...). */
  agentState: z.string(),
  transcript: z.array(LiveTranscriptEntry),
  /** The agent now talking (its id and name). */
  agent: z.object({ id: z.string(), name: z.string() }),
  /** True when an `Idempotency-Key` already seen for this call was sent again: nothing was done twice. */
  replayed: z.boolean().optional(),
});
export type LiveCommandResult = z.infer<typeof LiveCommandResult>;

/** What `POST /api/calls/{id}/end|say|context|transfer` answer. */
export const LiveControlResult = z
  .object({
    id: z.string(),
    /** What was done: `ending`, `said` (queued or speaking), `context_added`, `transferring`. */
    status: z.enum(['ending', 'ended', 'speaking', 'queued', 'context_added', 'transferring']),
    replayed: z.boolean().optional(),
  })
  .meta({ id: 'LiveControlResult' });
export type LiveControlResult = z.infer<typeof LiveControlResult>;

/** The listen socket's audio: what `POST /api/calls/{id}/listen` states, so a client need not guess. */
export const ListenFormat = z
  .object({
    encoding: z.literal('pcm_s16le'),
    /** The call's own rate: 8000 for a phone call (Twilio's mu-law, decoded), 16000 for a browser call. */
    sampleRate: z.union([z.literal(8_000), z.literal(16_000)]),
    /** What byte 0 of a binary frame names: channel 0 the other party (the contact), channel 1 the agent. */
    channels: z.tuple([z.literal('caller'), z.literal('agent')]),
    /** Bytes before the samples: u8 channel, 3 bytes zero, u32 LE milliseconds since the call started. */
    headerBytes: z.literal(8),
  });
export type ListenFormat = z.infer<typeof ListenFormat>;

export const ListenResult = z
  .object({
    /** `wss://…/live/listen?token=…`: open it within `expiresAt`; it stays open until the call ends. */
    url: z.string(),
    expiresAt: z.string(),
    format: ListenFormat,
  })
  .meta({ id: 'ListenResult' });
export type ListenResult = z.infer<typeof ListenResult>;

// ---- tokens ----

/** HKDF labels: each token kind its own key, so one can never stand in for another. */
export const CONTROL_TOKEN_KEY_PURPOSE = 'live-control-token/v1';
export const LISTEN_TOKEN_KEY_PURPOSE = 'live-listen-token/v1';

/** The API's request reaches the task within a second; 30 s covers clock skew between Lambda and container. */
export const CONTROL_TOKEN_TTL_SECONDS = 30;
/** A listen URL must be opened within 5 minutes (the socket then lasts as long as the call). */
export const LISTEN_TOKEN_TTL_SECONDS = 300;

const ControlClaims = z.strictObject({
  workspaceId: z.string().min(1).max(64),
  callId: z.string().min(1).max(64),
  /** SHA-256 (base64url) of the command body: a token is good for the one command it was signed for. */
  body: z.string().min(1).max(64),
  exp: z.number().int().positive(),
});
export type ControlClaims = z.infer<typeof ControlClaims>;

const ListenClaims = z.strictObject({
  workspaceId: z.string().min(1).max(64),
  callId: z.string().min(1).max(64),
  exp: z.number().int().positive(),
});
export type ListenClaims = z.infer<typeof ListenClaims>;

export const bodyDigest = (body: string): string => createHash('sha256').update(body, 'utf8').digest('base64url');

export function signControlToken(call: { workspaceId: string; callId: string }, body: string, key: Buffer, nowMs = Date.now()): string {
  return signToken('vct1', ControlClaims, { ...call, body: bodyDigest(body), exp: Math.floor(nowMs / 1000) + CONTROL_TOKEN_TTL_SECONDS }, key);
}

/** Checks the token and that it was signed for exactly `body`. */
export function verifyControlToken(token: string, body: string, key: Buffer | readonly Buffer[], nowMs = Date.now()): SignedTokenResult<ControlClaims> {
  const result = verifyToken('vct1', ControlClaims, token, key, nowMs);
  if (result.ok && result.claims.body !== bodyDigest(body)) return { ok: false, reason: 'bad_signature' };
  return result;
}

export function signListenToken(call: { workspaceId: string; callId: string }, key: Buffer, nowMs = Date.now()): { token: string; exp: number } {
  const exp = Math.floor(nowMs / 1000) + LISTEN_TOKEN_TTL_SECONDS;
  return { token: signToken('vlt1', ListenClaims, { ...call, exp }, key), exp };
}

export const verifyListenToken = (token: string, key: Buffer | readonly Buffer[], nowMs = Date.now()): SignedTokenResult<ListenClaims> =>
  verifyToken('vlt1', ListenClaims, token, key, nowMs);

// ---- the listen socket's frames ----

export const LISTEN_HEADER_BYTES = 8;
export const LISTEN_CHANNEL = { caller: 0, agent: 1 } as const;

/** One binary frame of the listen socket: the header of {@link ListenFormat}, then PCM16 LE samples. */
export function listenFrame(channel: 0 | 1, atMs: number, pcm: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(LISTEN_HEADER_BYTES + pcm.byteLength);
  out.writeUInt32LE(channel, 0);
  out.writeUInt32LE(Math.max(0, Math.min(0xffffffff, Math.round(atMs))), 4);
  Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).copy(out, LISTEN_HEADER_BYTES);
  return out;
}

/** Reads a binary frame back (tests, the dashboard's player does the same in the page). */
export function readListenFrame(frame: Buffer): { channel: number; atMs: number; pcm: Int16Array } {
  const channel = frame.readUInt8(0);
  const atMs = frame.readUInt32LE(4);
  const bytes = frame.subarray(LISTEN_HEADER_BYTES);
  const pcm = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < pcm.length; i += 1) pcm[i] = bytes.readInt16LE(i * 2);
  return { channel, atMs, pcm };
}
