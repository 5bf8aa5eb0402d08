import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { HistoryRecord } from '../../lib/domain/history.js';
import type { StreamTokenClaims } from '../../lib/domain/stream-token.js';
import type { WebSessionClaims } from '../../lib/domain/web-session-token.js';
import type { MeetingClaim } from '../../lib/services/meetings.js';
import type { CallLoader, CallRef, UpgradeLimit } from './admission.js';
import type { ChatOptions, ChatOutcome } from './chat/chat-session.js';
import type { InboundEvent } from './codec/twilio.js';
import type { VoiceHistoryRecord } from '../../lib/domain/call-record.js';
import type { CallSession } from './session/call-session.js';
import type { CallOutcome, CallSetup, SessionOptions, SessionServices } from './call/types.js';

/**
 * The streaming service's contract: what it is given (options, the platform's environment), what it offers
 * and reports (the server's interface, its events), and what the socket kinds are given. Shared by the server
 * (the router) and the socket kinds it routes to, so that neither imports the other.
 */

/** The keys a live call's stream is known by in the table (heartbeat, settlement). */
export interface CallKey {
  readonly workspaceId: string;
  readonly callId: string;
}

/** The call a stream is for, as the store holds it: its agent, contact, other party and our number. */
export type ClaimedCall = CallRef & { readonly numberId?: string };

/** What the server needs from the platform, built once (lazily, on the first stream). */
export interface StreamingEnvironment {
  /** HMAC keys of stream tokens (derived from the platform's data key, one per version it holds). */
  readonly tokenKey: Buffer | readonly Buffer[];
  readonly loader: CallLoader;
  /**
   * The call a verified stream token names, read from the store (the token carries only its ids): its
   * agent, contact, other party and our number; undefined when there is no such call.
   */
  streamCall(claims: StreamTokenClaims): Promise<ClaimedCall | undefined>;
  /**
   * Claims the token's call for this stream, once (a conditional write shared by every container): the
   * longest the call may last, or undefined when a stream was already admitted for it or it has ended.
   */
  claim(claims: StreamTokenClaims, start: Extract<InboundEvent, { kind: 'start' }>): Promise<{ maxDurationSeconds: number } | undefined>;
  /**
   * Records that the claimed stream is still running (the sweep settles streams that stop beating: a
   * container that died). False once the call was settled while the stream ran: the sweep took it for dead.
   */
  heartbeat(call: CallKey, streamSid: string): Promise<boolean>;
  /**
   * Vendor providers and telephony for one call's agent. Telephony only for a call on one of our numbers
   * (`numberId`); a browser call has no phone line to transfer or hang up.
   */
  services(setup: CallSetup, numberId?: string): SessionServices | Promise<SessionServices>;
  /** Writes the history record (and recording) of a finished call. */
  finalize(outcome: CallOutcome, services: SessionServices): Promise<VoiceHistoryRecord>;
  /** The browser transport (docs/meeting.md); without it `/web-stream` refuses every socket. */
  readonly web?: {
    /** HMAC keys of web session credentials (one per data-key version). */
    readonly key: Buffer | readonly Buffer[];
    /** Claims the call for its first browser socket and reserves its credits, in one write. */
    claim(claims: WebSessionClaims, streamSid: string): Promise<MeetingClaim>;
  };
  /**
   * Live call control and listening (docs/live-calls.md); without it `/live/control` and `/live/listen`
   * refuse every request.
   */
  readonly live?: {
    /** HMAC keys of control tokens and of listen tokens (one per data-key version). */
    readonly controlKey: readonly Buffer[];
    readonly listenKey: readonly Buffer[];
    /** Records this task (its internal address) as the holder of the call's stream. */
    hold(call: CallKey, streamSid: string, host: string): Promise<void>;
    /** The internal address of the task holding the call's stream, when one was recorded. */
    holder(call: CallKey): Promise<string | undefined>;
  };
  /** Text chats (docs/chat.md); they verify their credentials with `web.key`. Without it `/web-chat` refuses. */
  readonly chat?: {
    /** Claims a chat for its first socket, once: its longest duration, or undefined when it was claimed before, ended or is not a chat. */
    claim(claims: WebSessionClaims): Promise<number | undefined>;
    /** Charges the chat's `n`th visitor message (once per `n`); false when the workspace cannot pay. */
    charge(chat: CallKey, n: number): Promise<boolean>;
    /** Writes the chat's history record (transcript, summary, cost). */
    finalize(outcome: ChatOutcome, services: SessionServices): Promise<HistoryRecord>;
  };
}

/** How the server is built (streaming-service/src/main.ts in the container, local.ts under `npm start`). */
export interface StreamingServerOptions {
  readonly environment: () => Promise<StreamingEnvironment>;
  readonly session?: Partial<SessionOptions>;
  /**
   * Twilio sends `start` right after `connected`; a socket that has not started within 10 s is not
   * Twilio, and holding it open costs a slot.
   */
  readonly startTimeoutMs?: number;
  readonly path?: string;
  /** The browser transport's path (docs/meeting.md). */
  readonly webPath?: string;
  /** The text chats' path (docs/chat.md). */
  readonly chatPath?: string;
  /** How long a chat whose page went away waits for the same tab to come back (2 minutes). */
  readonly chatRejoinGraceMs?: number;
  readonly chat?: Partial<ChatOptions>;
  /** How long a browser call whose page went away waits for the same tab to rejoin (30 s). */
  readonly webRejoinGraceMs?: number;
  /** Upgrades per client IP (RATE_LIMIT_MEDIA_STREAM), for every socket kind (admission.ts, upgradeGate). */
  readonly upgradeLimit?: UpgradeLimit;
  /**
   * This task's internal address as the other tasks reach it (`http://10.0.1.23:8080`): recorded on each
   * call it holds, so control requests and listeners reaching another task are forwarded here. Unset when
   * one process holds every call (`npm start`).
   */
  readonly internalUrl?: string;
  /** How often a live stream's heartbeat is written; STREAM_HEARTBEAT_MS (lib/domain/call.ts: the sweep's grace is 3 of them). */
  readonly heartbeatMs?: number;
}


/** Emitted once per admitted call, after its history record was written (or writing failed). */
export interface CallEnded {
  readonly callId: string;
  readonly outcome: CallOutcome;
  readonly record?: VoiceHistoryRecord;
  readonly error?: unknown;
}

/** The streaming service (server.ts builds it): what main.ts, local.ts and the tests drive. */
export interface StreamingServer {
  /** Takes an HTTP upgrade for the media-stream path; false when the path is not ours. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Serves `GET /health`; false for any other request. */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** Adds the upgrade handler to an existing HTTP server (the local platform shares its origin). */
  attach(server: Server): void;
  /** Runs on its own port (the container). */
  listen(port: number, host?: string): Promise<{ port: number; server: Server }>;
  readonly activeSessions: number;
  readonly sessions: ReadonlySet<CallSession>;
  onCallEnded(listener: (event: CallEnded) => void): () => void;
  /** Emitted once per chat, after its history record was written (or writing failed). */
  onChatEnded(listener: (event: { chatId: string; error?: unknown }) => void): () => void;
  /** Chats running in this process. */
  readonly activeChats: number;
  /** Refused streams, with the reason (tests and logs). */
  onRefused(listener: (event: { reason: string }) => void): () => void;
  /**
   * Stops admitting streams (upgrades get 503, health reports `draining`) and waits up to `timeoutMs` for
   * calls in progress to end on their own; then closes.
   */
  drain(timeoutMs: number): Promise<void>;
  /** Refuses new streams (503), ends every call now (reason `error`), waits for their history, and stops. */
  close(): Promise<void>;
}

/** WebSocket close code 1008: policy violation (no or bad stream token). */
export const POLICY_VIOLATION = 1008;
/** WebSocket close code 1011: we could not set the call up. */
export const INTERNAL_ERROR = 1011;

/** What every socket kind is given by the server. */
export interface SocketContext {
  /** The platform's environment, built on the first socket (a failure is retried by the next one). */
  env(): Promise<StreamingEnvironment>;
  /** Told of every refused socket, with the reason (the server's `refused` event). */
  refused(reason: string): void;
  /** How long a socket may take to say who it is (Twilio's `start`, a page's `hello`) before it is refused. */
  readonly greetingTimeoutMs: number;
}

/** One kind of socket the server routes an upgrade path to (a Twilio media stream, a browser call, a chat). */
export interface SocketKind {
  /** Its WebSocket server: the router hands it the upgrade, and terminates and closes it at shutdown. */
  readonly wss: WebSocketServer;
  /** Shutdown: ends what this kind holds that outlives its sockets (grace timers, chats). */
  close(): void;
}
