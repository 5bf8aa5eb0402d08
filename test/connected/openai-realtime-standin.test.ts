/**
 * Invariant: the OpenAI Realtime stand-in, reached by the `openai` SDK's realtime WebSocket client, is as
 * strict as OpenAI documents (lib/local/standins/openai-realtime.ts): a wrong key is refused at the handshake,
 * an unknown model closes the socket, an unknown voice, a PCM rate other than 24 kHz, a non-function tool, a
 * cancel with nothing to cancel and a truncation beyond the item's audio are `error` events naming the param,
 * and a response streams its events in the documented order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { STANDIN_KEY } from '../../lib/local/standins/catalog.js';
import { startOpenAiRealtimeStandin, type RealtimeStandin } from '../../lib/local/standins/openai-realtime.js';
import { openRealtimeSocket, type RealtimeSocket } from '../../lib/vendors/realtime/openai.js';

let standin: RealtimeStandin;
beforeAll(async () => {
  standin = await startOpenAiRealtimeStandin({ firstAudioDelayMs: 10, realtimeFactor: 0 });
});
afterAll(() => standin?.stop());

async function open(model = 'gpt-realtime', apiKey = STANDIN_KEY) {
  const events: RealtimeServerEvent[] = [];
  let closed = false;
  const socket: RealtimeSocket = await openRealtimeSocket({ baseUrl: standin.baseUrl, apiKey }, model, {
    opened: () => undefined,
    event: (e) => events.push(e),
    closed: () => {
      closed = true;
    },
  });
  const next = async (type: string, from = 0) => {
    for (let i = 0; i < 500; i += 1) {
      const found = events.slice(from).find((e) => e.type === type);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${type}`);
  };
  return { socket, events, next, isClosed: () => closed };
}

const paramOf = (e: RealtimeServerEvent) => (e.type === 'error' ? [e.error.code, e.error.param] : []);

describe('the OpenAI Realtime stand-in', () => {
  it('refuses a wrong key at the handshake and an unknown model on the socket', async () => {
    await expect(open('gpt-realtime', 'sk-wrong')).rejects.toThrow(/401/);
    const s = await open('gpt-4o');
    expect(paramOf(await s.next('error'))).toEqual(['model_not_found', 'model']);
    for (let i = 0; i < 100 && !s.isClosed(); i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(s.isClosed()).toBe(true);
  });

  it('refuses an unknown voice, a 16 kHz PCM rate and a non-function tool, naming the param', async () => {
    const s = await open();
    await s.next('session.created');
    s.socket.send({ type: 'session.update', session: { type: 'realtime', audio: { output: { voice: 'nova' } } } });
    expect(paramOf(await s.next('error'))).toEqual(['invalid_value', 'session.audio.output.voice']);
    let from = s.events.length;
    s.socket.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { format: { type: 'audio/pcm', rate: 16_000 as 24_000 } } } } });
    expect(paramOf(await s.next('error', from))).toEqual(['invalid_value', 'session.audio.input.format.rate']);
    from = s.events.length;
    s.socket.send({ type: 'session.update', session: { type: 'realtime', tools: [{ type: 'mcp', server_label: 'x' } as never] } });
    expect(paramOf(await s.next('error', from))).toEqual(['invalid_value', 'session.tools[0].type']);
    s.socket.close();
  });

  it('streams a response in the documented order, then refuses a cancel with none active and a truncation past its audio', async () => {
    const s = await open();
    await s.next('session.created');
    s.socket.send({ type: 'session.update', session: { type: 'realtime', audio: { output: { format: { type: 'audio/pcmu' }, voice: 'cedar' } } } });
    await s.next('session.updated');
    const from = s.events.length;
    s.socket.send({ type: 'response.create', response: { instructions: 'Say "hello there"' } });
    const done = await s.next('response.done', from);
    const order = [...new Set(s.events.slice(from).map((e) => e.type))];
    expect(order).toEqual([
      'response.created',
      'response.output_item.added',
      'conversation.item.added',
      'response.content_part.added',
      'response.output_audio.delta',
      'response.output_audio_transcript.delta',
      'response.output_audio.done',
      'response.output_audio_transcript.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
    ]);
    expect(done.type === 'response.done' && done.response.usage?.output_token_details?.audio_tokens).toBeGreaterThan(0);
    const item = s.events.find((e) => e.type === 'response.output_item.added');
    const itemId = item?.type === 'response.output_item.added' ? item.item.id! : '';

    let at = s.events.length;
    s.socket.send({ type: 'response.cancel' });
    expect(paramOf(await s.next('error', at))).toEqual(['response_cancel_not_active', null]);
    at = s.events.length;
    s.socket.send({ type: 'conversation.item.truncate', item_id: itemId, content_index: 0, audio_end_ms: 60_000 });
    expect(paramOf(await s.next('error', at))).toEqual(['invalid_value', 'audio_end_ms']);
    at = s.events.length;
    s.socket.send({ type: 'conversation.item.truncate', item_id: itemId, content_index: 0, audio_end_ms: 200 });
    expect(await s.next('conversation.item.truncated', at)).toMatchObject({ item_id: itemId, audio_end_ms: 200 });
    s.socket.close();
  });
});
