/**
 * Invariant: knowledge bases (docs/knowledge.md) take PDF, DOCX, text, Markdown, CSV and HTML uploads and web
 * pages, ingest them off the request path (processing → ready, or failed with a reason), and answer
 * queries with the right chunk and its source, a part number found by its words; hostile files and private
 * URLs are refused with a 4xx (or a failed document) and nothing else; one workspace never reads another's
 * bases, by id or through an agent; an agent's `auto` mode gives the model the matching chunk before it
 * answers, in a chat and in a phone call, `tool` mode through search_knowledge, and the history record
 * names the chunks used; deleting a document or a base removes its text and vectors from the bucket.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { knowledgePrefix } from '../../lib/store/knowledge-objects.js';
import { knowledgeDepsOf } from '../../lib/services/knowledge.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import type { ScriptRequest, ScriptReply } from '../../lib/local/standins/llm-script.js';
import { junk, legacyXls, xlsx } from '../support/contact-files.js';
import { docx, docxBomb, docxWithDtd, pdf, pdfBomb, pdfHeader } from '../support/knowledge-files.js';
import { startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;
let site: Server;
let sitePort = 0;
const pages = new Map<string, { status?: number; type?: string; body: string; location?: string }>();

const FAQ_MD = [
  '# Bayview Dental FAQ',
  '',
  '## Opening hours',
  '',
  'We are open Monday to Friday from 8am to 6pm, and Saturday from 9am to 1pm. We are closed on Sundays and public holidays.',
  '',
  '## Parking',
  '',
  'Free parking is available behind the building on Harbor Street. The garage entrance is next to the bakery.',
  '',
  '## Insurance',
  '',
  'We accept Delta Dental, Cigna and Aetna plans. Bring your insurance card to your first visit.',
].join('\n');

const PRICES_CSV = ['item,part number,price', 'Electric toothbrush,XR-200B,$89', 'Whitening kit,WK-77,$45', 'Floss pack,FL-9,$6'].join('\n');

/** The "model": answers from the knowledge excerpts when it got some; calls search_knowledge when offered it. */
function reply(req: ScriptRequest): ScriptReply {
  const { system, turns, endsWithToolResult, toolResults } = req.messages;
  if (/summar/i.test(system)) return { text: 'Summary.' };
  if (endsWithToolResult) {
    const found = JSON.parse(toolResults.at(-1)?.content ?? '{}') as { results?: { text: string }[] };
    return { text: `Found: ${found.results?.[0]?.text ?? 'nothing'}` };
  }
  const last = turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
  if (req.tools.includes('search_knowledge') && last) return { toolCalls: [{ name: 'search_knowledge', arguments: { query: last } }] };
  const excerpt = /\[1\] \([^)]*\)\n([\s\S]*?)(?:\n\n\[2\]|$)/.exec(system)?.[1]?.replace(/\n/g, ' ');
  return { text: excerpt ? `From the documents: ${excerpt}` : 'I do not know.' };
}

beforeAll(async () => {
  site = createServer((req, res) => {
    const page = pages.get(req.url ?? '/');
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8', ...(page.location ? { location: page.location } : {}) });
    res.end(page.body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
  // Only this one loopback server is let through the SSRF guard (an operator setting for local development).
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${sitePort}`;
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => ['Where can I park my car?'][utterance] ?? 'Thanks, bye.', finalDelayMs: 50 },
    llm: { ttftMs: 10, tokensPerSecond: 2_000, reply },
    tts: { firstByteDelayMs: 10, realtimeFactor: 20 },
  });
});
afterAll(async () => {
  await vp?.stop();
  site?.close();
  delete process.env.TOOL_ALLOWED_HOSTS;
});

type Json = Record<string, any>;

async function api(apiKey: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${vp.platform.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

async function upload(apiKey: string, kbId: string, bytes: Uint8Array, filename: string): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const res = await fetch(`${vp.platform.baseUrl}/api/knowledge-bases/${kbId}/documents/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Waits until the document has left `processing`. */
async function settled(apiKey: string, kbId: string, docId: string): Promise<Json> {
  for (let i = 0; i < 600; i += 1) {
    const res = await api(apiKey, 'GET', `/api/knowledge-bases/${kbId}/documents/${docId}`);
    expect(res.status).toBe(200);
    if (res.body.status !== 'processing') return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`document ${docId} still processing`);
}

const objectsUnder = (prefix: string) => knowledgeDepsOf(vp.deps).knowledge.list(prefix);

async function newWorkspace(name: string) {
  const { workspaceId, apiKey } = await createWorkspace(vp.deps.db, { name, credits: 100 });
  return { workspaceId, apiKey };
}

describe('knowledge bases', () => {
  let kbId: string;
  const docs: Record<string, string> = {};

  it('ingests text, Markdown, CSV, HTML, DOCX and PDF off the request path, and finds the right chunk', async () => {
    const created = await api(vp.apiKey, 'POST', '/api/knowledge-bases', { name: 'Front desk', description: 'FAQ and prices' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Front desk', embeddingModel: 'text-embedding-3-small', dimensions: 256 });
    kbId = created.body._id;

    const text = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents`, { name: 'Cancellation policy', text: 'Appointments cancelled less than 24 hours ahead are charged a $50 fee.' });
    expect(text.status).toBe(201);
    expect(text.body).toMatchObject({ status: 'processing', format: 'text', revision: 1 });
    docs.text = text.body._id;

    const md = await upload(vp.apiKey, kbId, Buffer.from(FAQ_MD), 'faq.md');
    expect(md.status).toBe(201);
    expect(md.body).toMatchObject({ status: 'processing', format: 'markdown', name: 'faq.md' });
    docs.md = md.body._id;
    const csv = await upload(vp.apiKey, kbId, Buffer.from(PRICES_CSV), 'prices.csv');
    expect(csv.body.format).toBe('csv');
    docs.csv = csv.body._id;
    const html = await upload(vp.apiKey, kbId, Buffer.from('<!doctype html><html><head><title>Team</title><script>var x="Dr. Evil";</script></head><body><nav>Home | Team</nav><h1>Our team</h1><p>Dr. Maria Okafor leads orthodontics &amp; braces.</p></body></html>'), 'team.html');
    expect(html.body.format).toBe('html');
    docs.html = html.body._id;
    const word = await upload(vp.apiKey, kbId, docx([{ text: 'Emergencies', style: 'Heading1' }, { text: 'For a dental emergency after hours call the on-call line at 415-555-0199.' }]), 'emergencies.docx');
    expect(word.status).toBe(201);
    expect(word.body.format).toBe('docx');
    docs.docx = word.body._id;

    const manual = await upload(vp.apiKey, kbId, pdf([['Welcome to Bayview Dental.'], ['Sterilization', 'Every instrument is sterilized in an autoclave at 134 degrees after each patient.']]), 'manual.pdf');
    expect(manual.status).toBe(201);
    expect(manual.body.format).toBe('pdf');
    docs.pdf = manual.body._id;

    for (const id of Object.values(docs)) expect(await settled(vp.apiKey, kbId, id)).toMatchObject({ status: 'ready' });
    const faq = await settled(vp.apiKey, kbId, docs.md!);
    // Three sections under the title: three chunks, each kept within its heading.
    expect(faq.chunks).toBe(3);

    const listed = await api(vp.apiKey, 'GET', `/api/knowledge-bases/${kbId}`);
    expect(listed.body.documents.map((d: Json) => d.status)).toEqual(['ready', 'ready', 'ready', 'ready', 'ready', 'ready']);
    // A PDF's hit names its page.
    const steril = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'how are instruments sterilized', k: 1 });
    expect(steril.body.data[0]).toMatchObject({ documentId: docs.pdf, documentName: 'manual.pdf', page: 2 });
    expect(steril.body.data[0].text).toBe('Sterilization Every instrument is sterilized in an autoclave at 134 degrees after each patient.');

    const parking = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'Where can I park?', k: 3 });
    expect(parking.status).toBe(200);
    const top = parking.body.data[0];
    expect(top).toMatchObject({ documentId: docs.md, documentName: 'faq.md', section: 'Bayview Dental FAQ > Parking' });
    expect(top.text).toContain('Harbor Street');
    expect(FAQ_MD.replace(/\n/g, ' ')).toContain(top.text.replace(/^Parking\n/, ''));
    expect(top.end).toBeGreaterThan(top.start);

    // A part number: found by its words (and as one token, xr200b) in the CSV row.
    const part = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'how much is XR-200B', k: 1 });
    expect(part.body.data[0]).toMatchObject({ documentId: docs.csv, section: 'row 2' });
    expect(part.body.data[0].text).toBe('item: Electric toothbrush; part number: XR-200B; price: $89');
    expect(part.body.data[0].keywordScore).toBeGreaterThan(0);

    // HTML: the script and the navigation are not text; the heading is the section.
    const team = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'who does braces', k: 1 });
    expect(team.body.data[0]).toMatchObject({ documentId: docs.html, section: 'Our team' });
    expect(team.body.data[0].text).toContain('Dr. Maria Okafor leads orthodontics & braces.');
    expect(team.body.data[0].text).not.toContain('Evil');
    const emergency = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'dental emergency at night', k: 1 });
    expect(emergency.body.data[0]).toMatchObject({ documentId: docs.docx, section: 'Emergencies' });
  });

  it('refuses hostile and unsupported files with a 4xx, storing nothing', async () => {
    const before = await api(vp.apiKey, 'GET', `/api/knowledge-bases/${kbId}/documents`);
    const cases: [Uint8Array, string, number, string][] = [
      [pdfHeader(), 'manual.pdf', 400, 'invalid_document'],
      [pdfBomb(), 'bomb.pdf', 413, 'document_too_large'],
      [legacyXls(), 'old.doc', 415, 'unsupported_file_type'],
      [await xlsx([['a', 'b']]), 'sheet.docx', 415, 'unsupported_file_type'],
      [docxBomb(64 * 1024 * 1024), 'bomb.docx', 413, 'document_too_large'],
      [docxWithDtd(), 'dtd.docx', 400, 'invalid_document'],
      [junk(), 'junk.txt', 415, 'unsupported_file_type'],
      [Buffer.alloc(0), 'empty.txt', 400, 'empty_file'],
      [Buffer.from('\uFEFF', 'utf16le'), 'utf16.txt', 415, 'unsupported_file_type'],
      [Buffer.alloc(4 * 1024 * 1024 + 1, 0x61), 'big.txt', 413, 'file_too_large'],
    ];
    for (const [bytes, name, status, code] of cases) {
      const res = await upload(vp.apiKey, kbId, bytes, name);
      expect([name, res.status, res.body.error?.code]).toEqual([name, status, code]);
    }
    const after = await api(vp.apiKey, 'GET', `/api/knowledge-bases/${kbId}/documents`);
    expect(after.body.data).toHaveLength(before.body.data.length);
  });

  it('fetches a web page and a sitemap with robots.txt obeyed and every hop SSRF-checked; private URLs are refused', async () => {
    const base = `http://127.0.0.1:${sitePort}`;
    pages.set('/robots.txt', { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' });
    pages.set('/services', { body: '<html><head><title>Our services</title></head><body><h2>Implants</h2><p>Titanium implants cost $2,400 per tooth.</p></body></html>' });
    pages.set('/private/notes', { body: '<p>secret</p>' });
    // A redirect from the allowed server to a loopback address the guard does not allow.
    pages.set('/moved', { status: 302, location: 'http://127.0.0.2:9/admin', body: '' });

    const page = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents`, { url: `${base}/services` });
    expect(page.status).toBe(201);
    const ready = await settled(vp.apiKey, kbId, page.body._id);
    // The page's title names it.
    expect(ready).toMatchObject({ status: 'ready', format: 'url', name: 'Our services', url: `${base}/services` });
    const implants = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'price of titanium implants', k: 1 });
    expect(implants.body.data[0]).toMatchObject({ documentId: page.body._id, section: 'Implants' });

    const robots = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents`, { url: `${base}/private/notes` });
    expect(await settled(vp.apiKey, kbId, robots.body._id)).toMatchObject({ status: 'failed', error: expect.stringContaining('robots.txt') });
    const redirected = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents`, { url: `${base}/moved` });
    expect(await settled(vp.apiKey, kbId, redirected.body._id)).toMatchObject({ status: 'failed', error: expect.stringContaining('private, loopback') });

    // A sitemap: its own site's pages that robots.txt allows; another site's and disallowed ones are left out.
    pages.set('/team', { body: '<html><head><title>Our team</title></head><body><p>Dr. Lee does root canals on Tuesdays.</p></body></html>' });
    pages.set('/sitemap.xml', {
      type: 'application/xml',
      body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/services</loc></url><url><loc>${base}/team</loc></url><url><loc>${base}/private/notes</loc></url><url><loc>https://elsewhere.example/page</loc></url></urlset>`,
    });
    const sitemap = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents`, { url: `${base}/sitemap.xml`, name: 'Our site' });
    expect(await settled(vp.apiKey, kbId, sitemap.body._id)).toMatchObject({ status: 'ready', chunks: 2 });
    const canals = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'root canal day', k: 1 });
    expect(canals.body.data[0]).toMatchObject({ documentId: sitemap.body._id, section: 'Our team', text: 'Dr. Lee does root canals on Tuesdays.' });
    const secret = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'secret', k: 20 });
    expect(secret.body.data.filter((h: Json) => h.text.includes('secret'))).toEqual([]);

    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://localhost:8080/', 'http://10.0.0.5/', 'file:///etc/passwd']) {
      const refused = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents`, { url });
      expect([url, refused.status]).toEqual([url, 400]);
    }
  });

  it('keeps workspaces apart: another workspace cannot read, query, attach or be served a base', async () => {
    const other = await newWorkspace('other');
    expect((await api(other.apiKey, 'GET', `/api/knowledge-bases/${kbId}`)).status).toBe(404);
    expect((await api(other.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'parking' })).status).toBe(404);
    expect((await api(other.apiKey, 'GET', `/api/knowledge-bases/${kbId}/documents/${docs.md}`)).status).toBe(404);
    expect((await api(other.apiKey, 'DELETE', `/api/knowledge-bases/${kbId}/documents/${docs.md}`)).status).toBe(404);
    expect((await api(other.apiKey, 'GET', '/api/knowledge-bases')).body.data).toEqual([]);
    const agent = await api(other.apiKey, 'POST', '/api/agents', {
      name: 'Thief', llm_provider: 'openai', llm_model: 'gpt-4o-mini', stt_provider: 'deepgram', tts_provider: 'deepgram', knowledge_base_ids: [kbId],
    });
    expect(agent.status).toBe(400);
    expect(agent.body.error.details).toEqual([{ field: 'knowledge_base_ids.0', message: `${kbId} is not a knowledge base of this workspace` }]);
    // Its own base with the same question finds nothing of ours.
    const own = await api(other.apiKey, 'POST', '/api/knowledge-bases', { name: 'Mine' });
    expect((await api(other.apiKey, 'POST', `/api/knowledge-bases/${own.body._id}/query`, { query: 'Where can I park?' })).body.data).toEqual([]);
    // And nothing in the bucket under its prefix.
    expect(await objectsUnder(knowledgePrefix(other.workspaceId, own.body._id))).toEqual([]);
    // Bad input is a 400, never a 500.
    expect((await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: '', k: 5 })).status).toBe(400);
    expect((await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'x', k: 50 })).status).toBe(400);
    expect((await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents`, { text: 'no name' })).status).toBe(400);
    expect((await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents`, { name: 'both', text: 'a', url: 'https://example.com/' })).status).toBe(400);
  });

  it('answers a chat visitor from a document (auto), records the chunks used, and serves search_knowledge (tool)', async () => {
    const created = await api(vp.apiKey, 'POST', '/api/agents', {
      name: 'Desk', llm_provider: 'openai', llm_model: 'gpt-4o-mini', stt_provider: 'deepgram', tts_provider: 'deepgram',
      system_prompt: 'You answer for Bayview Dental.', knowledge_base_ids: [kbId],
    });
    expect(created.status).toBe(201);
    expect(created.body.knowledge_base_ids).toEqual([kbId]);
    const chat = await api(vp.apiKey, 'POST', '/api/chats', { agentId: created.body._id });
    expect(chat.status).toBe(201);
    const ws = new WebSocket(`${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-chat`);
    const frames: Json[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Json));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'hello', credential: chat.body.credential }));
    await waitUntil(() => frames.find((f) => f.type === 'ready'));
    const before = vp.platform.voice.llm.control.requestsFor('openai').length;
    ws.send(JSON.stringify({ type: 'message', text: 'Are you open on Saturday?' }));
    const answer = await waitUntil(() => frames.find((f) => f.type === 'reply' && f.text !== undefined && f.turn > 0));
    expect(answer.text).toContain('Saturday from 9am to 1pm');
    // The model received the matching chunk, with its source, before the visitor's words.
    const sent = vp.platform.voice.llm.control.requestsFor('openai').slice(before)[0]!.body as { messages: { role: string; content: string }[] };
    const context = sent.messages.at(-2)!;
    expect(context.role).toBe('system');
    expect(context.content).toContain('[1] (faq.md, Bayview Dental FAQ > Opening hours)');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'Are you open on Saturday?' });
    ws.send(JSON.stringify({ type: 'end' }));
    const history = await waitForHistory(chat.body.chatId);
    expect(history.knowledge).toHaveLength(1);
    expect(history.knowledge[0]).toMatchObject({ turn: 0, mode: 'auto', query: 'Are you open on Saturday?' });
    expect(history.knowledge[0].chunks[0]).toMatchObject({ documentId: docs.md, documentName: 'faq.md', section: 'Bayview Dental FAQ > Opening hours' });
    ws.close();

    // tool mode: the model calls search_knowledge; its result carries the chunk.
    const toolAgent = await api(vp.apiKey, 'PATCH', `/api/agents/${created.body._id}`, { knowledge_base_mode: 'tool' });
    expect(toolAgent.status).toBe(200);
    const chat2 = await api(vp.apiKey, 'POST', '/api/chats', { agentId: created.body._id });
    const ws2 = new WebSocket(`${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-chat`);
    const frames2: Json[] = [];
    ws2.on('message', (d) => frames2.push(JSON.parse(String(d)) as Json));
    await new Promise((resolve) => ws2.once('open', resolve));
    ws2.send(JSON.stringify({ type: 'hello', credential: chat2.body.credential }));
    await waitUntil(() => frames2.find((f) => f.type === 'ready'));
    ws2.send(JSON.stringify({ type: 'message', text: 'Which insurance plans do you take?' }));
    const found = await waitUntil(() => frames2.find((f) => f.type === 'reply' && f.turn > 0));
    expect(found.text).toContain('Delta Dental, Cigna and Aetna');
    ws2.send(JSON.stringify({ type: 'end' }));
    const history2 = await waitForHistory(chat2.body.chatId);
    expect(history2.knowledge[0]).toMatchObject({ mode: 'tool', query: 'Which insurance plans do you take?' });
    ws2.close();
    await api(vp.apiKey, 'PATCH', `/api/agents/${created.body._id}`, { knowledge_base_mode: 'auto' });
  });

  it('answers a caller in a phone call from a document', async () => {
    const agent = await vp.agent({ first_message: 'Bayview Dental.', knowledge_base_ids: [kbId], knowledge_base_mode: 'auto' });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    const before = vp.platform.voice.llm.control.requestsFor('openai').length;
    await caller.play(tone(300));
    await waitUntil(() => (vp.platform.voice.llm.control.requestsFor('openai').length > before ? true : undefined));
    await waitUntil(() => (caller.echoed.length > 1 ? true : undefined));
    await caller.whenIdle();
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    const sent = vp.platform.voice.llm.control.requestsFor('openai').slice(before)[0]!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.at(-2)!.content).toContain('[1] (faq.md, Bayview Dental FAQ > Parking)');
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Json;
    expect(record.callTranscript).toContain('agent: From the documents: Parking Free parking is available behind the building on Harbor Street.');
    expect(record.knowledge[0]).toMatchObject({ mode: 'auto', query: 'Where can I park my car?' });
    expect(record.knowledge[0].chunks[0]).toMatchObject({ documentId: docs.md, section: 'Bayview Dental FAQ > Parking' });
  });

  it('re-indexes, and deletes a document and a base completely: text and vectors gone from the bucket', async () => {
    const again = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/documents/${docs.csv}/reindex`);
    expect(again.body).toMatchObject({ status: 'processing', revision: 2 });
    expect(await settled(vp.apiKey, kbId, docs.csv!)).toMatchObject({ status: 'ready', revision: 2 });
    // Only the new revision's segment is kept: the old one is removed right after the new one is ready.
    const kept = async () => (await objectsUnder(`${knowledgePrefix(vp.workspaceId, kbId)}docs/${docs.csv}/`)).map((k) => k.split('/').pop()).sort();
    for (let i = 0; i < 100 && (await kept()).includes('r1.seg'); i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(await kept()).toEqual(['r2.seg', 'source']);

    expect((await api(vp.apiKey, 'DELETE', `/api/knowledge-bases/${kbId}/documents/${docs.csv}`)).status).toBe(204);
    expect(await objectsUnder(`${knowledgePrefix(vp.workspaceId, kbId)}docs/${docs.csv}/`)).toEqual([]);
    expect((await api(vp.apiKey, 'GET', `/api/knowledge-bases/${kbId}/documents/${docs.csv}`)).status).toBe(404);
    // The query endpoint reads the document list every time: the part number is gone at once.
    const part = await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'XR-200B', k: 5 });
    expect(part.body.data.length).toBeGreaterThan(0);
    expect(part.body.data.filter((h: Json) => h.documentId === docs.csv || /XR-200B/.test(h.text))).toEqual([]);

    expect((await api(vp.apiKey, 'DELETE', `/api/knowledge-bases/${kbId}`)).status).toBe(204);
    expect(await objectsUnder(knowledgePrefix(vp.workspaceId, kbId))).toEqual([]);
    expect((await api(vp.apiKey, 'GET', `/api/knowledge-bases/${kbId}`)).status).toBe(404);
    expect((await api(vp.apiKey, 'POST', `/api/knowledge-bases/${kbId}/query`, { query: 'parking' })).status).toBe(404);
  });
});

async function waitForHistory(callId: string): Promise<Json> {
  for (let i = 0; i < 400; i += 1) {
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, callId).catch(() => undefined)) as unknown as Json | undefined;
    if (record && record.callEndReason !== 'not_joined') return record;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no history for ${callId}`);
}
