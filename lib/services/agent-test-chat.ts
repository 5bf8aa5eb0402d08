import { WebSocket } from 'ws';
import type { ScriptLine, SeenToolCall } from '../domain/agent-test.js';
import type * as z from 'zod';
import type { ShownLine } from '../domain/agent-test-persona.js';

/**
 * The caller's side of a chat-channel agent test (docs/agent-tests.md): a client of the streaming service's
 * `/web-chat` socket (docs/chat.md), exactly as the widget is, so the agent under test runs its real turn
 * loop, tools, billing and history. It says the script's lines one reply at a time and keeps what came back.
 */

export interface ChatScriptOptions {
  /** The longest wait for one reply: a model with retries and four tool rounds answers well within it. */
  readonly replyTimeoutMs: number;
  /** The longest wait for `ready` after `hello` (the service admits within its own 10 s hello window). */
  readonly readyTimeoutMs: number;
}

export const DEFAULT_CHAT_SCRIPT_OPTIONS = { replyTimeoutMs: 60_000, readyTimeoutMs: 10_000 } as const satisfies ChatScriptOptions;

/** What the caller saw of the chat. */
export interface ChatPlayed {
  /** `user:` and `agent:` lines in order, as the page showed them. */
  readonly lines: readonly { role: 'user' | 'agent'; text: string }[];
  readonly toolCalls: readonly SeenToolCall[];
  readonly handoff: boolean;
  /** The `ended` reason, or `customer_hangup` when the script ended the chat. */
  readonly endReason: string;
  /** Per answered line: ms from the line sent to the reply's first words (null when no reply came). */
  readonly firstWordsMs: readonly (number | null)[];
  /** Socket errors the chat answered with (`reply_failed`, `insufficient_credits`, ...). */
  readonly errors: readonly string[];
}

type Frame = { type: string; [k: string]: unknown };
type Line = z.infer<typeof ScriptLine>;

/** Who says the caller's lines: a script, or a caller that writes each from the conversation so far (a model persona). */
export interface Caller {
  /** The next line, or undefined when the caller hangs up; `shown` is the conversation so far. */
  next(shown: readonly ShownLine[]): Promise<Line | undefined>;
}

/**
 * Plays `lines` (a script's, or a {@link Caller}'s) on the chat socket. `greetingReplies` is 1 when the agent writes its greeting with the model
 * (a reply arrives before any line); every line then gets exactly one `reply` or one `error`.
 */
export async function playChatScript(
  chatUrl: string,
  credential: string,
  lines: readonly Line[] | Caller,
  greetingReplies: number,
  options: Partial<ChatScriptOptions> = {},
): Promise<ChatPlayed> {
  const opts = { ...DEFAULT_CHAT_SCRIPT_OPTIONS, ...options };
  const ws = new WebSocket(chatUrl);
  const inbox: Frame[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  ws.on('message', (data) => {
    try {
      inbox.push(JSON.parse(data.toString()) as Frame);
    } catch {
      return;
    }
    wake?.();
  });
  ws.on('close', () => {
    closed = true;
    wake?.();
  });
  ws.on('error', () => {
    closed = true;
    wake?.();
  });

  /** The next frame, or undefined when the socket closed or the wait ran out. */
  const next = async (deadline: number): Promise<Frame | undefined> => {
    for (;;) {
      const f = inbox.shift();
      if (f) return f;
      if (closed || Date.now() >= deadline) return undefined;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  const shown: { role: 'user' | 'agent'; text: string }[] = [];
  const toolCalls: SeenToolCall[] = [];
  const firstWordsMs: (number | null)[] = [];
  const errors: string[] = [];
  let handoff = false;
  let endReason: string | undefined;

  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'hello', credential }));
  const ready = await next(Date.now() + opts.readyTimeoutMs);
  if (ready?.type !== 'ready') {
    ws.close();
    throw new Error(`the chat did not open: ${ready ? JSON.stringify(ready) : 'no answer'}`);
  }
  for (const m of (ready.messages as { role: 'user' | 'agent'; text: string }[] | undefined) ?? []) shown.push(m);

  /** Waits for one reply (or refusal); returns ms to its first words, or null. */
  const awaitReply = async (sentAt: number | undefined): Promise<number | null> => {
    const deadline = Date.now() + opts.replyTimeoutMs;
    let first: number | null = null;
    let replied = false;
    for (;;) {
      const f = await next(deadline);
      if (!f) {
        if (!endReason) errors.push(closed ? 'the chat socket closed' : `no reply within ${opts.replyTimeoutMs} ms`);
        return first;
      }
      if (f.type === 'delta' && first === null && sentAt !== undefined) first = Date.now() - sentAt;
      // Another agent took the chat over (docs/handoffs.md): a hand-off as much as one to a person.
      if (f.type === 'agent') handoff = true;
      if (f.type === 'reply') {
        if (first === null && sentAt !== undefined) first = Date.now() - sentAt;
        if (typeof f.text === 'string' && f.text) shown.push({ role: 'agent', text: f.text });
        if (f.handoff === true) handoff = true;
        for (const c of (f.toolCalls as SeenToolCall[] | undefined) ?? []) toolCalls.push(c);
        replied = true;
        continue;
      }
      // After a reply the chat says `listening`, or ends it (end-call): either way the turn is over.
      if (f.type === 'state' && f.state === 'listening' && replied) return first;
      if (f.type === 'error') {
        errors.push(String(f.code));
        // A failed reply still sends its (partial) reply and `listening`; a refused line sends nothing more.
        if (f.code !== 'reply_failed') return first;
      }
      if (f.type === 'ended') {
        endReason = String(f.reason);
        return first;
      }
    }
  };

  for (let i = 0; i < greetingReplies && !endReason; i += 1) await awaitReply(undefined);
  let said = 0;
  const caller: Caller = 'next' in lines ? lines : { next: async () => lines[said++] };
  while (!endReason && !closed) {
    const line = await caller.next(shown);
    if (!line || endReason || closed) break;
    if (line.delayMs > 0) await new Promise((r) => setTimeout(r, line.delayMs));
    shown.push({ role: 'user', text: line.text });
    const sentAt = Date.now();
    ws.send(JSON.stringify({ type: 'message', text: line.text }));
    firstWordsMs.push(await awaitReply(sentAt));
  }
  if (!endReason && !closed) {
    ws.send(JSON.stringify({ type: 'end' }));
    const deadline = Date.now() + opts.readyTimeoutMs;
    for (let f = await next(deadline); f; f = await next(deadline)) {
      if (f.type === 'ended') {
        endReason = String(f.reason);
        break;
      }
    }
  }
  ws.close();
  return { lines: shown, toolCalls, handoff, endReason: endReason ?? 'error', firstWordsMs, errors };
}
