// Invariant: every speech-to-text provider keeps the SttProvider contract the pipeline relies on, against its
// stand-in always and against the real vendor when its key is set: connect resolves once the vendor accepted
// the stream; a caller's turn yields speech_started before its final, the final text with isFinal, and an end
// of turn (speechFinal) in the endpointing window; finalize() finalizes at once; close() completes `events`;
// failures are VendorErrors that retry only when retrying can help. Against the stand-ins, the exact wire
// sequence each adapter produced (handshake, parameters, auth, audio framing, keepalive, close) is asserted,
// so the stand-ins stay faithful to what the real SDK clients send.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type Config } from '../../lib/config.js';
import { MULAW_SILENCE } from '../../lib/vendors/shared/mulaw.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { normalizeTranscript } from '../../lib/local/standins/stt-engine.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { createSttProvider } from '../../lib/vendors/stt/index.js';
import { FINAL_DELAY_MS, OPTIONS, SPOKEN, collect, contract, finalText, received } from './stt-contract-support.js';
import { VENDORS, WIDEBAND_OPTIONS, WIDEBAND_PACKET_BYTES, WIDEBAND_WIRE, widebandCallerAudio } from './stt-contract-wire.js';
import { WAIT_MS } from '../support/progress.js';

// ---------------------------------------------------------------------------------------------------------
// Stand-ins (always) and real vendors (when keyed)
// ---------------------------------------------------------------------------------------------------------

let standins: SttStandins;
let standinEnv: Record<string, string>;

beforeAll(async () => {
  // No keys: every vendor gets a stand-in here, whatever the environment holds for the real-vendor runs.
  standins = await startSttStandins(loadConfig({}), { transcripts: () => SPOKEN, finalDelayMs: FINAL_DELAY_MS });
  standinEnv = standins.env;
});

afterAll(async () => {
  await standins?.stop();
});

// The vendors' suites run side by side (most of their time is audio paced in real time, and each vendor has
// its own stand-in); inside one, the tests run one after another (`it.sequential`, in `contract` too), as they
// reprogram and read that stand-in.
for (const vendor of VENDORS) describe.concurrent(`${vendor.id} STT against its stand-in`, () => {
  const control = () => standins.control[vendor.id]!;
  const provider = (overrides: Partial<Config> = {}) =>
    createSttProvider(vendor.id, { ...loadConfig(standinEnv), ...overrides }, { retryBaseDelayMs: 10, retryMaxDelayMs: 20 });

  beforeEach(() => {
    control().reset();
    control().requireKey(undefined);
  });

  /**
   * Sends audio in 20 ms packets: at once, as the stand-in measures silence on the audio itself, except to
   * AssemblyAI, which closes a session sent audio faster than real time (3007): there, on the wall clock.
   */
  const sendPackets = async (stream: { sendAudio(a: Uint8Array): void }, audio: Uint8Array) => {
    const t0 = performance.now();
    for (let i = 0, n = 0; i < audio.length; i += WIDEBAND_PACKET_BYTES, n += 1) {
      const wait = vendor.id === 'assemblyai' ? t0 + n * 20 - performance.now() : 0;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      stream.sendAudio(audio.subarray(i, i + WIDEBAND_PACKET_BYTES));
    }
  };

  contract(vendor, () => ({ provider, control: control() }));

  it.sequential('refuses a wrong key with a non-retryable VendorError after a single attempt', async () => {
    control().requireKey('the-right-key');
    const error = await provider({ [vendor.keyVar]: 'a-wrong-key' }).connect(OPTIONS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).retryable).toBe(false);
    const c = control();
    const attempts = c.rejected.length + c.sessions.length + c.httpRequests.filter((r) => r.status >= 400).length;
    expect(attempts).toBe(1);
  });

  it.sequential('retries a vendor outage (503 on the handshake) and then connects', async () => {
    control().failNext(1, 503);
    const stream = await provider().connect(OPTIONS);
    expect(control().rejected).toEqual([{ path: expect.any(String), status: 503 }]);
    expect(control().sessions).toHaveLength(1);
    const run = collect(stream);
    await stream.close();
    await run.done;
    expect(run.events).toEqual([]);
  });

  it.sequential('reports a vendor dropping the stream as a retryable VendorError from events', async () => {
    const stream = await provider().connect(OPTIONS);
    const run = collect(stream);
    const before = received(control().sessions[0]!).length;
    stream.sendAudio(new Uint8Array(800).fill(MULAW_SILENCE));
    // The drop comes mid-stream: after the vendor has the audio (a frame more than it had), however long that
    // takes on a busy machine.
    await vi.waitFor(() => expect(received(control().sessions[0]!).length).toBeGreaterThan(before), { timeout: WAIT_MS, interval: 5 });
    control().dropAll(1011, 'Internal server error');
    const error = await run.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).retryable).toBe(true);
    // Sending after the failure is ignored, never thrown at the caller.
    expect(() => stream.sendAudio(new Uint8Array(160))).not.toThrow();
    await stream.close();
  });

  it.sequential('aborting the signal cancels a connect, and later drops an open stream and completes events', async () => {
    const early = new AbortController();
    early.abort(new Error('call ended'));
    await expect(provider().connect(OPTIONS, early.signal)).rejects.toThrow('call ended');
    expect(control().sessions).toHaveLength(0);

    const later = new AbortController();
    const stream = await provider().connect(OPTIONS, later.signal);
    const run = collect(stream);
    later.abort();
    await run.done;
    // The vendor sees the socket close when its close frame arrives: waited for, not a fixed 100 ms (a whole
    // run on the busy two-core machine once took longer, 28 November).
    await vi.waitFor(() => expect(control().sessions[0]?.closed).toMatchObject({ by: 'client' }), { timeout: WAIT_MS, interval: 5 });
  });

  it.sequential('transcribes linear16 16 kHz audio, declared to the vendor in its own terms', async () => {
    const audio = widebandCallerAudio(1_000);
    const stream = await provider().connect(WIDEBAND_OPTIONS);
    const run = collect(stream);
    await sendPackets(stream, audio);
    await vi.waitFor(() => expect(run.events.some((e) => e.type === 'transcript' && e.speechFinal)).toBe(true), { timeout: WAIT_MS, interval: 20 });
    await stream.close();
    await run.done;
    expect(run.events.find((e) => e.type === 'speech_started')).toBeDefined();
    expect(finalText(run.events)).toBe(normalizeTranscript(SPOKEN));
    expect(control().sessions).toHaveLength(1);
    WIDEBAND_WIRE[vendor.id](control().sessions[0]!, audio.length);
  });

  it.sequential('hears nothing in wideband silence', async () => {
    const stream = await provider().connect(WIDEBAND_OPTIONS);
    const run = collect(stream);
    const silence = new Uint8Array(32 * 1_000);
    await sendPackets(stream, silence);
    await stream.close();
    await run.done;
    expect(run.events.filter((e) => e.type === 'speech_started' || (e.type === 'transcript' && e.text))).toEqual([]);
  });

  it.sequential('gives up after the configured attempts when the vendor stays down', async () => {
    control().failNext(5, 503);
    const error = await provider().connect(OPTIONS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).retryable).toBe(true);
    expect(control().rejected).toHaveLength(3);
  });
});

describe('createSttProvider without a key', () => {
  it('builds, and its connect fails with a non-retryable VendorError naming the variable', async () => {
    for (const vendor of VENDORS) {
      const error = await createSttProvider(vendor.id, loadConfig({})).connect(OPTIONS).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VendorError);
      expect((error as VendorError).retryable).toBe(false);
      expect((error as VendorError).message).toContain(vendor.keyVar);
    }
  });
});

for (const vendor of VENDORS) {
  describe.runIf(!!process.env[vendor.keyVar])(`${vendor.id} STT against the real service`, () => {
    // Only the vendor's own variables: other stand-in settings in the environment must not redirect it.
    const provider = () => createSttProvider(vendor.id, loadConfig({ [vendor.keyVar]: process.env[vendor.keyVar] }));
    contract(vendor, () => ({ provider }));
  });
}
