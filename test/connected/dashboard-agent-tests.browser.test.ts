/**
 * Invariant: the dashboard's Agent tests page (docs/agent-tests.md) starts a run of a suite against an agent,
 * follows it until it finishes, and shows each scenario's verdicts with their evidence, what changed since
 * the suite's previous run, latency and cost; every screen passes axe in Chromium, empty and filled.
 */
import { describe, expect, it } from 'vitest';
import { addCredits } from '../../lib/store/workspaces.js';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';

const rig = dashboardRig();

describe('the Agent tests page in Chromium', { timeout: 240_000 }, () => {
  it('runs a suite, follows it, and shows the verdicts with their evidence and the change since the last run', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'agent-tests');
    await addCredits(rig.p.deps.db, user.session.workspace.id, 10);
    const key = user.session.apiKey;
    const agent = await rig.p.api(key, 'POST', '/api/agents', {
      name: 'Front desk',
      llm_provider: 'openai',
      llm_model: 'gpt-4o-mini',
      tts_provider: 'elevenlabs',
      stt_provider: 'deepgram',
      system_prompt: 'You answer questions.',
      first_message: 'Hello!',
    });
    expect(agent.status).toBe(201);

    await page.getByRole('link', { name: 'Agent tests' }).click();
    await page.getByText('No test runs yet').waitFor();
    await checkScreen(page, 'agent-tests-empty', ['#start-run-heading']);

    // The model stand-in echoes the caller ("You said: ..."): one check passes, one fails with the line as evidence.
    const scenario = await rig.p.api(key, 'POST', '/api/agent-tests', {
      name: 'Echo',
      suite: 'smoke',
      persona: { type: 'script', lines: [{ text: 'Opening hours please' }] },
      checks: [{ type: 'says', phrase: 'opening hours' }, { type: 'never_says', phrase: 'you said' }],
    });
    expect(scenario.status).toBe(201);
    await page.getByLabel('Agent', { exact: true }).selectOption(agent.body._id);
    await fill(page, 'Suite', 'smoke');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const row = page.getByRole('row', { name: /smoke/ });
    await row.getByText('Failed').waitFor();
    expect(await row.textContent()).toContain('0 / 1');

    // The same suite again: the run page compares it with the first one.
    const second = await rig.p.api(key, 'POST', '/api/agent-tests/runs', { agentId: agent.body._id, suite: 'smoke' });
    expect(second.status).toBe(202);
    await page.goto(`${rig.p.baseUrl}/dashboard/agent-tests/${second.body._id}`);
    await page.getByRole('heading', { name: /Echo/ }).getByText('Failed').waitFor();
    const checks = page.getByRole('table', { name: 'Checks of Echo' });
    await checks.getByRole('row', { name: /says "opening hours"/ }).getByText('Passed').waitFor();
    const failed = checks.getByRole('row', { name: /never says "you said"/ });
    expect(await failed.textContent()).toContain('agent: You said: Opening hours please. How can I help with that?');
    await page.getByRole('link', { name: 'the previous run' }).waitFor();
    await page.getByText('Transcript').click();
    await page.getByText('user: Opening hours please').waitFor();
    await checkScreen(page, 'agent-test-run', ['table', '.test-transcript']);

    await page.getByRole('link', { name: 'Agent tests' }).click();
    await page.getByRole('row', { name: /smoke/ }).nth(1).waitFor();
    await checkScreen(page, 'agent-tests-list', ['table']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
