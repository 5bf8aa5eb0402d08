import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { WebSocketServer, type WebSocket } from 'ws';
import { describeError, log } from '../../../lib/observability/log.js';
import { verifyWebSession, type WebSessionClaims } from '../../../lib/domain/web-session-token.js';
import { Refusal, admitSocket, type Ticket } from '../admission.js';
import { ChatSession, type ChatNotice, type ChatOptions, type ChatSink } from '../chat/chat-session.js';
import type { CallSetup, SessionServices } from '../call/types.js';
import type { SocketContext, SocketKind, StreamingEnvironment } from '../service.js';
import { REFUSED, UNAVAILABLE, awaitHello, refuser, setupFailed } from './hello.js';

/**
 * Text chats on the streaming service (`/web-chat`, docs/chat.md): the same handshake as a browser call (a
 * `hello` with the chat's `wss1` credential), then JSON both ways: the visitor's `message`s in, the agent's
 * `delta`s and `reply` out. A chat outlives its page's socket for a grace period, so the same tab (same
 * credential) comes back after a reload and gets the conversation so far in `ready`.
 */

export interface ChatContext extends SocketContext {
  /** Told once per chat after its history record was written (or writing failed). */
  ended(chatId: string, error?: unknown): void;
  /** Holds the process's shutdown until the chat's record is written. */
  track(done: Promise<unknown>): void;
  readonly rejoinGraceMs: number;
  readonly options?: Partial<ChatOptions>;
}

export interface Chats extends SocketKind {
  /** Chats running in this process. */
  readonly active: number;
}

const CHAT_UNAVAILABLE = new Refusal(UNAVAILABLE, 'unavailable', 'The chat service is unavailable. Try again in a moment.');

/** A chat frame: a visitor message is at most a few KB (the session refuses long ones with a clear error). */
const MAX_CHAT_FRAME_BYTES = 16 * 1024;

const ChatMessage = z.discriminatedUnion('type', [z.object({ type: z.literal('message'), text: z.string() }), z.object({ type: z.literal('end') })]);

const decodeChatMessage = (text: string): z.infer<typeof ChatMessage> | undefined => {
  try {
    const parsed = ChatMessage.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

/** The chat's side of its page: the socket attached now (a reload replaces it), or none. */
class PageSink implements ChatSink {
  socket: WebSocket | undefined;

  send(notice: ChatNotice): void {
    const ws = this.socket;
    if (ws && ws.readyState === ws.OPEN) ws.send(JSON.stringify(notice));
  }

  close(code: number, reason: string): void {
    this.socket?.close(code, reason);
  }
}

interface LiveChat {
  readonly sessionId: string;
  readonly session: ChatSession;
  readonly sink: PageSink;
  graceTimer?: NodeJS.Timeout;
}

export function createChats(ctx: ChatContext): Chats {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CHAT_FRAME_BYTES });
  const live = new Map<string, LiveChat>();
  const refuse = refuser(ctx.refused);

  /** Attaches a page's socket: `ready` with the conversation so far, then everything new. */
  const attach = (ws: WebSocket, chat: LiveChat, resumed: boolean) => {
    if (chat.graceTimer) clearTimeout(chat.graceTimer);
    chat.graceTimer = undefined;
    const { setup } = chat.session;
    ws.send(JSON.stringify({ type: 'ready', chatId: setup.callId, agentName: setup.agent.name, resumed, messages: chat.session.lines() }));
    const previous = chat.sink.socket;
    chat.sink.socket = ws;
    if (previous && previous !== ws) {
      previous.send(JSON.stringify({ type: 'error', code: 'replaced', message: 'This chat continued in another window.' }));
      previous.close(REFUSED, 'replaced');
    }
    ws.on('message', (data, isBinary) => {
      if (chat.sink.socket !== ws || isBinary) return;
      const msg = decodeChatMessage(data.toString());
      if (msg?.type === 'message') chat.session.receive(msg.text);
      else if (msg?.type === 'end') chat.session.end('customer_hangup');
    });
    ws.on('close', () => {
      if (chat.sink.socket !== ws) return;
      chat.sink.socket = undefined;
      awaitReturn(chat);
    });
  };

  /** The page went away without ending the chat: it waits for the same tab to come back. */
  const awaitReturn = (chat: LiveChat) => {
    chat.graceTimer = setTimeout(() => chat.session.end('customer_hangup'), ctx.rejoinGraceMs);
    chat.graceTimer.unref?.();
  };

  const start = (e: StreamingEnvironment, setup: CallSetup, services: SessionServices, sessionId: string, maxSeconds: number): LiveChat => {
    const sink = new PageSink();
    const key = { workspaceId: setup.workspaceId, callId: setup.callId };
    const session = new ChatSession({ ...setup, startedAt: Date.now() }, services, sink, (n) => e.chat!.charge(key, n), {
      ...ctx.options,
      maxDurationMs: Math.min(ctx.options?.maxDurationMs ?? Number.POSITIVE_INFINITY, maxSeconds * 1000),
    });
    const chat: LiveChat = { sessionId, session, sink };
    live.set(setup.callId, chat);
    session.start();
    const done = session.ended.then(async (outcome) => {
      if (chat.graceTimer) clearTimeout(chat.graceTimer);
      live.delete(setup.callId);
      try {
        await e.chat!.finalize(outcome, services);
        ctx.ended(setup.callId);
      } catch (error) {
        log('error', 'chat history write failed', { callId: setup.callId, ...describeError(error) });
        ctx.ended(setup.callId, error);
      }
    });
    ctx.track(done);
    return chat;
  };

  /** A page's ticket: its `hello` credential names the chat, the table's claim makes it the chat's one. */
  const ticket = (ws: WebSocket, credential: string): Ticket<StreamingEnvironment, WebSessionClaims, number> => ({
    unavailable: CHAT_UNAVAILABLE,
    verify(e) {
      if (!e.web || !e.chat) return new Refusal(UNAVAILABLE, 'unavailable', 'Chats are not available here.');
      const verified = verifyWebSession(credential, e.web.key);
      return verified.ok ? verified.claims : new Refusal(REFUSED, 'bad_credential', 'This chat session is not valid. Start a new chat.');
    },
    rejoin(claims) {
      const existing = live.get(claims.callId);
      if (!existing) return false;
      if (existing.sessionId !== claims.sessionId) return new Refusal(REFUSED, 'already_connected', 'This chat is open somewhere else.');
      attach(ws, existing, true);
      return true;
    },
    ids: (claims) => ({ callSid: `chat-${claims.sessionId}`, streamSid: `WC${randomBytes(16).toString('hex')}` }),
    failed(stage, error, claims) {
      if (stage === 'setup') return setupFailed(claims, error);
      log('warn', 'chat claim failed', { callId: claims.callId, ...describeError(error) });
      return CHAT_UNAVAILABLE;
    },
    gone: () => ws.readyState !== ws.OPEN,
    async claim(e, claims) {
      if (live.has(claims.callId)) return new Refusal(REFUSED, 'already_connected', 'This chat is already open in another window.');
      return (await e.chat!.claim(claims)) ?? new Refusal(REFUSED, 'ended', 'This chat has ended.');
    },
  });

  const begin = async (ws: WebSocket, credential: string) => {
    const admitted = await admitSocket(ctx.env, ticket(ws, credential));
    if (!admitted) return;
    if (admitted instanceof Refusal) return refuse(ws, admitted);
    const { e, claims, setup, services, claimed: maxSeconds } = admitted;
    // Another socket of the same tab may have set the chat up while the claim was written.
    const chat = live.get(claims.callId) ?? start(e, setup, services, claims.sessionId, maxSeconds);
    if (ws.readyState === ws.OPEN) attach(ws, chat, false);
    else if (!chat.sink.socket && !chat.graceTimer) awaitReturn(chat);
  };

  wss.on('connection', (ws: WebSocket) => awaitHello(ws, ctx.greetingTimeoutMs, refuse, (credential) => void begin(ws, credential)));

  return {
    wss,
    get active() {
      return live.size;
    },
    close() {
      for (const chat of live.values()) chat.session.end('error');
    },
  };
}
