import { describe, expect, it } from 'vitest';
import type { HistoryRecord } from '../../lib/domain/history.js';
import { newId } from '../../lib/domain/ids.js';
import { putNewHistoryRecord } from '../../lib/store/history.js';
import { checkScreen, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';

/**
 * The call page says what the caller waited for each answer, in Chromium against the whole local
 * platform: the call's typical, 90th-percentile and longest wait, then per turn the wait and each stage's
 * share of it in words (a turn the agent never answered says so instead of showing 0), with bars on one
 * scale for the call; readable at a desktop and a phone width (nothing wider than the screen) and with no
 * axe violation at either ($MEETING_SCREENSHOT-dashboard-caller-wait-*.png keeps the screens).
 */
const rig = dashboardRig();

const wait = (totalMs: number, endOfTurnMs: number, llmFirstTokenMs: number | null, llmFirstPhraseMs: number | null, ttsFirstByteMs: number | null, otherMs: number) => ({ totalMs, endOfTurnMs, llmFirstTokenMs, llmFirstPhraseMs, ttsFirstByteMs, otherMs });
const stages = (sttMs: number, llm: number | null, phrase: number | null, tts: number | null, overhead: number | null) => ({ sttMs, llmFirstTokenMs: llm, llmFirstPhraseMs: phrase, ttsFirstByteMs: tts, overheadMs: overhead });

/** Four caller turns: answered, cut before the agent spoke, a slow one, and one answered by a filler before the model's first token. */
const TURNS = [
  { ...stages(300.2, 398.4, 80.6, 120.3, 5.9), callerWait: wait(905, 300, 398, 81, 120, 6) },
  { ...stages(280.5, null, null, null, null), callerWait: null },
  { ...stages(610.7, 702.2, 95.1, 66.4, 6.1), callerWait: wait(1480, 611, 702, 95, 66, 6) },
  { ...stages(240, null, null, 140.2, null), callerWait: wait(640, 240, null, null, 140, 260) },
];

describe('the dashboard in Chromium: the caller’s wait', { timeout: 240_000 }, () => {
  it('shows the call’s waits and each turn’s parts, at desktop and phone widths', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'caller-wait');
    const id = newId('call');
    const record = {
      _id: id,
      agentType: 'voice',
      fullName: 'Grace Hopper',
      mobileNumber: '+14155550188',
      callDuration: 48,
      callEndReason: 'customer_hangup',
      callTranscript: 'agent: Hello, Bayview Dental.\nuser: I need to move my appointment.\nagent: Sure, to when?\nuser: Friday.\nagent: Friday at ten works.\nuser: Thanks.\nagent: You are welcome.',
      callSummary: 'The caller moved their appointment to Friday at ten.',
      callCost: 0.8,
      workspace_id: user.session.workspace.id,
      createdAt: new Date().toISOString(),
      turnLatencies: TURNS,
      latencySummary: { turns: 4, measuredTurns: 3, callerWaitP50Ms: 905, callerWaitP90Ms: 1480, callerWaitMaxMs: 1480 },
    } as unknown as HistoryRecord;
    expect(await putNewHistoryRecord(rig.p.deps.db, record)).toBe(true);

    await page.goto(`${rig.p.baseUrl}/dashboard/history/${id}`);
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    const section = page.locator('section:has(#latency-heading)');
    const summary = section.getByTestId('wait-summary');
    await summary.waitFor();
    // Each figure under its name (the list puts the name first for screen readers).
    const figures = await summary.locator('div').evaluateAll((items) => items.map((d) => `${d.querySelector('dt')!.textContent}: ${d.querySelector('dd')!.textContent}`));
    expect(figures).toEqual(['Typical wait: 905 ms', '9 in 10 turns within: 1,480 ms', 'Longest: 1,480 ms', 'Turns timed: 3 of 4']);

    // The section's top at the top of the screen, below the phone layout's sticky bar.
    const showSection = () =>
      section.evaluate((el) => {
        el.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -(document.querySelector('.topbar')?.getBoundingClientRect().height ?? 0) - 8);
      });
    const rows = section.getByTestId('caller-wait');
    expect(await rows.count()).toBe(4);
    const partsOf = (i: number) => rows.nth(i).locator('.wait-parts li').allInnerTexts();
    expect(await rows.nth(0).locator('.wait-head').innerText()).toMatch(/^Turn 1\s+waited 905 ms$/);
    expect(await partsOf(0)).toEqual(['End of turn 300 ms', 'LLM first token 398 ms', 'LLM first phrase 81 ms', 'TTS first byte 120 ms', 'Other 6 ms']);
    // Cut before the agent spoke: no figure, and the reason, not a 0.
    expect(await rows.nth(1).innerText()).toMatch(/^Turn 2\s+not timed\s+The agent had not spoken when the caller went on/);
    expect(await rows.nth(1).locator('svg').count()).toBe(0);
    expect(await partsOf(2)).toEqual(['End of turn 611 ms', 'LLM first token 702 ms', 'LLM first phrase 95 ms', 'TTS first byte 66 ms', 'Other 6 ms']);
    // A stage that never happened is left out rather than shown as 0.
    expect(await partsOf(3)).toEqual(['End of turn 240 ms', 'TTS first byte 140 ms', 'Other 260 ms']);
    // The bars share the call's scale: the longest wait fills its bar, the others their share of it.
    const barWidths = (i: number) => rows.nth(i).locator('svg rect:not(.wait-track)').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('width'))));
    expect((await barWidths(2)).reduce((a, b) => a + b, 0)).toBeCloseTo(1000, 6);
    expect((await barWidths(0)).reduce((a, b) => a + b, 0)).toBeCloseTo((905 / 1480) * 1000, 6);
    // The stage figures stay one click away.
    await section.getByText('Each stage’s own time per turn (ms)').click();
    await section.getByRole('table', { name: 'Latency per turn in milliseconds' }).waitFor();
    await showSection();
    await checkScreen(page, 'caller-wait', ['#latency-heading', '[data-testid=wait-summary]']);

    // A phone's width: the figures wrap, nothing runs off the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await showSection();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    for (const part of await rows.nth(0).locator('.wait-parts li').all()) {
      const box = (await part.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await checkScreen(page, 'caller-wait-narrow', ['#latency-heading', '[data-testid=wait-summary]']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
