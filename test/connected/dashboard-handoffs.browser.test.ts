/**
 * Invariant: the dashboard edits an agent's handoffs (docs/handoffs.md) and shows a handed-off call's agents.
 * The agent form lists the workspace's other agents (never the agent itself) as destinations; one added with
 * its description, context and a value to gather is saved as `handoffs`, shown again on reload, and removed
 * with `[]`. A history record with `segments` shows who ran which part and why. Screens pass axe.
 */
import { describe, expect, it } from 'vitest';
import { putNewHistoryRecord } from '../../lib/store/history.js';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';

const rig = dashboardRig();

describe('handoffs in the dashboard', { timeout: 240_000 }, () => {
  it('adds a destination with its description, context and a value to gather, saves, reloads, removes; the call page shows segments', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'handoffs');
    const key = user.session.apiKey;
    const agent = async (name: string) => (await rig.p.api(key, 'POST', '/api/agents', { name, llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram' })).body._id as string;
    const triage = await agent('Triage desk');
    const booking = await agent('Booking desk');
    await page.goto(`${rig.p.baseUrl}/dashboard/agents/${triage}`);
    await page.getByRole('heading', { name: 'Triage desk' }).waitFor();
    const add = page.getByLabel('Add a handoff destination');
    // The agent itself is never a destination (the list is read once the workspace's agents have loaded).
    await add.locator('option', { hasText: 'Booking desk' }).waitFor({ state: 'attached' });
    expect(await add.locator('option').allTextContents()).toEqual(['Choose an agent…', 'Booking desk']);
    await add.selectOption(booking);
    await fill(page, 'When to hand over to Booking desk', 'the caller wants to book a visit');
    await page.getByLabel('What travels').selectOption('summary');
    await page.getByRole('button', { name: 'Add a value to gather' }).click();
    await fill(page, 'Variable name', 'visit_date');
    await fill(page, 'What it is', 'the day of the visit');
    await checkScreen(page, 'agent-handoffs', ['.handoff-editor legend']);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await rig.p.api(key, 'GET', `/api/agents/${triage}`)).body.handoffs).toEqual([
      { agent_id: booking, description: 'the caller wants to book a visit', context: 'summary', variables: [{ name: 'visit_date', type: 'string', description: 'the day of the visit', required: true }] },
    ]);
    await page.reload();
    await page.getByRole('heading', { name: 'Triage desk' }).waitFor();
    expect(await page.getByLabel('When to hand over to Booking desk').inputValue()).toBe('the caller wants to book a visit');
    await page.getByRole('listitem').filter({ hasText: 'Booking desk' }).getByRole('button', { name: 'Remove' }).last().click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await rig.p.api(key, 'GET', `/api/agents/${triage}`)).body.handoffs).toEqual([]);

    const callId = 'call_01JWRFHANDOFFDASHBOARD0001';
    await putNewHistoryRecord(rig.p.deps.db, {
      _id: callId, agentType: 'voice', agentId: triage, fullName: 'Ada', mobileNumber: '+14155550100', callDuration: 42, callEndReason: 'customer_hangup',
      callTranscript: 'agent: Triage.\nuser: Book me.\nagent: Booking for Friday.', callSummary: 'Booked.', callCost: 1, workspace_id: user.session.workspace.id, createdAt: new Date().toISOString(),
      segments: [
        { agentId: triage, agentName: 'Triage desk', startSecond: 0, endSecond: 12.5 },
        { agentId: booking, agentName: 'Booking desk', startSecond: 12.5, endSecond: 42, handoff: { fromAgentId: triage, reason: 'the caller wants to book a visit', context: 'summary', variables: { visit_date: 'Friday' } } },
      ],
    });
    await page.goto(`${rig.p.baseUrl}/dashboard/history/${callId}`);
    const table = page.getByRole('table', { name: /Which agent ran which part/ });
    await table.waitFor();
    expect(await table.getByRole('row').allInnerTexts()).toEqual([
      expect.stringMatching(/Agent\s+From\s+To\s+Why\s+Gathered/i),
      expect.stringMatching(/Triage desk\s+0\.0 s\s+12\.5 s\s+the call’s agent/),
      expect.stringMatching(/Booking desk\s+12\.5 s\s+42\.0 s\s+the caller wants to book a visit \(summary\)\s+\{"visit_date":"Friday"\}/),
    ]);
    await checkScreen(page, 'history-segments', ['#segments-heading']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
