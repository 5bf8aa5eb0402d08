import { describe, expect, it } from 'vitest';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';

/**
 * Invariant: the agent page's language picker says which speech-recognition and voice providers take the
 * chosen language (the tables the API checks against), names a chosen provider that does not before the
 * save, offers a Deepgram voice of that language, and saves the language the API then returns; checked with
 * axe and a screenshot (saved under $MEETING_SCREENSHOT-dashboard-*.png when that variable is set).
 */
const rig = dashboardRig();

describe('the agent page in Chromium', { timeout: 240_000 }, () => {
  it('Agents: a language shows who supports it, warns about a provider that does not, and is saved', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'agent-language');
    await page.getByRole('link', { name: 'New agent' }).first().click();
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    await fill(page, 'Name', 'Recepción');
    const support = page.locator('.language-support dd');

    // Hindi: AssemblyAI does not transcribe it, and Aura-2 has no Hindi voice.
    await page.getByLabel('Speech recognition').selectOption('assemblyai');
    await page.getByLabel('Language', { exact: true }).selectOption('hi-IN');
    expect(await support.allTextContents()).toEqual(['Deepgram (Nova-3), Speechmatics, OpenAI (gpt-4o-transcribe)', 'ElevenLabs, Cartesia']);
    const warning = page.locator('.language-picker [role="alert"]');
    await warning.waitFor();
    expect(await warning.textContent()).toBe('AssemblyAI (Universal Streaming) does not support this language; Deepgram Aura does not support this language. Pick a provider listed above.');
    await page.getByText('None of this provider’s voices here speaks the chosen language.').waitFor();
    await page.locator('.language-picker').scrollIntoViewIfNeeded();
    await checkScreen(page, 'agent-language-warning', ['.language-picker', '.language-picker [role="alert"]']);

    // Spanish: both take it, and the Deepgram voices offered are the Spanish ones.
    await page.getByLabel('Language', { exact: true }).selectOption('es-ES');
    await warning.waitFor({ state: 'detached' });
    // The vendor's own list (GET /api/voices), Spanish voices only.
    await page.getByLabel('Nestor').waitFor();
    const offered = await page.locator('.voice input[name="voice"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(offered.length).toBeGreaterThan(1);
    expect(offered.every((id) => id.endsWith('-es')), offered.join()).toBe(true);
    await page.getByLabel('Nestor').check();
    await page.locator('.language-picker').scrollIntoViewIfNeeded();
    await checkScreen(page, 'agent-language', ['.language-picker']);
    await page.locator('.voices').scrollIntoViewIfNeeded();
    await checkScreen(page, 'agent-language-voices', ['.voice.selected']);
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/dashboard\/agents\/agt_/);
    const agentId = page.url().split('/').pop()!;
    const stored = await rig.p.api(user.session.apiKey, 'GET', `/api/agents/${agentId}`);
    expect(stored.body).toMatchObject({ language: 'es-ES', stt_provider: 'assemblyai', tts_provider: 'deepgram', tts_voice_id: 'aura-2-nestor-es' });

    // Saved, the page reads it back; an unsupported pair sent anyway is refused in the API's words.
    await page.reload();
    expect(await page.getByLabel('Language', { exact: true }).inputValue()).toBe('es-ES');
    await page.getByLabel('Language', { exact: true }).selectOption('multi');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.notice-error').waitFor();
    expect(await page.locator('.notice-error').textContent()).toContain('deepgram does not speak multi (automatic detection)');
    expect((await rig.p.api(user.session.apiKey, 'GET', `/api/agents/${agentId}`)).body).toMatchObject({ language: 'es-ES' });
    expect(problems).toEqual([]);
    await context.close();
  });
});
