import { describe, expect, it } from 'vitest';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { knowledgePrefix } from '../../lib/store/knowledge-objects.js';
import { knowledgeDepsOf } from '../../lib/services/knowledge.js';
import { dashboardRig } from './dashboard-browser-support.js';
import { newId } from '../../lib/domain/ids.js';
import { putNewHistoryRecord } from '../../lib/store/history.js';
import { WAIT_MS } from '../support/progress.js';

/**
 * The knowledge page in Chromium (docs/knowledge.md): a new user creates a knowledge base, uploads a
 * Markdown FAQ and adds a text, watches both go from processing to ready without reloading, searches and
 * sees the matching chunk with its source, names the base on a new agent, sees on a call's page which chunks
 * its answer was given, and deletes a document and then
 * the base (their objects gone from the bucket). Every screen is checked with axe and a screenshot.
 */
const FAQ = '# FAQ\n\n## Parking\n\nFree parking is available behind the building on Harbor Street.\n\n## Hours\n\nWe are open Monday to Friday, 8am to 6pm.\n';

const rig = dashboardRig();

describe('the knowledge page in Chromium', { timeout: 240_000 }, () => {
  it('creates a base, uploads and adds documents, shows their ingestion, searches and deletes', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'knowledge');
    await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Knowledge bases' }).waitFor();
    await page.getByText('No knowledge base yet').waitFor();
    await checkScreen(page, 'knowledge-empty', ['main h1', 'form[aria-label="Create a knowledge base"]']);

    await fill(page, 'Name', 'Front desk');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.waitForURL(/\/dashboard\/knowledge\/kb_/);
    const kbId = page.url().split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: 'Front desk' }).waitFor();

    await page.getByLabel(/^File/).setInputFiles({ name: 'faq.md', mimeType: 'text/markdown', buffer: Buffer.from(FAQ) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('cell', { name: 'faq.md', exact: true }).waitFor();
    await fill(page, 'Text name', 'Cancellations');
    await fill(page, 'Text', 'Cancelling less than a day ahead costs a 50 dollar fee.');
    await page.getByRole('button', { name: 'Add text' }).click();
    await page.getByRole('cell', { name: 'Cancellations', exact: true }).waitFor();
    // The page polls while a document is processing: both turn ready without a reload.
    await page.locator('.badge-kb-ready').nth(1).waitFor({ timeout: WAIT_MS });
    expect(await page.locator('.badge-kb-processing').count()).toBe(0);
    expect(await page.locator('.badge-kb-ready').count()).toBe(2);
    await checkScreen(page, 'knowledge-base', ['main h1', 'form[aria-label="Upload a document"]']);

    await fill(page, 'Question', 'Where do I park?');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const first = page.getByRole('list', { name: 'Search results' }).locator('li').first();
    await first.waitFor();
    expect(await first.textContent()).toMatch(/^faq\.md · FAQ > Parking · score [\d.]+FAQ\s+Parking\s+Free parking is available behind the building on Harbor Street\.$/);
    await page.locator('.badge-kb-ready').first().scrollIntoViewIfNeeded();
    await checkScreen(page, 'knowledge-documents', ['table']);
    await first.scrollIntoViewIfNeeded();
    await checkScreen(page, 'knowledge-search', ['.kb-hits li:first-child']);

    await page.getByRole('button', { name: 'Delete Cancellations' }).click();
    await page.getByRole('button', { name: 'Delete document' }).click();
    await page.getByRole('cell', { name: 'Cancellations', exact: true }).waitFor({ state: 'detached' });
    const stored = await rig.p.api(user.session.apiKey, 'GET', `/api/knowledge-bases/${kbId}`);
    expect(stored.body.documents.map((d: { name: string }) => d.name)).toEqual(['faq.md']);

    // The agent form names it: ticked, with how the agent uses it.
    await page.getByRole('link', { name: 'Agents', exact: true }).click();
    await page.getByRole('link', { name: 'New agent' }).first().click();
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    await fill(page, 'Name', 'Desk');
    await page.getByRole('group', { name: 'Knowledge bases' }).getByLabel('Front desk').check();
    await page.getByLabel('How the agent uses them').selectOption('tool');
    await page.getByRole('group', { name: 'Knowledge bases' }).scrollIntoViewIfNeeded();
    await checkScreen(page, 'knowledge-agent', ['fieldset.knowledge-picker']);
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/dashboard\/agents\/agt_/);
    const agent = await rig.p.api(user.session.apiKey, 'GET', `/api/agents/${page.url().split('/').pop()}`);
    expect(agent.body).toMatchObject({ knowledge_base_ids: [kbId], knowledge_base_mode: 'tool' });
    // A call whose answer used the base: its page lists the chunks given to the model.
    const callId = newId('call');
    await putNewHistoryRecord(rig.p.deps.db, {
      _id: callId, agentType: 'voice', agentId: agent.body._id, fullName: 'Ada', mobileNumber: '+14155550100', callDuration: 42, callEndReason: 'customer_hangup',
      callTranscript: 'user: Where do I park?\nagent: Behind the building, on Harbor Street.', callSummary: 'Asked about parking.', callCost: 0.7,
      workspace_id: user.session.workspace.id, createdAt: new Date().toISOString(),
      knowledge: [{ turn: 0, mode: 'auto', query: 'Where do I park?', chunks: [{ chunkId: newId('knowledgeChunk'), documentId: stored.body.documents[0]._id, documentName: 'faq.md', section: 'FAQ > Parking', score: 0.0328 }] }],
    });
    await page.goto(`${rig.p.baseUrl}/dashboard/history/${callId}`);
    const used = page.getByRole('table', { name: 'Knowledge-base chunks given to the model' });
    await used.waitFor();
    expect(await used.locator('tbody tr').first().textContent()).toBe('1Where do I park?faq.mdFAQ > Parking0.033');
    await page.locator('#knowledge-heading').scrollIntoViewIfNeeded();
    await checkScreen(page, 'knowledge-call', ['#knowledge-heading']);
    await page.goto(`${rig.p.baseUrl}/dashboard/knowledge/${kbId}`);
    await page.getByRole('heading', { level: 1, name: 'Front desk' }).waitFor();

    await page.getByRole('button', { name: 'Delete knowledge base' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete knowledge base' }).click();
    await page.getByRole('heading', { level: 1, name: 'Knowledge bases' }).waitFor();
    await page.getByText('No knowledge base yet').waitFor();
    expect(await knowledgeDepsOf(rig.p.deps).knowledge.list(knowledgePrefix(user.session.workspace.id, kbId))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
