/**
 * Invariant: the embeddable widget works as a visitor meets it, on someone else's site. Chromium loads a host
 * page from a second loopback origin (its own port) with the one `<script>` tag, under a strict
 * Content-Security-Policy that allows only our origin, and with hostile global styles:
 * - the launcher and the open panel are on screen, styled by the widget alone (the host's styles do not
 *   reach into the Shadow DOM), pass axe-core's WCAG 2.1 AA rules, and trap focus (Tab cycles inside,
 *   Escape closes and gives focus back); the page gains exactly one global, `VoiceAgentWidget`;
 * - a voice call from the widget talks to the real streaming service: the agent's greeting is played (its
 *   level measured in the page) and captioned, the JS API's events fire, hang-up ends the call, and the
 *   history record is a `voice` call;
 * - refusals are said in the panel: a key used from a site not in its list, a full-scope key, an agent the
 *   key does not name, a visitor address holding all its sessions (with the true wait); and the API answers
 *   them (and a widget key on any other endpoint) with the JSON error;
 * - sessions started with a forged Origin and never opened take one address's share of a key, not the key:
 *   a visitor at another address still gets in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getHistoryRecord } from '../../../lib/store/history.js';
import { createApiKey, createWorkspace } from '../../../lib/store/workspaces.js';
import { FAKE_MEDIA_ARGS, launchChromium } from '../../support/browser.js';
import { axeViolations, expectOnScreen } from '../../support/page-checks.js';
import { raiseLoopbackIpLimits } from '../../support/platform.js';
import { startVoicePlatform, type VoicePlatform } from '../voice-harness.js';
import { expectStandInsNotice } from './widget-notice.js';
import { postFrom, startHost } from './widget-host.js';
import { WAIT_MS } from '../../support/progress.js';

let vp: VoicePlatform;
let browser: Browser;
let host: Server;
let dir: string;
let hostOrigin: string;
/** What the host page puts in its `<script>` tag, per path (`/page/<name>`). */
const pages = new Map<string, Record<string, string> | null>([['/bare', null]]);

beforeAll(async () => {
  raiseLoopbackIpLimits();
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'What time do you open tomorrow?', finalDelayMs: 50 },
    llm: { ttftMs: 50, tokensPerSecond: 400 },
    tts: { firstByteDelayMs: 30, realtimeFactor: 8 },
  });
  host = await startHost(vp.platform.baseUrl, pages);
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  // A quiet microphone: the stand-in STT hears any voiced audio as a question, and the fake device's beep
  // would interrupt the greeting this test listens to.
  dir = mkdtempSync(join(tmpdir(), 'widget-'));
  const silence = join(dir, 'silence.wav');
  execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', silence, 'trim', '0', '60']);
  browser = await launchChromium([...FAKE_MEDIA_ARGS, `--use-file-for-fake-audio-capture=${silence}`, '--autoplay-policy=no-user-gesture-required']);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => host?.close(r));
  await vp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let pageSeq = 0;

/** A host page with the widget tag for `attrs`; its URL. */
function hostPage(attrs: Record<string, string>): string {
  const path = `/page/${(pageSeq += 1)}`;
  pages.set(path, attrs);
  return `${hostOrigin}${path}`;
}

async function widgetKey(agentIds: string[], origins: string[] = [hostOrigin]): Promise<string> {
  return (await createApiKey(vp.deps.db, vp.workspaceId, 'widget', { agentIds, origins })).apiKey;
}

/** Opens a host page; records script errors and CSP violations (every test expects none of its own). */
async function openHost(url: string, viewport = { width: 1280, height: 800 }, widget = true): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A refused session is a 4xx the browser logs; the widget shows it, which the tests check.
    if (/status of 4\d\d/.test(m.text())) return;
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  expect((await page.goto(url))?.status()).toBe(200);
  if (widget) await page.locator('[data-voice-agent-widget] .launcher').waitFor();
  return { context, page, problems };
}

interface WidgetStats { state: string; agentState: string; marksEchoed: number; samplesPlayed: number; outputRms: number; framesSent: number; chatDeltas: number }
type WithWidget = { VoiceAgentWidget: { stats: WidgetStats; on(name: string, fn: (d: unknown) => void): unknown } };
const waitForState = (page: Page, state: string) =>
  page.waitForFunction((s) => (window as unknown as WithWidget).VoiceAgentWidget.stats.state === s, state, { timeout: WAIT_MS, polling: 50 });

describe('the widget on another site, in Chromium', () => {
  it('opens under a strict CSP and hostile styles: on screen, accessible, focus trapped, one global', async () => {
    const agent = await vp.agent({ name: 'Ava' });
    const url = hostPage({ 'api-key': await widgetKey([agent._id]), 'agent-id': agent._id, title: 'Ask the bakery', greeting: 'Hi! Ask me anything.' });
    const { context, page, problems } = await openHost(url);

    // The host page's own globals, plus exactly one of ours.
    const names = (p: Page) => p.evaluate(() => Object.getOwnPropertyNames(window));
    const bare = await openHost(`${hostOrigin}/bare`, undefined, false);
    const without = new Set(await names(bare.page));
    await bare.context.close();
    expect((await names(page)).filter((n) => !without.has(n))).toEqual(['VoiceAgentWidget']);
    const launcher = page.locator('[data-voice-agent-widget] .launcher');
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');
    await expectOnScreen(page, 'widget-closed', ['[data-voice-agent-widget] .launcher']);

    await launcher.click();
    const panel = page.getByRole('dialog', { name: 'Ask the bakery' });
    await panel.waitFor();
    expect(await launcher.getAttribute('aria-expanded')).toBe('true');
    await panel.getByText('Hi! Ask me anything.').waitFor();
    // The host's `button { display: none }` and inherited 31px serif do not reach in.
    const look = await page.locator('[data-voice-agent-widget] .call').evaluate((b) => ({ display: getComputedStyle(b).display, font: getComputedStyle(b).fontSize, family: getComputedStyle(b).fontFamily }));
    expect(look.display).not.toBe('none');
    expect(look.font).toBe('15px');
    expect(look.family).not.toMatch(/^serif/);
    expect(await axeViolations(page)).toEqual([]);
    await expectOnScreen(page, 'widget-open', ['[data-voice-agent-widget] h2', '[data-voice-agent-widget] .call', '[data-voice-agent-widget] .close', '[data-voice-agent-widget] .log']);

    // Focus starts in the message box and stays inside the panel.
    const focused = () => page.evaluate(() => document.querySelector('[data-voice-agent-widget]')!.shadowRoot!.activeElement?.className ?? '');
    expect(await focused()).toBe('input');
    const seen = new Set<string>();
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press('Tab');
      seen.add(await focused());
    }
    expect([...seen].sort()).toEqual(['call', 'close', 'input', 'log', 'send']);
    await page.keyboard.press('Shift+Tab');
    expect(['call', 'close', 'input', 'log', 'send']).toContain(await focused());
    await page.keyboard.press('Escape');
    expect(await panel.isVisible()).toBe(false);
    expect(await focused()).toBe('launcher');

    // Phone-sized screen: the open panel fits.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => (window as unknown as { VoiceAgentWidget: { open(): void } }).VoiceAgentWidget.open());
    await expectOnScreen(page, 'widget-phone', ['[data-voice-agent-widget] h2', '[data-voice-agent-widget] .call', '[data-voice-agent-widget] .close']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a voice call: the greeting plays and is captioned, the events fire, hang-up ends it, history records it', async () => {
    const agent = await vp.agent({ name: 'Ava', first_message: 'Hi, this is Ava from the bakery.' });
    const url = hostPage({ 'api-key': await widgetKey([agent._id]), 'agent-id': agent._id });
    const { context, page, problems } = await openHost(url);
    await page.evaluate(() => {
      const w = window as unknown as WithWidget & { events: string[] };
      w.events = [];
      for (const name of ['open', 'call-start', 'call-end', 'message']) w.VoiceAgentWidget.on(name, () => w.events.push(name));
    });
    // The site's own button could call this: start() opens the panel and the call.
    await page.evaluate(() => (window as unknown as { VoiceAgentWidget: { start(): void } }).VoiceAgentWidget.start());
    await waitForState(page, 'live');
    await page.waitForFunction(() => {
      const s = (window as unknown as WithWidget).VoiceAgentWidget.stats;
      return s.samplesPlayed > 16_000 && s.outputRms > 0.01;
    }, undefined, { timeout: WAIT_MS, polling: 50 });
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('Hi, this is Ava from the bakery.').first().waitFor({ timeout: WAIT_MS });
    expect((await page.evaluate(() => (window as unknown as WithWidget).VoiceAgentWidget.stats)).framesSent).toBeGreaterThan(0);
    // The panel says in one short line that the agent is simulated; how to make it real is behind "Details".
    await expectStandInsNotice(page, 'widget-call', { line: 'Simulated locally: speech recognition, the model and the voice.', details: /^Simulated: speech recognition \(Deepgram\).*set DEEPGRAM_API_KEY, OPENAI_API_KEY and ELEVENLABS_API_KEY where the platform runs/, alsoOnScreen: ['[data-voice-agent-widget] .mute', '[data-voice-agent-widget] .hangup', '[data-voice-agent-widget] .status'],
    });

    // The greeting has played to its end (the agent listens): its caption is final, a `message` event.
    await page.waitForFunction(() => (window as unknown as WithWidget).VoiceAgentWidget.stats.agentState === 'listening', undefined, { timeout: WAIT_MS, polling: 50 });
    // Marks were echoed once the audio before them had played (the shared client and playback worklet).
    expect((await page.evaluate(() => (window as unknown as WithWidget).VoiceAgentWidget.stats)).marksEchoed).toBeGreaterThan(0);
    const mute = page.getByRole('button', { name: 'Mute' });
    await mute.click();
    expect(await page.getByRole('button', { name: 'Unmute' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Hang up' }).click();
    const ended = await vp.nextCallEnded();
    await waitForState(page, 'ended');
    await page.getByText('You ended the call.').waitFor();
    const events = await page.evaluate(() => (window as unknown as { events: string[] }).events);
    expect(events.slice(0, 2)).toEqual(['open', 'call-start']);
    expect(events).toContain('message');
    expect(events.at(-1)).toBe('call-end');

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(record.agentType).toBe('voice');
    expect(record.callEndReason).toBe('customer_hangup');
    expect(String(record.callTranscript)).toMatch(/^agent: Hi, this is Ava from the bakery\./);
    expect(record.fullName).toBe(`Web visitor (${hostOrigin})`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a text chat: the visitor types, the answer streams in, a reload keeps the conversation, history records a chat', async () => {
    const agent = await vp.agent({ name: 'Ava', first_message: 'Hello! What can I get you?' });
    const url = hostPage({ 'api-key': await widgetKey([agent._id]), 'agent-id': agent._id, mode: 'chat', title: 'Chat with the bakery' });
    const { context, page, problems } = await openHost(url);
    await page.evaluate(() => {
      const w = window as unknown as WithWidget & { events: string[] };
      w.events = [];
      for (const name of ['chat-start', 'chat-end', 'message']) w.VoiceAgentWidget.on(name, () => w.events.push(name));
    });
    await page.locator('[data-voice-agent-widget] .launcher').click();
    const panel = page.getByRole('dialog', { name: 'Chat with the bakery' });
    await panel.waitFor();
    // data-mode="chat": a message box, no call button.
    expect(await page.locator('[data-voice-agent-widget] .call').isVisible()).toBe(false);
    const box = panel.getByRole('textbox', { name: 'Message' });
    await box.fill('Do you have rye bread?');
    await box.press('Enter');
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('Do you have rye bread?').waitFor();
    await log.getByText(/You said: Do you have rye bread/).waitFor({ timeout: WAIT_MS });
    // The first message came first, and the answer arrived in pieces.
    await log.getByText('Hello! What can I get you?').waitFor();
    expect((await page.evaluate(() => (window as unknown as WithWidget).VoiceAgentWidget.stats)).chatDeltas).toBeGreaterThan(1);
    await page.waitForFunction(() => (window as unknown as WithWidget).VoiceAgentWidget.stats.state === 'ready', undefined, { timeout: WAIT_MS, polling: 50 });
    // The chat runs on the model's stand-in: the panel says so, for the model only.
    await expectStandInsNotice(page, 'widget-chat', { line: 'Simulated locally: the model.', details: /^Simulated: the language model \(OpenAI\) is a local stand-in\..*set OPENAI_API_KEY/, alsoOnScreen: ['[data-voice-agent-widget] .log', '[data-voice-agent-widget] textarea', '[data-voice-agent-widget] .send'],
    });
    const events = await page.evaluate(() => (window as unknown as { events: string[] }).events);
    expect(events).toEqual(['message', 'chat-start', 'message']);

    // A reload in the same tab: the same conversation, from the service, without a new chat.
    await page.reload();
    await page.locator('[data-voice-agent-widget] .launcher').click();
    await log.getByText('Do you have rye bread?').waitFor();
    await log.getByText(/You said: Do you have rye bread/).waitFor();
    await box.fill('And croissants?');
    await box.press('Enter');
    await log.getByText(/You said: And croissants/).waitFor({ timeout: WAIT_MS });
    expect(await log.locator('p').count()).toBe(5);

    // Ended through the JS API: the record is a chat with both questions.
    const ended = new Promise<{ chatId: string }>((resolve) => {
      const off = vp.platform.voice.streaming.onChatEnded((e) => {
        off();
        resolve(e);
      });
    });
    await page.evaluate(() => (window as unknown as { VoiceAgentWidget: { end(): void } }).VoiceAgentWidget.end());
    const { chatId } = await ended;
    await page.getByText('The chat has ended.').waitFor();
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, chatId)) as unknown as Record<string, any>;
    expect(record).toMatchObject({ agentType: 'chat', callEndReason: 'customer_hangup', fullName: `Web visitor (${hostOrigin})` });
    expect(String(record.callTranscript)).toContain('user: And croissants?');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a chat handed off to another agent: the panel names it from the switch on (docs/handoffs.md)', async () => {
    const booking = await vp.agent({ name: 'Booking', system_prompt: 'You are Booking.', first_message: 'Booking here.' });
    const triage = await vp.agent({ name: 'Triage', system_prompt: 'You are Triage.', first_message: 'Triage here.', handoffs: [{ agent_id: booking._id, description: 'the visitor wants to book', context: 'full', variables: [] }] });
    vp.platform.voice.llm.control.set({
      reply: (req) => (/^You are Triage/.test(req.messages.system) && !req.messages.endsWithToolResult ? { toolCalls: [{ name: 'handoff_to_booking', arguments: {} }] } : { text: 'Fine.' }),
    });
    try {
      const url = hostPage({ 'api-key': await widgetKey([triage._id]), 'agent-id': triage._id, mode: 'chat', title: 'Chat with us' });
      const { context, page, problems } = await openHost(url);
      await page.locator('[data-voice-agent-widget] .launcher').click();
      const box = page.getByRole('dialog', { name: 'Chat with us' }).getByRole('textbox', { name: 'Message' });
      await box.fill('I want to book');
      await box.press('Enter');
      const log = page.getByRole('log', { name: 'Conversation' });
      await log.getByText('Booking here.').waitFor({ timeout: WAIT_MS });
      const lines = await log.locator('p').evaluateAll((ps) => ps.map((p) => p.textContent));
      expect(lines).toEqual(['Triage: Triage here.', 'You: I want to book', 'Booking: Booking here.']);
      await page.getByText('Chatting with Booking.').waitFor();
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      vp.platform.voice.llm.control.reset();
    }
  });

  it('a chat with a workspace out of credits says the agent is unavailable', async () => {
    const poor = await createWorkspace(vp.deps.db, { name: 'poor', credits: 0 });
    const agent = await vp.agent({ workspaceId: poor.workspaceId });
    const { apiKey } = await createApiKey(vp.deps.db, poor.workspaceId, 'widget', { agentIds: [agent._id], origins: [hostOrigin] });
    const { context, page, problems } = await openHost(hostPage({ 'api-key': apiKey, 'agent-id': agent._id }));
    await page.locator('[data-voice-agent-widget] .launcher').click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello?');
    await box.press('Enter');
    await waitForState(page, 'error');
    expect(await page.getByRole('alert').textContent()).toMatch(/agent is unavailable right now/);
    // The refused message is not shown as sent.
    expect(await page.getByRole('log', { name: 'Conversation' }).getByText('Hello?').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await expectOnScreen(page, 'widget-chat-unavailable', ['[data-voice-agent-widget] .problem', '[data-voice-agent-widget] textarea']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([
    ['a site not in the key’s list', 'origin', /not available on this site/],
    ['a full-scope key', 'full', /wrong kind of key/],
    ['an agent the key does not name', 'agent', /not available on this site/],
    ['an agent that no longer exists', 'gone', /not available/],
    ['a visitor whose address holds all its sessions', 'busy', /^Too many conversations right now\. Please try again in \d+ seconds\.$/],
  ])('refuses %s, and the panel says so', async (_what, kind, said) => {
    const agent = await vp.agent();
    const other = await vp.agent();
    const keys: Record<string, () => Promise<[string, string]>> = {
      origin: async () => [await widgetKey([agent._id], ['https://shop.example']), agent._id],
      full: async () => [vp.apiKey, agent._id],
      agent: async () => [await widgetKey([other._id]), agent._id],
      gone: async () => [await widgetKey(['agent_01JWRGONE0000000000000000']), 'agent_01JWRGONE0000000000000000'],
      busy: async () => {
        // Sessions started from the page's address (this machine's) and never opened hold its share.
        const apiKey = await widgetKey([agent._id]);
        for (let i = 0; i < vp.deps.config.WIDGET_MAX_SESSIONS_PER_IP; i += 1) {
          const res = await postFrom(`${vp.platform.baseUrl}/widget/chat`, '127.0.0.1', { 'content-type': 'text/plain', origin: hostOrigin }, JSON.stringify({ apiKey, agentId: agent._id }));
          expect(res.status).toBe(200);
        }
        return [apiKey, agent._id];
      },
    };
    const [apiKey, agentId] = await keys[kind]!();
    const { context, page, problems } = await openHost(hostPage({ 'api-key': apiKey, 'agent-id': agentId }));
    await page.locator('[data-voice-agent-widget] .launcher').click();
    await page.getByRole('button', { name: 'Start a call' }).click();
    await waitForState(page, 'error');
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toMatch(said);
    expect(await axeViolations(page)).toEqual([]);
    await expectOnScreen(page, `widget-refused-${kind}`, ['[data-voice-agent-widget] .problem', '[data-voice-agent-widget] .call']);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the widget API', () => {
  const session = (body: unknown, origin?: string) =>
    fetch(`${vp.platform.baseUrl}/widget/session`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...(origin ? { origin } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers a good request with the web session, CORS naming the page’s origin', async () => {
    const agent = await vp.agent();
    const res = await session({ apiKey: await widgetKey([agent._id]), agentId: agent._id }, hostOrigin);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(hostOrigin);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['agentName', 'callId', 'credential', 'expiresAt', 'standIns', 'streamUrl']);
    // The agent runs on the loopback stand-ins: the answer says which of its vendors are simulated.
    expect((body.standIns as unknown as { parts: { capability: string }[] }).parts.map((p) => p.capability)).toEqual(['stt', 'llm', 'tts']);
    expect(body.credential).toMatch(/^wss1\./);
    expect(body.streamUrl).toBe(vp.webUrl);
  });

  it('refuses with the JSON error: full key, foreign or missing origin, unnamed agent, unknown key, bad body', async () => {
    const agent = await vp.agent();
    const key = await widgetKey([agent._id]);
    const cases: [unknown, string | undefined, number, string][] = [
      [{ apiKey: vp.apiKey, agentId: agent._id }, hostOrigin, 403, 'full_key_in_page'],
      [{ apiKey: key, agentId: agent._id }, 'https://evil.example', 403, 'origin_not_allowed'],
      [{ apiKey: key, agentId: agent._id }, undefined, 403, 'origin_not_allowed'],
      [{ apiKey: key, agentId: 'agent_01JWROTHER000000000000000' }, hostOrigin, 403, 'agent_not_allowed'],
      [{ apiKey: 'vak_nobody', agentId: agent._id }, hostOrigin, 401, 'unauthorized'],
      [{ apiKey: key }, hostOrigin, 400, 'validation_failed'],
      ['{not json', hostOrigin, 400, 'invalid_json'],
      [{ apiKey: key, agentId: agent._id, extra: 1 }, hostOrigin, 400, 'validation_failed'],
    ];
    for (const [body, origin, status, code] of cases) {
      const res = await session(body, origin);
      const answer = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, answer.error.code], JSON.stringify(body)).toEqual([status, code]);
      // Readable by the page that asked, so the widget can say why.
      if (origin) expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });

  it('forged-Origin chats that never open a socket: one address takes its share (429 with the true wait), a visitor at another address still gets in', async () => {
    const agent = await vp.agent();
    const apiKey = await widgetKey([agent._id]);
    const body = JSON.stringify({ apiKey, agentId: agent._id });
    // A script outside any browser can send any Origin; what tells visitors apart is the address they come from.
    const start = (path: string, localAddress: string) => postFrom(`${vp.platform.baseUrl}${path}`, localAddress, { 'content-type': 'text/plain', origin: hostOrigin }, body);
    const perIp = vp.deps.config.WIDGET_MAX_SESSIONS_PER_IP;
    expect(perIp).toBeLessThan(vp.deps.config.WIDGET_MAX_SESSIONS_PER_KEY);
    for (let i = 0; i < perIp; i += 1) expect((await start('/widget/chat', '127.0.0.1')).status).toBe(200);
    for (const path of ['/widget/chat', '/widget/session']) {
      const refused = await start(path, '127.0.0.1');
      expect(refused.status, path).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      // At the latest when the first unopened session's pending lease runs out: seconds, not an hour.
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(vp.deps.config.WIDGET_PENDING_LEASE_SECONDS);
      const error = (JSON.parse(refused.body) as { error: { code: string; message: string; details: Record<string, unknown>[] } }).error;
      expect(error).toMatchObject({ code: 'rate_limited', details: [{ policy: 'widget-sessions-ip', limit: perIp, retryAfterSeconds: wait }] });
      expect(error.message).toContain(`within ${wait} seconds`);
      expect(refused.headers['access-control-allow-origin']).toBe(hostOrigin);
    }
    expect((await start('/widget/chat', '127.0.0.2')).status).toBe(200);
    expect((await start('/widget/session', '127.0.0.2')).status).toBe(200);
  });

  it('a widget key is refused by every other endpoint with 403 widget_key', async () => {
    const agent = await vp.agent();
    const key = await widgetKey([agent._id]);
    for (const [method, path] of [['GET', '/api/agents'], ['GET', `/api/agents/${agent._id}`], ['POST', '/api/optimus/meeting-link'], ['GET', '/api/history']] as const) {
      const res = await fetch(`${vp.platform.baseUrl}${path}`, {
        method,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ assistantId: agent._id }) } : {}),
      });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('widget_key');
    }
  });

  it('serves the loader gzipped with an ETag, and the shared audio module to other origins', async () => {
    const loader = await fetch(`${vp.platform.baseUrl}/widget/`, { headers: { 'accept-encoding': 'gzip' } });
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(loader.headers.get('etag')).toBeTruthy();
    expect(await loader.text()).toContain('VoiceAgentWidget');
    const media = await fetch(`${vp.platform.baseUrl}/meeting/assets/meeting-media.js`, { headers: { origin: hostOrigin } });
    expect(media.headers.get('access-control-allow-origin')).toBe('*');
  });
});
