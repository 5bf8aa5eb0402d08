/**
 * Invariant: a control token is good only for the call and the exact body it was signed for, and a listen
 * token only for its call, both until they expire; a listen frame carries its channel, time and samples;
 * the tap gives every listener the same frames, drops one that falls behind, and tells late ones the call
 * is over; live control ends a call once however often it is asked, replays an Idempotency-Key, refuses a
 * key reused with another body, refuses a transfer without a phone line and any command once the call is
 * over; a context note reaches the model's messages at its place, never the transcript.
 */
import { describe, expect, it } from 'vitest';
import {
  listenFrame,
  readListenFrame,
  signControlToken,
  signListenToken,
  verifyControlToken,
  verifyListenToken,
} from '../../lib/domain/live-control.js';
import { AppError } from '../../lib/domain/errors.js';
import { Conversation } from '../../streaming-service/src/conversation/conversation.js';
import { CallTap, MAX_LISTENER_BACKLOG_BYTES, type ListenerSocket } from '../../streaming-service/src/live/tap.js';
import { LiveControl, type LiveControlContext } from '../../streaming-service/src/session/live-control.js';
import { SpeechHandle } from '../../streaming-service/src/session/speech-handle.js';
import { CallStateMachine } from '../../streaming-service/src/session/state.js';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const CALL = { workspaceId: 'ws_1', callId: 'call_1' };

describe('control and listen tokens', () => {
  it('a control token holds for its call and exact body until it expires', () => {
    const body = JSON.stringify({ kind: 'say', text: 'Hi.', mode: 'queue' });
    const t = signControlToken(CALL, body, KEY, 1_000_000);
    expect(verifyControlToken(t, body, KEY, 1_000_000)).toMatchObject({ ok: true, claims: CALL });
    expect(verifyControlToken(t, body.replace('Hi.', 'Bye.'), KEY, 1_000_000)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyControlToken(t, body, OTHER_KEY, 1_000_000)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyControlToken(t, body, [OTHER_KEY, KEY], 1_000_000).ok).toBe(true);
    expect(verifyControlToken(t, body, KEY, 1_000_000 + 31_000)).toEqual({ ok: false, reason: 'expired' });
    // A listen token is another kind: it never passes as a control token.
    expect(verifyControlToken(signListenToken(CALL, KEY, 1_000_000).token, body, KEY, 1_000_000)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('a listen token names its call and expires after 5 minutes', () => {
    const { token, exp } = signListenToken(CALL, KEY, 1_000_000);
    expect(exp).toBe(1_000 + 300);
    expect(verifyListenToken(token, KEY, 1_000_000)).toMatchObject({ ok: true, claims: CALL });
    expect(verifyListenToken(token, KEY, 1_000_000 + 300_000)).toEqual({ ok: false, reason: 'expired' });
    const [v, payload, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), callId: 'call_2' })).toString('base64url');
    expect(verifyListenToken(`${v}.${forged}.${sig}`, KEY, 1_000_000)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('a listen frame is channel, 3 zero bytes, u32 LE ms, then PCM16 LE', () => {
    const frame = listenFrame(1, 1234.4, Int16Array.from([1, -2, 32767]));
    expect([...frame.subarray(0, 8)]).toEqual([1, 0, 0, 0, 0xd2, 0x04, 0, 0]);
    expect(frame.length).toBe(8 + 6);
    expect(frame.readInt16LE(10)).toBe(-2);
    const back = readListenFrame(frame);
    expect(back.channel).toBe(1);
    expect(back.atMs).toBe(1234);
    expect([...back.pcm]).toEqual([1, -2, 32767]);
  });
});

class FakeSocket implements ListenerSocket {
  bufferedAmount = 0;
  readonly sent: (Buffer | string)[] = [];
  closed: { code: number; reason: string } | undefined;
  send(data: Buffer | string) {
    this.sent.push(data);
  }
  close(code: number, reason: string) {
    this.closed = { code, reason };
  }
}

describe('the tap', () => {
  it('fans out each frame to every listener, drops a slow one, and closes all at the end', () => {
    const tap = new CallTap();
    const a = new FakeSocket();
    const b = new FakeSocket();
    expect(tap.add(a) && tap.add(b)).toBe(true);
    tap.caller(Int16Array.from([5, 6]), 20);
    tap.event({ type: 'caption', role: 'user', text: 'Hi', final: true });
    expect(a.sent).toHaveLength(2);
    expect(b.sent).toEqual(a.sent);
    expect(readListenFrame(a.sent[0] as Buffer)).toMatchObject({ channel: 0, atMs: 20 });
    b.bufferedAmount = MAX_LISTENER_BACKLOG_BYTES + 1;
    tap.agent(Int16Array.from([7]), 40);
    expect(b.closed).toEqual({ code: 1013, reason: 'listener too slow' });
    expect(b.sent).toHaveLength(2);
    expect(a.sent).toHaveLength(3);
    expect(tap.size).toBe(1);
    tap.end('ended_by_api');
    expect(a.sent.at(-1)).toBe(JSON.stringify({ type: 'ended', reason: 'ended_by_api' }));
    expect(a.closed).toEqual({ code: 1000, reason: 'ended' });
    const late = new FakeSocket();
    expect(tap.add(late)).toBe(false);
    expect(late.sent).toEqual([JSON.stringify({ type: 'ended', reason: 'ended_by_api' })]);
  });

  it('with nobody listening sends nothing', () => {
    const tap = new CallTap();
    const a = new FakeSocket();
    tap.add(a);
    tap.remove(a);
    tap.caller(Int16Array.from([1]), 0);
    expect(a.sent).toEqual([]);
  });
});

/** A call's live control over a real state machine and conversation; spoken lines settle at once. */
function control(options: { hasPhoneLine?: boolean; current?: () => SpeechHandle | undefined } = {}) {
  const state = new CallStateMachine(() => undefined);
  state.go('listening');
  const conversation = new Conversation<SpeechHandle>('You help.');
  const said: string[] = [];
  const ends: string[] = [];
  const transfers: string[] = [];
  let ended = false;
  const ctx: LiveControlContext = {
    state,
    conversation,
    agent: { _id: 'agent_1', name: 'Ava' },
    hasPhoneLine: options.hasPhoneLine ?? true,
    tap: { event: () => undefined },
    current: options.current ?? (() => undefined),
    interrupt: () => undefined,
    say(text) {
      said.push(text);
      const handle = new SpeechHandle(`h${said.length}`, 'line');
      conversation.addAgent(handle).rounds.push({ generated: text, toolCalls: [], results: new Map() });
      return { handle, done: Promise.resolve() };
    },
    end(cause) {
      ends.push(cause);
      ended = true;
    },
    isEnded: () => ended,
    async transfer(to) {
      transfers.push(to);
      return { ok: true, outcome: 'transferred' };
    },
  };
  return { live: new LiveControl(ctx), said, ends, transfers, conversation };
}

const conflict = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.code}` : String(error);
  }
  return 'no error';
};

describe('live control', () => {
  it('ends once, after the closing line, however often it is asked', async () => {
    const c = control();
    expect(c.live.run({ kind: 'end', message: 'Goodbye.' }).status).toBe('ending');
    expect(c.live.run({ kind: 'end' }).status).toBe('ending');
    await new Promise((r) => setTimeout(r, 0));
    expect(c.said).toEqual(['Goodbye.']);
    expect(c.ends).toEqual(['ended_by_api']);
    expect(conflict(() => c.live.run({ kind: 'say', text: 'Hi.', mode: 'queue' }))).toBe('409 call_ended');
    expect(c.live.run({ kind: 'status' }).status).toBe('ended');
  });

  it('replays an Idempotency-Key and refuses one reused with another body', () => {
    const c = control();
    expect(c.live.run({ kind: 'say', text: 'Hi.', mode: 'interrupt' }, 'k1')).toMatchObject({ status: 'speaking' });
    expect(c.live.run({ kind: 'say', text: 'Hi.', mode: 'interrupt' }, 'k1')).toMatchObject({ status: 'speaking', replayed: true });
    expect(c.said).toEqual(['Hi.']);
    expect(conflict(() => c.live.run({ kind: 'say', text: 'Bye.', mode: 'interrupt' }, 'k1'))).toBe('422 idempotency_key_reused');
    expect(c.live.run({ kind: 'say', text: 'Hi.', mode: 'interrupt' }).status).toBe('speaking');
    expect(c.said).toEqual(['Hi.', 'Hi.']);
  });

  it('queues a line behind the utterance under way, and speaks it once that one is over', async () => {
    const speaking = new SpeechHandle('h0', 'reply');
    speaking.addPhrase('Let me check.', 0);
    let current: SpeechHandle | undefined = speaking;
    const c = control({ current: () => current });
    expect(c.live.run({ kind: 'say', text: 'One moment.', mode: 'queue' }).status).toBe('queued');
    await new Promise((r) => setTimeout(r, 0));
    expect(c.said).toEqual([]);
    speaking.finishProducing();
    speaking.markSent(speaking.phrases[0]!);
    speaking.onMarkEcho(speaking.phrases[0]!.markName);
    current = undefined;
    await new Promise((r) => setTimeout(r, 0));
    expect(c.said).toEqual(['One moment.']);
  });

  it('refuses a transfer without a phone line, and a second one while the first runs', () => {
    expect(conflict(() => control({ hasPhoneLine: false }).live.run({ kind: 'transfer', to: '+14155550142', mode: 'cold' }))).toBe('409 no_phone_line');
    const c = control();
    expect(c.live.run({ kind: 'transfer', to: '+14155550142', mode: 'cold' }).status).toBe('transferring');
    expect(conflict(() => c.live.run({ kind: 'transfer', to: '+14155550143', mode: 'cold' }))).toBe('409 transfer_in_progress');
    expect(c.transfers).toEqual(['+14155550142']);
  });

  it('a context note reaches the model at its place, never the transcript; the snapshot shows the agent', () => {
    const c = control();
    c.conversation.addUser('Hello?');
    expect(c.live.run({ kind: 'context', message: 'The caller is a VIP.' }).status).toBe('context_added');
    c.conversation.addUser('Are you there?');
    expect(c.conversation.messages()).toEqual([
      { role: 'system', content: 'You help.' },
      { role: 'user', content: 'Hello? Are you there?' },
      { role: 'system', content: 'The caller is a VIP.' },
    ]);
    expect(c.conversation.transcript()).toBe('user: Hello? Are you there?');
    expect(c.live.run({ kind: 'status' })).toEqual({ status: 'live', agentState: 'listening', transcript: [{ role: 'user', text: 'Hello? Are you there?' }], agent: { id: 'agent_1', name: 'Ava' } });
  });
});
