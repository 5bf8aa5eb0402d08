/**
 * Invariant: a request started ahead of its turn (streaming-service/src/conversation/prefetch.ts) is used
 * only by the turn that asks the same thing (the caller's words compared as words), replayed from its first
 * event and continued live; any other request throws it away (aborted, counted as wasted), and the turn's
 * own signal cancels one in use.
 */
import { describe, expect, it } from 'vitest';
import type { LlmEvent, LlmRequest } from '../../lib/vendors/llm/port.js';
import { Prefetch, wordsOf } from '../../streaming-service/src/conversation/prefetch.js';

/** A model that streams three words, the last one only when `release` is called; records its aborts. */
function slowModel() {
  const aborted: unknown[] = [];
  let release = (): void => undefined;
  const gate = new Promise<void>((r) => (release = r));
  return {
    aborted,
    release: () => release(),
    async *stream(_request: Omit<LlmRequest, 'model'>, signal: AbortSignal): AsyncGenerator<LlmEvent> {
      signal.addEventListener('abort', () => aborted.push(signal.reason), { once: true });
      yield { type: 'text', delta: 'We ', atMs: 1 };
      yield { type: 'text', delta: 'open ', atMs: 2 };
      await Promise.race([gate, new Promise((r) => signal.addEventListener('abort', r, { once: true }))]);
      if (signal.aborted) return;
      yield { type: 'text', delta: 'at nine.', atMs: 3 };
    },
  };
}

const request = (said: string): Omit<LlmRequest, 'model'> => ({
  messages: [
    { role: 'system', content: 'You take bookings.' },
    { role: 'user', content: said },
  ],
  tools: [],
});

const texts = async (events: AsyncIterable<LlmEvent>) => {
  let out = '';
  for await (const e of events) if (e.type === 'text') out += e.delta;
  return out;
};

describe('a request started ahead of its turn', () => {
  it('compares words, not case or punctuation', () => {
    expect(wordsOf('What time do you open, tomorrow?')).toBe('what time do you open tomorrow');
    expect(wordsOf("I'd like  two.")).toBe("i'd like two");
  });

  it('is replayed and continued for the turn that asks the same words', async () => {
    const model = slowModel();
    const ahead = new Prefetch();
    ahead.start(model, request('what time do you open'), 'what time do you open');
    await new Promise((r) => setTimeout(r, 10));
    const taken = ahead.take(request('What time do you open?'), new AbortController().signal);
    expect(taken).toBeDefined();
    const text = texts(taken!.events);
    model.release();
    expect(await text).toBe('We open at nine.');
    expect(ahead.counts).toEqual({ started: 1, used: 1, wasted: 0 });
    expect(model.aborted).toEqual([]);
  });

  it('is thrown away when the turn asks anything else, and never replayed after', async () => {
    const model = slowModel();
    const ahead = new Prefetch();
    ahead.start(model, request('what time do you open'), 'what time do you open');
    expect(ahead.take(request('What time do you open on Sunday?'), new AbortController().signal)).toBeUndefined();
    expect(model.aborted).toHaveLength(1);
    expect(ahead.counts).toEqual({ started: 1, used: 0, wasted: 1 });
    expect(ahead.take(request('what time do you open'), new AbortController().signal)).toBeUndefined();
    expect(ahead.words).toBeUndefined();
  });

  it('is cancelled by the turn that uses it (a barge-in), and a new start replaces an old one as waste', async () => {
    const model = slowModel();
    const ahead = new Prefetch();
    ahead.start(model, request('a'), 'a');
    ahead.start(model, request('b'), 'b');
    expect(ahead.counts.wasted).toBe(1);
    const turn = new AbortController();
    const taken = ahead.take(request('b'), turn.signal)!;
    const text = texts(taken.events);
    await new Promise((r) => setTimeout(r, 10));
    turn.abort(new Error('barge-in'));
    expect(await text).toBe('We open ');
    expect(model.aborted).toHaveLength(2);
  });
});
