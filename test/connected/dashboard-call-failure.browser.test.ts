import { afterEach, describe, expect, it } from 'vitest';
import { restoreStandinEntries, withdrawStandinEntry } from '../../lib/local/standins/catalog.js';
import { updateAgent } from '../../lib/store/agents.js';
import { forgetCatalogues } from '../../lib/vendors/catalogue.js';
import { checkScreen, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';

/**
 * The dashboard shows why a call failed and what happened in it, in Chromium against the whole local
 * platform: a phone call whose voice was withdrawn from the vendor after the agent was saved ends
 * `tts_voice_not_found`, and its page shows the stage, vendor, vendor code and message (the record's
 * `callError`) and the call's timeline (`GET /api/history/{id}/events`); the agent editor's voice picker
 * lists the vendor's own voices (`GET /api/voices`), without the withdrawn one. A call whose custom ambience
 * file cannot be had goes on, and its timeline says why. Each screen is checked with
 * axe and screenshotted ($MEETING_SCREENSHOT-dashboard-*.png).
 */
const rig = dashboardRig();

/** A premade ElevenLabs voice the stand-in has until the test withdraws it. */
const SARAH = 'EXAVITQu4vr4xnSDxMaL';

afterEach(() => {
  restoreStandinEntries();
  forgetCatalogues();
});

describe('the dashboard in Chromium: why a call failed', { timeout: 240_000 }, () => {
  it('the call page shows the failure and the timeline; the voice picker lists what the vendor has', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const from = await rig.caller(page, 'failure');
    const { key, agentId } = from;
    const patched = await rig.p.api(key, 'PATCH', `/api/agents/${agentId}`, { tts_provider: 'elevenlabs', tts_voice_id: SARAH });
    expect(patched.status).toBe(200);

    // The voice disappears at the vendor; the agent still names it. The platform's cached list (read by the
    // save) is let go, as ten minutes later it would be.
    withdrawStandinEntry(SARAH);
    forgetCatalogues();
    const callId = await rig.call(from, '+14155550277', { kind: 'answer', lines: ['Hello?', { pauseMs: 5_000 }] });

    await page.goto(`${rig.p.baseUrl}/dashboard/history/${callId}`);
    const failure = page.getByTestId('call-error');
    await failure.waitFor({ timeout: 120_000 });
    expect(await page.locator('.stat', { hasText: 'Ended' }).textContent()).toContain('Failed: voice not found');
    const text = (await failure.textContent()) ?? '';
    expect(text).toContain('Voice');
    expect(text).toContain('elevenlabs');
    expect(text).toContain('voice_not_found');
    expect(text).toContain(SARAH);
    expect(text).toContain('Pick another voice');
    // The timeline: the failure as a call-ending error, then the end.
    await page.getByRole('table', { name: 'What happened in the call, in time order' }).waitFor();
    expect(await page.getByTestId('event-error').textContent()).toContain('Call-ending error at elevenlabs');
    expect(await page.getByTestId('event-ended').textContent()).toContain('tts_voice_not_found');
    await checkScreen(page, 'call-failed', ['[data-testid=call-error]']);
    await page.locator('#timeline-heading').scrollIntoViewIfNeeded();
    await checkScreen(page, 'call-timeline', ['#timeline-heading', '[data-testid=event-ended]']);

    // The voice picker reads the vendor's list: Sarah is gone from it; the agent's voice stays selectable.
    await page.goto(`${rig.p.baseUrl}/dashboard/agents/${agentId}`);
    await page.getByText(/voices this workspace can use at elevenlabs/).waitFor();
    const grid = page.getByTestId('voice-grid');
    expect(await grid.getByText('Rachel', { exact: true }).count()).toBe(1);
    expect(await grid.getByText('Sarah', { exact: true }).count()).toBe(0);
    expect(await grid.getByText('Custom voice').count()).toBe(1);
    await grid.getByText(/not in the vendor’s list/).waitFor();
    await checkScreen(page, 'voice-picker', ['[data-testid=voice-grid]', '.voice.selected']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the call page says why the ambience file was not played', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const from = await rig.caller(page, 'ambience');
    // Stored as an older record might have it: the fetch at call time is guarded as the save is.
    await updateAgent(rig.p.deps.db, from.user.session.workspace.id, from.agentId, { ambience_enabled: true, ambience: { sound: 'https://127.0.0.1:9/lobby.wav', volume: 0.3 } });
    const callId = await rig.call(from, '+14155550278', { kind: 'answer', lines: ['Hello?'] });

    await page.goto(`${rig.p.baseUrl}/dashboard/history/${callId}`);
    const row = page.getByTestId('event-ambience_unavailable');
    await row.waitFor({ timeout: 120_000 });
    expect(await row.textContent()).toMatch(/^Ambience file not played: .*127\.0\.0\.1/);
    expect(await page.getByTestId('call-error').count()).toBe(0);
    await row.scrollIntoViewIfNeeded();
    await checkScreen(page, 'call-timeline-ambience', ['#timeline-heading', '[data-testid=event-ambience_unavailable]']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
