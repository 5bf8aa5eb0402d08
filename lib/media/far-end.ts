/**
 * What a simulated far end (a phone behind Twilio, a meeting page) does with the agent's audio and with
 * the caller's: agent audio is buffered and "played" at `speed` times real time, a mark is echoed once the
 * audio before it has played (at once when nothing is buffered), and `clear` drops the buffer and echoes
 * every outstanding mark; the caller's audio goes out in fixed frames in real time, silence when nothing
 * is being said. Shared by the Twilio and the browser simulated callers (lib/local/callers/), which differ
 * only on the wire, and by a voice agent test's caller (lib/services/agent-test-voice-caller.ts).
 */

const FRAME_MS = 20;

type Buffered = { type: 'audio'; bytes: Uint8Array; offset: number } | { type: 'mark'; name: string };

export class SimulatedPlayback {
  /** Agent audio actually "played" (bytes), in order. */
  readonly heard: Uint8Array[] = [];
  private readonly buffer: Buffered[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastPlayMs = 0;
  private stopped = false;

  /**
   * `bytesPerMs` of the format played; `sampleBytes` keeps a partial play on a sample boundary; `echo` sends
   * a mark back (`flushed` when a clear dropped the audio before it).
   */
  constructor(
    private readonly bytesPerMs: number,
    private readonly sampleBytes: number,
    private readonly speed: number,
    private readonly echo: (name: string, flushed: boolean) => void,
    /** Each piece of agent audio as it plays (a caller whose line echoes it back). */
    private readonly onPlayed?: (bytes: Uint8Array) => void,
    /** Keep nothing in {@link heard} (benchmark callers). */
    private readonly lean = false,
  ) {}

  pushAudio(bytes: Uint8Array): void {
    this.buffer.push({ type: 'audio', bytes, offset: 0 });
    this.start();
  }

  pushMark(name: string): void {
    this.buffer.push({ type: 'mark', name });
    this.start();
  }

  /** Drops what is buffered; every outstanding mark is echoed as flushed. */
  clear(): void {
    const marks = this.buffer.filter((b): b is Extract<Buffered, { type: 'mark' }> => b.type === 'mark');
    this.buffer.length = 0;
    for (const m of marks) this.echo(m.name, true);
  }

  /** Milliseconds of agent audio buffered, not yet played. */
  get bufferedMs(): number {
    return this.buffer.reduce((n, b) => n + (b.type === 'audio' ? (b.bytes.length - b.offset) / this.bytesPerMs : 0), 0);
  }

  get idle(): boolean {
    return this.buffer.length === 0;
  }

  /** Resolves when nothing is buffered (all agent audio so far has played). */
  async whenIdle(timeoutMs = 20_000): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (this.buffer.length > 0) {
      if (performance.now() > until) throw new Error('agent audio still playing');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private start(): void {
    this.drainMarks();
    if (this.timer || this.buffer.length === 0 || this.stopped) return;
    this.lastPlayMs = performance.now();
    const tick = () => {
      const now = performance.now();
      const whole = Math.floor((now - this.lastPlayMs) * this.bytesPerMs * this.speed);
      let budget = whole - (whole % this.sampleBytes);
      // What did not fit in whole samples plays on the next tick.
      this.lastPlayMs = now - (whole - budget) / (this.bytesPerMs * this.speed);
      while (budget > 0 && this.buffer.length > 0) {
        const head = this.buffer[0]!;
        if (head.type === 'mark') {
          this.buffer.shift();
          this.echo(head.name, false);
          continue;
        }
        const take = Math.min(budget, head.bytes.length - head.offset);
        const played = head.bytes.subarray(head.offset, head.offset + take);
        if (!this.lean) this.heard.push(played);
        this.onPlayed?.(played);
        head.offset += take;
        budget -= take;
        if (head.offset >= head.bytes.length) this.buffer.shift();
      }
      this.drainMarks();
      this.timer = this.buffer.length > 0 && !this.stopped ? setTimeout(tick, FRAME_MS) : undefined;
    };
    this.timer = setTimeout(tick, FRAME_MS);
  }

  /** Marks at the head of the buffer (nothing before them left to play) are echoed at once. */
  private drainMarks(): void {
    while (this.buffer[0]?.type === 'mark') {
      const m = this.buffer.shift() as Extract<Buffered, { type: 'mark' }>;
      this.echo(m.name, false);
    }
  }
}

/**
 * The caller's side: frames of `frameBytes` sent every 20 ms of real time from `start()`, the queued speech
 * first, else `silence`. `play` resolves once everything queued before it has been sent.
 */
export class SimulatedMicrophone {
  private readonly outgoing: Uint8Array[] = [];
  private waiters: { remaining: number; resolve: () => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sent = 0;
  private startedAt = 0;

  constructor(
    private readonly frameBytes: number,
    private readonly silence: number,
    private readonly send: (frame: Uint8Array, index: number) => void,
  ) {}

  /** Frames sent so far. */
  get frames(): number {
    return this.sent;
  }

  play(audio: Uint8Array): Promise<void> {
    if (audio.length === 0) return Promise.resolve();
    for (let i = 0; i < audio.length; i += this.frameBytes) {
      const frame = new Uint8Array(this.frameBytes).fill(this.silence);
      frame.set(audio.subarray(i, Math.min(i + this.frameBytes, audio.length)));
      this.outgoing.push(frame);
    }
    return new Promise((resolve) => this.waiters.push({ remaining: this.outgoing.length, resolve }));
  }

  start(): void {
    this.startedAt = performance.now();
    const tick = () => {
      const due = Math.floor((performance.now() - this.startedAt) / FRAME_MS);
      while (this.sent < due && this.timer !== undefined) this.sendFrame();
      if (this.timer !== undefined) this.timer = setTimeout(tick, FRAME_MS);
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Stops sending; whatever was still queued is given up, and whoever waits on it is released. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.outgoing.length = 0;
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  private sendFrame(): void {
    const frame = this.outgoing.shift() ?? new Uint8Array(this.frameBytes).fill(this.silence);
    this.sent += 1;
    this.send(frame, this.sent);
    for (const w of this.waiters) w.remaining -= 1;
    const done = this.waiters.filter((w) => w.remaining <= 0);
    this.waiters = this.waiters.filter((w) => w.remaining > 0);
    for (const w of done) w.resolve();
  }
}

/** Messages received by a simulated far end, in order, and waits for the first that matches one. */
export class MessageLog<M> {
  readonly items: M[] = [];
  private waiters: { match: (m: M) => boolean; resolve: (m: M) => void }[] = [];

  add(message: M): void {
    this.items.push(message);
    const ready = this.waiters.filter((w) => w.match(message));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(message);
  }

  /** The first message (already received or future) that matches. */
  waitFor(match: (m: M) => boolean, timeoutMs = 20_000): Promise<M> {
    const found = this.items.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }
}
