/**
 * Invariant: a meeting on the stand-ins of `npm start` says so, and its recognizer hears one utterance per
 * thing the contact says and nothing else. Chromium opens a real `room_url` whose agent runs on the loopback
 * stand-ins with their default scripts; the page shows the simulated-vendors notice (what is simulated, the
 * key variable that makes each part real) before and during the call. The microphone is Chromium's own fake
 * device, which beeps every 500 ms (what a page without a real microphone hears, and what flooded the captions
 * with the recognizer's script), with an espeak-ng question mixed in twice, each time once the agent listens.
 * The captions show exactly two lines of the contact, the agent finishes each answer, and the history record
 * holds exactly that conversation. The pages pass axe.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TRANSCRIPTS } from '../../../lib/local/standins/stt.js';
import { getHistoryRecord } from '../../../lib/store/history.js';
import { FAKE_MEDIA_ARGS, launchChromium } from '../../support/browser.js';
import { axeViolations, expectOnScreen } from '../../support/page-checks.js';
import { startVoicePlatform, type VoicePlatform } from '../voice-harness.js';
import { WAIT_MS } from '../../support/progress.js';

let vp: VoicePlatform;
let dir: string;
let browser: Browser;
let question: string;

/** The question as 48 kHz float samples (base64), for the page's microphone. */
function questionSamples(): string {
  const speech = join(dir, 'question.wav');
  const raw = join(dir, 'question.f32');
  execFileSync('espeak-ng', ['-w', speech, 'What time do you open tomorrow?']);
  execFileSync('sox', [speech, '-r', '48000', '-c', '1', '-e', 'floating-point', '-b', '32', raw]);
  return readFileSync(raw).toString('base64');
}

/**
 * The page's microphone: Chromium's fake device (its beep every 500 ms) keeps playing into a Web Audio graph,
 * and `__say(samples)` adds the question on top, when the test says so (a capture file plays on its own
 * clock: on a loaded machine the question could land over the greeting). The page's capture is unchanged.
 */
const MICROPHONE = () => {
  const media = navigator.mediaDevices;
  const original = media.getUserMedia.bind(media);
  let graph: { ctx: AudioContext; dest: MediaStreamAudioDestinationNode } | undefined;
  media.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    const stream = await original(constraints);
    if (!constraints?.audio) return stream;
    if (!graph) {
      const ctx = new AudioContext({ sampleRate: 48_000 });
      graph = { ctx, dest: ctx.createMediaStreamDestination() };
    }
    const fake = stream.getAudioTracks()[0]!;
    stream.removeTrack(fake);
    graph.ctx.createMediaStreamSource(new MediaStream([fake])).connect(graph.dest);
    stream.addTrack(graph.dest.stream.getAudioTracks()[0]!);
    return stream;
  };
  // Every control message the page receives, for a failure's report.
  const controls: string[] = [];
  (window as unknown as { __controls: string[] }).__controls = controls;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.addEventListener('message', (m) => {
        if (typeof m.data === 'string') controls.push(`${Math.round(performance.now())} ${m.data.slice(0, 160)}`);
      });
    }
  };
  (window as unknown as { __say: (b64: string) => Promise<void> }).__say = async (b64: string) => {
    const { ctx, dest } = graph!;
    await ctx.resume();
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const samples = new Float32Array(bytes.buffer);
    const buffer = ctx.createBuffer(1, samples.length, 48_000);
    buffer.copyToChannel(samples, 0);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(dest);
    await new Promise<void>((resolve) => {
      source.onended = () => resolve();
      source.start();
    });
  };
};

type WithMeeting = { __meeting: { state: string; agentState: string; framesSent: number } };
const meeting = (page: Page) => page.evaluate(() => ({ ...(window as unknown as WithMeeting).__meeting }));
const say = (page: Page) => page.evaluate((b64) => (window as unknown as { __say: (b: string) => Promise<void> }).__say(b64), question);
type Meeting = WithMeeting['__meeting'];
/** Waits until the page's `__meeting` stats satisfy `[field, value]`: equal, or for numbers at least. */
const waitFor = (page: Page, [field, value]: [keyof Meeting, string | number]) =>
  page
    .waitForFunction(
      ([f, v]) => {
        const now = (window as unknown as WithMeeting).__meeting[f as keyof Meeting];
        return typeof v === 'number' ? (now as number) >= v : now === v;
      },
      [field, value] as const,
      { timeout: WAIT_MS, polling: 50 },
    )
    .catch(async (e: unknown) => {
      const seen = await page.evaluate(() => ({ meeting: (window as unknown as WithMeeting).__meeting, controls: (window as unknown as { __controls: string[] }).__controls.slice(-40) }));
      throw new Error(`${String(e)}\nwaiting for ${field}=${value}; page: ${JSON.stringify(seen, null, 1)}`);
    });
const listening = (page: Page) => waitFor(page, ['agentState', 'listening']);
/** Waits until the page has sent `frames` more 20 ms microphone frames: audio time, not wall-clock time. */
async function heardMore(page: Page, frames: number) {
  const from = (await meeting(page)).framesSent;
  await waitFor(page, ['framesSent', from + frames]);
}
const finalCaptions = (page: Page, role: 'user' | 'agent') =>
  page.$$eval(`#captions .caption[data-role="${role}"][data-final="true"] .words`, (items) => items.map((i) => i.textContent ?? ''));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'meeting-stand-ins-'));
  question = questionSamples();
  // The stand-ins' own scripts (what `npm start` runs), with the voice sped up so the test waits less.
  vp = await startVoicePlatform({ tts: { realtimeFactor: 8 } });
  browser = await launchChromium([...FAKE_MEDIA_ARGS, '--autoplay-policy=no-user-gesture-required']);
});
afterAll(async () => {
  await browser?.close();
  await vp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a meeting on the stand-ins', () => {
  it('says which vendors are simulated, and captions one line per utterance however much the microphone beeps', async () => {
    const greeting = 'Hi, this is Ava.';
    const agent = await vp.agent({ name: 'Ava', first_message: greeting, silence: { reprompt_after_ms: 120_000 } });
    const created = await vp.api('POST', '/api/optimus/meeting-link', { assistantId: agent._id, contactName: 'Grace' });
    expect(created.status).toBe(201);
    const { call_id: callId, room_url: roomUrl } = created.body as { call_id: string; room_url: string };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(MICROPHONE);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));

    // The Join screen says what is simulated and how to make it real.
    expect((await page.goto(roomUrl))?.status()).toBe(200);
    await waitFor(page, ['state', 'ready']);
    const notice = page.getByRole('complementary', { name: 'Simulated vendors' });
    await expect(notice.textContent()).resolves.toMatch(
      /^Simulated: speech recognition \(Deepgram\), the language model \(OpenAI\) and the voice \(ElevenLabs\) are local stand-ins\..*set DEEPGRAM_API_KEY, OPENAI_API_KEY and ELEVENLABS_API_KEY where the platform runs/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await expectOnScreen(page, 'stand-ins-join', ['#stand-ins', '#join-button']);

    await page.getByRole('button', { name: 'Join' }).click();
    await waitFor(page, ['state', 'live']);
    await page.locator('#captions').getByText(greeting).first().waitFor({ timeout: WAIT_MS });
    await listening(page);
    // Three seconds of beeps alone: nothing is heard.
    await heardMore(page, 150);
    expect(await finalCaptions(page, 'user')).toEqual([]);

    // Two utterances, each once the agent listens: two lines of the recognizer's script, each answered in full.
    const [first, second] = DEFAULT_TRANSCRIPTS;
    for (const line of [first, second]) {
      await say(page);
      await page.locator('#captions').getByText(`You said: ${line.replace(/[.!?]+$/, '')}. How can I help with that?`).first().waitFor({ timeout: WAIT_MS });
      await listening(page);
    }
    // Four more seconds of beeps: still no line of the contact's that was not said.
    await heardMore(page, 200);
    expect(await finalCaptions(page, 'user')).toEqual([first, second]);
    expect(await page.locator('#stand-ins').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await expectOnScreen(page, 'stand-ins-live', ['#stand-ins', '#captions', '#hangup']);

    await page.getByRole('button', { name: /hang up/i }).click();
    const record = await vi.waitFor(
      async () => {
        const r = (await getHistoryRecord(vp.deps.db, vp.workspaceId, callId)) as unknown as Record<string, unknown>;
        if (r.callEndReason === 'not_joined') throw new Error('not ended yet');
        return r;
      },
      { timeout: WAIT_MS, interval: 50 },
    );
    expect(String(record.callTranscript).split('\n')).toEqual([
      `agent: ${greeting}`,
      `user: ${first}`,
      `agent: You said: ${first.replace(/[.!?]+$/, '')}. How can I help with that?`,
      `user: ${second}`,
      `agent: You said: ${second.replace(/[.!?]+$/, '')}. How can I help with that?`,
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
