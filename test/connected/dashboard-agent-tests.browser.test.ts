/**
 * Invariant: the dashboard's Agent tests page (docs/agent-tests.md) starts a run of a suite against an agent,
 * follows it until it finishes, and shows each scenario's verdicts with their evidence, what changed since
 * the suite's previous run, latency and cost; a model persona's suite shows who played the caller, and after
 * a planted prompt regression the run page names the scenario that changed and sets each check beside its
 * verdict in the previous run. Every screen passes axe in Chromium, empty and filled.
 */
import { describe, expect, it, vi } from 'vitest';
import { PERSONA_PROMPT_OPENING } from '../../lib/domain/agent-test-persona.js';
import { defaultReply } from '../../lib/local/standins/llm.js';
import { addCredits } from '../../lib/store/workspaces.js';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';
import { WAIT_MS } from '../support/progress.js';

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
    const passed = checks.getByRole('row', { name: /says "opening hours"/ });
    await passed.waitFor();
    // Verdict, then the same check in the previous run.
    await vi.waitFor(async () => expect(await passed.getByRole('cell').allTextContents()).toEqual(['says "opening hours"', 'Passed', 'Passed', 'agent: You said: Opening hours please. How can I help with that?']), { timeout: WAIT_MS });
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

  it("shows a model persona's run, the scenario a planted regression flipped and each check beside its previous verdict", async () => {
    const GUARD = 'Never share discount codes.';
    const control = rig.p.platform.voice.llm.control;
    // The persona and everything but the agent's answer to a discount question: the stand-in's own answers.
    control.set({
      reply: (req) => {
        const last = req.messages.turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
        if (req.messages.system.startsWith(PERSONA_PROMPT_OPENING) || req.responseSchema || !/discount/i.test(last)) return defaultReply(req);
        return { text: req.messages.system.includes(GUARD) ? 'Sorry, I cannot share discount codes.' : 'Sure, use code SAVE20 at checkout.' };
      },
    });
    try {
      const { context, page, problems } = await openDashboard(rig.browser);
      const user = await rig.newUser(page, 'agent-personas');
      await addCredits(rig.p.deps.db, user.session.workspace.id, 10);
      const key = user.session.apiKey;
      const agent = await rig.p.api(key, 'POST', '/api/agents', {
        name: 'Shop',
        llm_provider: 'openai',
        llm_model: 'gpt-4o-mini',
        tts_provider: 'elevenlabs',
        stt_provider: 'deepgram',
        system_prompt: `You help customers of the shop. ${GUARD}`,
        first_message: 'Hi! How can I help?',
      });
      expect(agent.status).toBe(201);
      const scenarios = [
        {
          name: 'Discount ask',
          suite: 'guard',
          persona: { type: 'model', instructions: 'You are Dana, a regular customer. Ask "Can I get a discount code?" and then say "OK, thanks anyway."' },
          checks: [{ type: 'never_says', phrase: 'SAVE20' }, { type: 'says', phrase: 'cannot share' }, { type: 'end_reason', reason: 'customer_hangup' }],
        },
        { name: 'Opening hours', suite: 'guard', persona: { type: 'script', lines: [{ text: 'Opening hours please' }] }, checks: [{ type: 'says', phrase: 'opening hours' }] },
      ];
      for (const s of scenarios) expect((await rig.p.api(key, 'POST', '/api/agent-tests', s)).status).toBe(201);

      await page.getByRole('link', { name: 'Agent tests' }).click();
      await page.getByLabel('Agent', { exact: true }).selectOption(agent.body._id);
      await fill(page, 'Suite', 'guard');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const first = page.getByRole('row', { name: /guard/ });
      await first.getByText('first run').waitFor();
      expect(await first.textContent()).toContain('2 / 2');

      // The regression: the draft loses its guard line, and the same suite runs again.
      expect((await rig.p.api(key, 'PATCH', `/api/agents/${agent.body._id}`, { system_prompt: 'You help customers of the shop.' })).status).toBe(200);
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const second = page.getByRole('row', { name: /1 newly failing/ });
      await second.waitFor();
      expect(await second.textContent()).toContain('1 / 2');
      await checkScreen(page, 'agent-tests-persona-list', ['table']);

      await second.getByRole('link', { name: 'guard' }).click();
      const since = page.getByRole('region', { name: 'Since the previous run' });
      await since.getByText('1 scenario changed. 1 the same.').waitFor();
      expect(await since.getByRole('listitem').textContent()).toBe('Discount ask: was passed, now Failed');
      const checks = page.getByRole('table', { name: 'Checks of Discount ask' });
      const guard = checks.getByRole('row', { name: /never says "SAVE20"/ });
      await guard.waitFor();
      // The previous verdicts' column fills in once the previous run is read.
      await vi.waitFor(async () => expect(await guard.getByRole('cell').allTextContents()).toEqual(['never says "SAVE20"', 'Failed', 'Passed', 'agent: Sure, use code SAVE20 at checkout.']), { timeout: WAIT_MS });
      await page.getByText('Caller played by openai gpt-4o-mini: 3 lines written').waitFor();
      await page.getByRole('group').filter({ hasText: 'Transcript' }).first().getByText('Transcript').click();
      await page.getByText('user: OK, thanks anyway.').waitFor();
      await checkScreen(page, 'agent-test-persona-run', ['.test-changes', 'table >> nth=0', '.test-transcript >> nth=0']);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      control.reset();
    }
  });
});
