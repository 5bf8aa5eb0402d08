import { WebSocket } from 'ws';

export interface Frame {
  readonly type: string;
  readonly [k: string]: any;
}

/** A chat page's socket: everything received, and waits on what comes. */
export class ChatPage {
  readonly received: Frame[] = [];
  readonly closed: Promise<number>;
  private readonly waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.received.push(JSON.parse(String(data)) as Frame);
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  static async open(url: string, credential: string): Promise<ChatPage> {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'hello', credential }));
    return new ChatPage(ws);
  }

  async waitFor(match: (f: Frame) => boolean, from = 0): Promise<Frame> {
    for (;;) {
      const found = this.received.slice(from).find(match);
      if (found) return found;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such frame; got ${JSON.stringify(this.received)}`)), 20_000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends a message and waits for the reply to it (or an error); returns the frames it brought. */
  async ask(text: string): Promise<Frame[]> {
    const from = this.received.length;
    this.ws.send(JSON.stringify({ type: 'message', text }));
    await this.waitFor((f) => f.type === 'reply' || f.type === 'error', from);
    return this.received.slice(from);
  }

  drop(): void {
    this.ws.terminate();
  }
}
