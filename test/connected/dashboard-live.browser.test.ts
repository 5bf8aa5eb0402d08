import { describe, expect, it } from 'vitest';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { eventually } from '../support/calls.js';
import { dashboardRig } from './dashboard-browser-support.js';
import { WAIT_MS } from '../support/progress.js';

/**
 * Invariant: the dashboard's Live page, in Chromium against the whole local platform, lists a real call in
 * progress; its page shows the transcript so far, listens in the browser (both sides' audio frames arrive
 * through the listen socket and play through Web Audio), has the agent say a typed line (it appears in the
 * transcript) and ends the call (`ended_by_api`). Each screen is checked with axe and screenshotted
 * ($MEETING_SCREENSHOT-dashboard-live-*.png).
 */
const rig = dashboardRig();

describe('the dashboard in Chromium: Live', { timeout: 240_000 }, () => {
  it('follows a live call, listens in, says a line and ends it', async () => {
    const { page, problems, context } = await openDashboard(rig.browser);
    const from = await rig.caller(page, 'live-page');
    const { key } = from;
    // A callee who answers and then stays on the line: the page ends the call.
    const to = '+14155550298';
    const callId = await rig.call(from, to, { kind: 'answer', lines: ['Hi, yes, speaking.', { pauseMs: 180_000 }] });
    // Connected: the stream started (the page's controls need it).
    await eventually(async () => ((await rig.p.api(key, 'GET', `/api/calls/${callId}`)).body.transcript?.length ? true : undefined), 120_000, 'the call connected');

    await page.getByRole('link', { name: 'Live', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Live' }).waitFor();
    const row = page.getByRole('table', { name: 'Calls in progress' }).getByRole('row', { name: new RegExp(`\\${to}`) });
    await row.waitFor();
    await checkScreen(page, 'live-list', ['table']);
    await row.getByRole('link').click();
    await page.waitForURL(new RegExp(`/dashboard/live/${callId}$`));
    await page.getByRole('heading', { level: 1, name: 'Call in progress' }).waitFor();
    await page.getByTestId('live-transcript').getByText('this is the clinic calling').waitFor();

    await page.getByRole('button', { name: 'Listen in' }).click();
    const status = page.getByTestId('listen-status');
    await status.getByText(/^Listening/).waitFor();
    // Both sides arrive: the callee's words on the caller channel, the agent's answer on the agent channel.
    // The callee has answered and the agent replied: the line is said into a quiet call, not over the callee.
    await page.getByTestId('live-transcript').getByText(/How can I help with that\?/).waitFor({ timeout: WAIT_MS });
    await page.getByText('Listening', { exact: true }).first().waitFor();
    await fill(page, 'Line for the agent to say', 'A supervisor is on the line.');
    await page.getByLabel('When').selectOption('interrupt');
    await page.getByRole('button', { name: 'Say', exact: true }).click();
    await page.getByTestId('live-transcript').getByText('A supervisor is on the line.').waitFor({ timeout: WAIT_MS });
    await page.waitForFunction(() => {
      const m = /\((\d+) caller and (\d+) agent frames\)/.exec(document.querySelector('[data-testid=listen-status]')?.textContent ?? '');
      return m !== null && Number(m[1]) > 0 && Number(m[2]) > 0;
    });
    await page.getByTestId('captions').getByText('A supervisor is on the line.').waitFor();
    await checkScreen(page, 'live-call', ['[data-testid=live-transcript]', '[data-testid=captions]', 'form.inline-form']);

    await page.getByRole('button', { name: 'End call' }).click();
    await page.getByRole('heading', { level: 1, name: 'Call ended' }).waitFor({ timeout: WAIT_MS });
    await page.getByRole('link', { name: 'Open its record' }).waitFor({ timeout: WAIT_MS });
    await checkScreen(page, 'live-ended', ['.notice']);
    const record = await rig.p.api(key, 'GET', `/api/history/${callId}`);
    expect(record.body.callEndReason).toBe('ended_by_api');
    expect(String(record.body.callTranscript)).toContain('agent: A supervisor is on the line.');
    expect(problems).toEqual([]);
    await context.close();
  });
});
