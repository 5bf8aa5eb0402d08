import { WebSocketServer, type WebSocket } from 'ws';
import { verifyStreamToken, type StreamTokenClaims } from '../../../lib/domain/stream-token.js';
import { Refusal, admitSocket, type Ticket } from '../admission.js';
import { decodeTwilio, type InboundEvent } from '../codec/twilio.js';
import type { CallSession } from '../session/call-session.js';
import { twilioTransport } from '../transport/twilio.js';
import { INTERNAL_ERROR, POLICY_VIOLATION, type ClaimedCall, type SocketContext, type SocketKind, type StreamingEnvironment } from '../service.js';
import type { RunCall } from './call-runner.js';

/**
 * Twilio Media Streams sockets (`/media-stream`): a stream becomes a call only with a valid signed stream
 * token in `start.customParameters.token` whose call sid matches the stream's, and only if it is the first
 * stream to claim the token's call. Before `start` nothing is processed: no audio reaches a vendor.
 */

type Start = Extract<InboundEvent, { kind: 'start' }>;

export interface TwilioMediaContext extends SocketContext {
  readonly run: RunCall;
  /** Holds a shutdown until a stream being admitted has become a call (and ended). */
  admitting(admission: Promise<unknown>): void;
  readonly maxPayload: number;
}

/** Messages that arrive while the call is being set up (tens of ms) are kept, up to ~10 s of audio. */
const MAX_EARLY_MESSAGES = 500;

/** Why a stream token does not admit its stream. */
export type StreamTokenCheck =
  | { readonly ok: true; readonly claims: StreamTokenClaims }
  | { readonly ok: false; readonly reason: 'missing_token' | 'malformed' | 'bad_signature' | 'expired' | 'call_mismatch' };

/** The stream token of a `start`, checked: signed by us, unexpired, and issued for this very call. */
export function checkStreamToken(start: Start, tokenKey: Buffer | readonly Buffer[], nowMs: number = Date.now()): StreamTokenCheck {
  const token = start.customParameters.token;
  if (!token) return { ok: false, reason: 'missing_token' };
  const verified = verifyStreamToken(token, tokenKey, nowMs);
  if (!verified.ok) return verified;
  // A token is bound to the call it was issued for: replaying it on another call's stream is refused.
  if (verified.claims.callSid !== start.callSid) return { ok: false, reason: 'call_mismatch' };
  return { ok: true, claims: verified.claims };
}

/** A stream's call: what its verified token names (ids only) and what the store holds of the call. */
type StreamCall = ClaimedCall & Pick<StreamTokenClaims, 'callSid'>;

/**
 * A stream's ticket: its `start` names the call, the store says what the call is, and the table's claim,
 * last, makes it the call's one stream (so a stream whose setup fails does not use up its call).
 */
const streamTicket = (start: Start, gone: () => boolean): Ticket<StreamingEnvironment, StreamCall, { maxDurationSeconds: number }> => {
  const claims = new WeakMap<StreamCall, StreamTokenClaims>();
  return {
    unavailable: new Refusal(INTERNAL_ERROR, 'service unavailable'),
    async verify(e) {
      const checked = checkStreamToken(start, e.tokenKey);
      if (!checked.ok) return new Refusal(POLICY_VIOLATION, `stream token ${checked.reason}`);
      const call = await e.streamCall(checked.claims);
      // No live call of that id: as when its one stream was already claimed.
      if (!call) return new Refusal(POLICY_VIOLATION, 'stream token already_used');
      const ref: StreamCall = { ...call, callSid: checked.claims.callSid };
      claims.set(ref, checked.claims);
      return ref;
    },
    ids: () => start,
    failed: () => new Refusal(INTERNAL_ERROR, 'call setup failed'),
    gone,
    claim: async (e, call) => (await e.claim(claims.get(call)!, start)) ?? new Refusal(POLICY_VIOLATION, 'stream token already_used'),
  };
};

export function createTwilioMedia(ctx: TwilioMediaContext): SocketKind {
  const wss = new WebSocketServer({ noServer: true, maxPayload: ctx.maxPayload });

  const refuse = (ws: WebSocket, r: Refusal) => {
    ctx.refused(r.reason);
    ws.close(r.code, r.reason);
  };

  const dispatch = (s: CallSession, ev: InboundEvent) => {
    const atMs = performance.now();
    switch (ev.kind) {
      case 'media':
        if (ev.track === 'inbound') s.push({ kind: 'caller_audio', audio: ev.audio, timestampMs: ev.timestampMs, atMs });
        return;
      case 'mark':
        return s.push({ kind: 'mark_echo', name: ev.name, atMs });
      case 'dtmf':
        return s.push({ kind: 'dtmf', digit: ev.digit, atMs });
      case 'stop':
        return s.end('stop');
      default:
        return;
    }
  };

  wss.on('connection', (ws: WebSocket) => {
    let session: CallSession | undefined;
    let starting = false;
    let closed = false;
    const early: InboundEvent[] = [];
    const startTimer = setTimeout(() => {
      if (!starting) refuse(ws, new Refusal(POLICY_VIOLATION, 'no start message'));
    }, ctx.greetingTimeoutMs);

    const begin = async (start: Start) => {
      const admitted = await admitSocket(ctx.env, streamTicket(start, () => closed));
      if (!admitted) return;
      if (admitted instanceof Refusal) return refuse(ws, admitted);
      const transport = twilioTransport(start.streamSid, {
        send: (m) => {
          if (ws.readyState === ws.OPEN) ws.send(m);
        },
        close: (code, reason) => ws.close(code, reason),
      });
      const { e, setup, services, claimed, claims } = admitted;
      const s = ctx.run(e, setup, services, transport, claimed.maxDurationSeconds, claims);
      session = s;
      // The caller hung up while the claim was being written: end at once, so the claim is settled.
      if (closed) s.end('socket_closed');
      for (const ev of early.splice(0)) dispatch(s, ev);
    };

    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const ev = decodeTwilio(data.toString());
      if (!ev) return;
      if (session) return dispatch(session, ev);
      if (!starting) {
        if (ev.kind === 'start') {
          starting = true;
          clearTimeout(startTimer);
          ctx.admitting(begin(ev));
        }
        return;
      }
      if (early.length < MAX_EARLY_MESSAGES) early.push(ev);
    });
    ws.on('close', () => {
      closed = true;
      clearTimeout(startTimer);
      session?.end('socket_closed');
    });
    ws.on('error', () => undefined);
  });

  // Its calls are the call runner's: the server ends them.
  return { wss, close: () => undefined };
}
