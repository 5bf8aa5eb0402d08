import { describe, expect, it } from 'vitest';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';
import { WAIT_MS } from '../support/progress.js';

/**
 * The agent page's sound settings in Chromium: ambience on with a sound, a volume and a preview that plays
 * in the page (Web Audio, the same beds the calls use), and the pronunciation list, saved as the API stores
 * them; a refused entry shows the API's reason. Every screen is checked with axe and a screenshot.
 */
const rig = dashboardRig();

describe('the agent page: ambience and pronunciations', { timeout: 240_000 }, () => {
  it('sets the bed, previews it, edits the pronunciations and saves them', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'agent-sound');
    const key = user.session.apiKey;
    const agent = await rig.p.api(key, 'POST', '/api/agents', { name: 'Clinic line', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'cartesia', stt_provider: 'deepgram' });
    const agentId = agent.body._id as string;
    await page.goto(`${rig.p.baseUrl}/dashboard/agents/${agentId}`);
    await page.getByRole('heading', { name: 'Clinic line' }).waitFor();
    // Nothing changed yet: an agent without these settings is not "dirty".
    expect(await page.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);

    await page.getByLabel('Play background ambience').check();
    await page.getByLabel('Sound').selectOption('cafe');
    await page.getByLabel(/^Volume/).fill('0.45');
    expect(await page.getByLabel(/^Volume/).inputValue()).toBe('0.45');
    const preview = page.getByRole('button', { name: 'Play preview' });
    await preview.click();
    await page.getByRole('button', { name: 'Stop preview' }).waitFor();
    expect(await page.getByRole('button', { name: 'Stop preview' }).getAttribute('aria-pressed')).toBe('true');
    // The preview stops by itself after a few seconds.
    await page.getByRole('button', { name: 'Play preview' }).waitFor({ timeout: WAIT_MS });

    await page.getByRole('button', { name: 'Add a word' }).click();
    await fill(page, 'Word 1', 'Nguyen');
    await fill(page, 'Say word 1 as', 'Win');
    await page.getByRole('button', { name: 'Add a word' }).click();
    await fill(page, 'Word 2', 'cartesia');
    await page.getByLabel('How word 2 is given').selectOption('ipa');
    await fill(page, 'Phonemes for word 2', 'k ɑ ɹ ˈ t i ʒ ə');
    await page.locator('.ambience').scrollIntoViewIfNeeded();
    await checkScreen(page, 'agent-ambience', ['.ambience', '.ambience select', '.ambience input[type="range"]']);
    await page.locator('.pronunciations').scrollIntoViewIfNeeded();
    await checkScreen(page, 'agent-pronunciations', ['.pronunciations', '.pron-row:nth-child(2)']);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    const stored = await rig.p.api(key, 'GET', `/api/agents/${agentId}`);
    expect(stored.body).toMatchObject({
      ambience_enabled: true,
      ambience: { sound: 'cafe', volume: 0.45 },
      pronunciations: [
        { word: 'Nguyen', say_as: 'Win' },
        { word: 'cartesia', phoneme: 'k ɑ ɹ ˈ t i ʒ ə', alphabet: 'ipa' },
      ],
    });

    // ARPAbet is not something Cartesia reads: the API's reason is shown, nothing is saved.
    await page.getByRole('button', { name: 'Add a word' }).click();
    await fill(page, 'Word 3', 'talon');
    await page.getByLabel('How word 3 is given').selectOption('cmu-arpabet');
    await fill(page, 'Phonemes for word 3', 'T AE1 L AH0 N');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/pronunciations\.2\.phoneme.*cmu-arpabet/);
    await checkScreen(page, 'agent-sound-refused', ['.notice-error']);
    expect((await rig.p.api(key, 'GET', `/api/agents/${agentId}`)).body.pronunciations).toHaveLength(2);

    // A custom file: the URL field replaces the preview; a private address is refused with the reason.
    await page.getByRole('button', { name: 'Remove word 3' }).click();
    await page.getByLabel('Sound').selectOption('custom');
    await fill(page, 'WAV file URL', 'https://10.1.2.3/bed.wav');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/ambience\.sound.*private/).waitFor();
    await fill(page, 'WAV file URL', 'https://cdn.example.com/lobby.wav');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await rig.p.api(key, 'GET', `/api/agents/${agentId}`)).body.ambience).toEqual({ sound: 'https://cdn.example.com/lobby.wav', volume: 0.45 });
    expect(problems).toEqual([]);
    await context.close();
  });
});
