import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A scripted stand-in for the streaming service's browser transport (`/web-stream`, docs/meeting.md), on
 * 127.0.0.1: it speaks the wire protocol and nothing more, so the meeting page's tests drive exactly what
 * the page receives (captions, audio, marks, clear, ended, drops) and see exactly what it sends.
 */
export interface StubConnection {
  /** The page's first message. */
  readonly hello: { type: 'hello'; credential: string; format: { encoding: string; sampleRate: number } };
  /** Every JSON message after the hello, in order. */
  readonly controls: Array<Record<string, unknown>>;
  /** Binary frames received (the microphone), with their sizes. */
  readonly frames: number[];
  send(message: Record<string, unknown>): void;
  sendAudio(pcm: Buffer): void;
  /** A clean close with a code (1000 after `ended`, 1008 or 1011 after `error`). */
  close(code: number): void;
  /** The network going away: no close frame. */
  drop(): void;
  /** The next control message the predicate accepts (one already received counts). */
  waitForControl(accept: (m: Record<string, unknown>) => boolean, what?: string): Promise<Record<string, unknown>>;
  /** Resolves when `frames` holds at least `count` frames. */
  waitForFrames(count: number): Promise<void>;
  readonly closed: Promise<void>;
}

export interface WebStreamStub {
  /** `ws://127.0.0.1:<port>/web-stream`, for WEB_STREAM_URL. */
  readonly url: string;
  /** Every connection that said hello, in order. */
  readonly connections: StubConnection[];
  /** Connection attempts so far (hello or not). */
  readonly attempts: number;
  /** The next connection to say hello (one that already did and was not taken yet counts). */
  nextConnection(): Promise<StubConnection>;
  /** While true, every WebSocket handshake is answered 503, as a load balancer with no healthy target does. */
  refuseAll: boolean;
  stop(): Promise<void>;
}

function connectionOf(socket: WebSocket, hello: StubConnection['hello']): StubConnection & { take(data: Buffer, isBinary: boolean): void } {
  const controls: StubConnection['controls'] = [];
  const frames: number[] = [];
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  const until = <T>(check: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const test = () => {
        const value = check();
        if (value === undefined) return;
        listeners.delete(test);
        resolve(value);
      };
      listeners.add(test);
      test();
    });
  return {
    hello,
    controls,
    frames,
    take(data, isBinary) {
      if (isBinary) frames.push(data.length);
      else controls.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
      changed();
    },
    send: (message) => socket.send(JSON.stringify(message)),
    sendAudio: (pcm) => socket.send(pcm, { binary: true }),
    close: (code) => socket.close(code),
    drop: () => socket.terminate(),
    waitForControl: (accept) => until(() => controls.find(accept)),
    waitForFrames: (count) => until(() => (frames.length >= count ? true : undefined)).then(() => undefined),
    closed: once(socket, 'close').then(() => undefined),
  };
}

export async function startWebStreamStub(): Promise<WebStreamStub> {
  const stub = { refuseAll: false };
  let attempts = 0;
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    path: '/web-stream',
    verifyClient: (_info, done) => {
      attempts += 1;
      done(!stub.refuseAll, 503);
    },
  });
  await once(server, 'listening');
  const connections: StubConnection[] = [];
  const waiting: Array<(c: StubConnection) => void> = [];
  let taken = 0;

  server.on('connection', (socket) => {
    let connection: ReturnType<typeof connectionOf> | undefined;
    socket.on('message', (data: Buffer, isBinary) => {
      if (connection) return connection.take(data, isBinary);
      const hello = JSON.parse(data.toString('utf8')) as StubConnection['hello'];
      if (hello.type !== 'hello') return socket.close(1008);
      connection = connectionOf(socket, hello);
      connections.push(connection);
      const waiter = waiting.shift();
      if (waiter) {
        taken += 1;
        waiter(connection);
      }
    });
  });

  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    url: `ws://127.0.0.1:${port}/web-stream`,
    connections,
    get attempts() {
      return attempts;
    },
    nextConnection(): Promise<StubConnection> {
      if (taken < connections.length) return Promise.resolve(connections[taken++]!);
      return new Promise<StubConnection>((resolve) => waiting.push(resolve));
    },
    async stop() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
