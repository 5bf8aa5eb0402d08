/**
 * Invariant: a streaming task that does not hold a call forwards the API's control request for it, once,
 * to the task recorded as its holder (same token, body and Idempotency-Key, marked as forwarded) and answers
 * with the holder's answer; a request that was already forwarded is never forwarded again (404, no loop);
 * a listener reaching such a task is relayed from the holder frame for frame (text and binary) until the
 * holder closes; a bad token is refused before anything is forwarded. The holder here is a stand-in for
 * the other task (a plain HTTP and WebSocket server on loopback), so what crosses the hop is observable.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenFrame, readListenFrame, signControlToken, signListenToken } from '../../lib/domain/live-control.js';
import { createStreamingServer } from '../../streaming-service/src/server.js';
import type { StreamingEnvironment, StreamingServer } from '../../streaming-service/src/service.js';

const KEY = Buffer.alloc(32, 3);
const CALL = { workspaceId: 'ws_1', callId: 'call_1' };

let holder: Server;
let holderUrl = '';
const forwarded: { headers: IncomingMessage['headers']; body: string }[] = [];
let task: StreamingServer;
let taskUrl = '';

beforeAll(async () => {
  holder = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      forwarded.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'speaking', agentState: 'speaking', transcript: [], agent: { id: 'agent_1', name: 'Ava' } }));
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  holder.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      expect(req.headers['x-live-forwarded']).toBe('1');
      ws.send(JSON.stringify({ type: 'start', callId: CALL.callId }));
      ws.send(listenFrame(0, 40, Int16Array.from([100, -100])));
      ws.send(JSON.stringify({ type: 'ended', reason: 'ended_by_api' }));
      ws.close(1000, 'ended');
    }),
  );
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
  holderUrl = `http://127.0.0.1:${(holder.address() as AddressInfo).port}`;
  const environment = {
    tokenKey: KEY,
    live: { controlKey: [KEY], listenKey: [KEY], hold: async () => undefined, holder: async () => holderUrl },
  } as unknown as StreamingEnvironment;
  // This task's own address differs from the holder's: it holds no call.
  task = createStreamingServer({ environment: async () => environment, internalUrl: 'http://10.0.0.9:8080' });
  const { port } = await task.listen(0, '127.0.0.1');
  taskUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await task?.close();
  await new Promise((r) => holder?.close(r));
});

const control = (body: string, token: string, headers: Record<string, string> = {}) =>
  fetch(`${taskUrl}/live/control`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers }, body });

describe('a task that does not hold the call', () => {
  it('forwards a control request once to the holder and answers with its answer', async () => {
    const body = JSON.stringify({ kind: 'say', text: 'Hi.', mode: 'interrupt' });
    const token = signControlToken(CALL, body, KEY);
    const res = await control(body, token, { 'idempotency-key': 'k-1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'speaking', agent: { name: 'Ava' } });
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.body).toBe(body);
    expect(forwarded[0]!.headers).toMatchObject({ authorization: `Bearer ${token}`, 'x-live-forwarded': '1', 'idempotency-key': 'k-1' });
  });

  it('never forwards a forwarded request again, and refuses a bad token before forwarding', async () => {
    const body = JSON.stringify({ kind: 'status' });
    const again = await control(body, signControlToken(CALL, body, KEY), { 'x-live-forwarded': '1' });
    expect(again.status).toBe(404);
    expect((await again.json()).error.code).toBe('not_found');
    const forged = await control(body, signControlToken(CALL, JSON.stringify({ kind: 'end' }), KEY));
    expect(forged.status).toBe(401);
    expect(forwarded).toHaveLength(1);
  });

  it('relays a listener from the holder, frame for frame, until it closes', async () => {
    const { token } = signListenToken(CALL, KEY);
    const ws = new WebSocket(`${taskUrl.replace(/^http/, 'ws')}/live/listen?token=${token}`);
    const got: (string | { channel: number; samples: number[] })[] = [];
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) return void got.push(String(data));
      const f = readListenFrame(data);
      got.push({ channel: f.channel, samples: [...f.pcm] });
    });
    const code = await new Promise<number>((r) => ws.on('close', (c) => r(c)));
    expect(code).toBe(1000);
    expect(got).toEqual([JSON.stringify({ type: 'start', callId: 'call_1' }), { channel: 0, samples: [100, -100] }, JSON.stringify({ type: 'ended', reason: 'ended_by_api' })]);
  });
});
