import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { WebSocketServer, type WebSocket } from 'ws';
import { describeError, log } from '../../lib/observability/log.js';
import { verifyWebSession } from '../../lib/domain/web-session-token.js';
import { ChatSession, type ChatNotice, type ChatOptions, type ChatSink } from './chat/chat-session.js';
import type { CallSetup, SessionServices } from './call/types.js';
import { REFUSED, UNAVAILABLE, awaitHello, loadBrowserSetup, refuser } from './transport/hello.js';
import type { StreamingEnvironment } from './server.js';

/**
 * Text chats on the streaming service (`/web-chat`, docs/chat.md): the same handshake as a browser call (a
 * `hello` with the chat's `wss1` credential), then JSON both ways: the visitor's `message`s in, the agent's
 * `delta`s and `reply` out. A chat outlives its page's socket for a grace period, so the same tab (same
 * credential) comes back after a reload and gets the conversation so far in `ready`.
 */

export interface WebChatsContext {
  env(): Promise<StreamingEnvironment>;
  refused(reason: string): void;
  /** Told once per chat after its history record was written (or writing failed). */
  ended(chatId: string, error?: unknown): void;
  /** Holds the process's shutdown until the chat's record is written. */
  track(done: Promise<unknown>): void;
  readonly helloTimeoutMs: number;
  readonly rejoinGraceMs: number;
  readonly options?: Partial<ChatOptions>;
}

export interface WebChats {
  readonly wss: WebSocketServer;
  readonly active: number;
  close(): void;
}

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

export function createWebChats(ctx: WebChatsContext): WebChats {
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

  const begin = async (ws: WebSocket, credential: string) => {
    let e: StreamingEnvironment;
    try {
      e = await ctx.env();
    } catch {
      return refuse(ws, UNAVAILABLE, 'unavailable', 'The chat service is unavailable. Try again in a moment.');
    }
    if (!e.web || !e.chat) return refuse(ws, UNAVAILABLE, 'unavailable', 'Chats are not available here.');
    const verified = verifyWebSession(credential, e.web.key);
    if (!verified.ok) return refuse(ws, REFUSED, 'bad_credential', 'This chat session is not valid. Start a new chat.');
    const claims = verified.claims;
    const existing = live.get(claims.callId);
    if (existing) {
      if (existing.sessionId !== claims.sessionId) return refuse(ws, REFUSED, 'already_connected', 'This chat is open somewhere else.');
      return attach(ws, existing, true);
    }
    const ready = await loadBrowserSetup(ws, refuse, e, claims, { callSid: `chat-${claims.sessionId}`, streamSid: `WC${randomBytes(16).toString('hex')}` });
    if (!ready) return;
    const { setup, services } = ready;
    if (ws.readyState !== ws.OPEN) return;
    if (live.has(claims.callId)) return refuse(ws, REFUSED, 'already_connected', 'This chat is already open in another window.');
    let maxSeconds: number | undefined;
    try {
      maxSeconds = await e.chat.claim(claims);
    } catch (error) {
      log('warn', 'chat claim failed', { callId: claims.callId, ...describeError(error) });
      return refuse(ws, UNAVAILABLE, 'unavailable', 'The chat service is unavailable. Try again in a moment.');
    }
    if (maxSeconds === undefined) return refuse(ws, REFUSED, 'ended', 'This chat has ended.');
    // Another socket of the same tab may have set the chat up while the claim was written.
    const chat = live.get(claims.callId) ?? start(e, setup, services, claims.sessionId, maxSeconds);
    if (ws.readyState === ws.OPEN) attach(ws, chat, false);
    else if (!chat.sink.socket && !chat.graceTimer) awaitReturn(chat);
  };

  wss.on('connection', (ws: WebSocket) => awaitHello(ws, ctx.helloTimeoutMs, refuse, (credential) => void begin(ws, credential)));

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
