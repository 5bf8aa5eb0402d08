/**
 * Invariant: every integration template, created through the API like a user would and run through the
 * call-time tool code (stored tool -> httpSpecOf -> coerceArguments -> runHttpTool), sends the request its
 * vendor documents: method, URL (settings filled in host and path), content type, credential header, fixed
 * headers and body shape, with the model's arguments in their declared types and optional ones left out
 * when the model gave none. A loopback stand-in (test/fakes/integration-api.ts) checks each request against
 * the vendor's contract; only the origin is swapped for the stand-in's, after the real URL is asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parametersOf, type ToolParameter } from '../../lib/domain/tool.js';
import { TOOL_TEMPLATES } from '../../lib/domain/tool-templates.js';
import { getTool } from '../../lib/store/tools.js';
import { coerceArguments, fillUrl, parseArguments, runHttpTool } from '../../streaming-service/src/tools/http.js';
import { httpSpecOf } from '../../streaming-service/src/tools/registry.js';
import { E164, EMAIL, RFC3339, shape, startIntegrationStandIn, type IntegrationStandIn, type RequestContract } from '../fakes/integration-api.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

interface Case {
  readonly templateId: string;
  readonly headers: Record<string, string>;
  readonly settings?: Record<string, string | number>;
  /** The generic webhook only: its own URL path on the stand-in and its own parameters. */
  readonly webhook?: { path: string; parameters: ToolParameter[] };
  /** What the model sends, as JSON arguments. */
  readonly args: Record<string, unknown>;
  /** The vendor URL the request must go to (the stand-in's origin replaces its origin afterwards). */
  readonly url: string;
  readonly contract: RequestContract;
}

const { object, string, equals, integer, boolean, array } = shape;
const SID = 'AC0123456789abcdef0123456789abcdef';

const CASES: Case[] = [
  {
    templateId: 'google_calendar.create_event',
    headers: { Authorization: 'Bearer ya29.token' },
    settings: { calendar_id: 'c_team@group.calendar.google.com' },
    args: { summary: 'Consultation', start: '2026-05-28T09:00:00-07:00', end: '2026-05-28T09:30:00-07:00', time_zone: 'America/Los_Angeles', attendee_email: 'ada@example.com' },
    url: 'https://www.googleapis.com/calendar/v3/calendars/c_team%40group.calendar.google.com/events',
    contract: {
      method: 'POST',
      path: '/calendar/v3/calendars/c_team%40group.calendar.google.com/events',
      contentType: 'application/json',
      authorization: /^Bearer \S+$/,
      body: (b) =>
        object(b, 'body', {
          summary: string(),
          description: string(),
          start: (v, p) => object(v, p, { dateTime: string(RFC3339), timeZone: string(/^[A-Za-z_]+\/[A-Za-z_]+$/) }),
          end: (v, p) => object(v, p, { dateTime: string(RFC3339), timeZone: string() }),
          attendees: array((v, p) => object(v, p, { email: string(EMAIL) })),
        }, ['description', 'attendees']),
      answer: { status: 200, body: { kind: 'calendar#event', id: 'evt1', status: 'confirmed', htmlLink: 'https://www.google.com/calendar/event?eid=x' } },
    },
  },
  {
    templateId: 'calcom.book_meeting',
    headers: { Authorization: 'Bearer cal_live_abc' },
    settings: { event_type_id: 5885841 },
    args: { start: '2026-05-28T16:00:00Z', name: 'Ada Lovelace', email: 'ada@example.com', time_zone: 'Europe/London' },
    url: 'https://api.cal.com/v2/bookings',
    contract: {
      method: 'POST',
      path: '/v2/bookings',
      contentType: 'application/json',
      authorization: /^Bearer cal_\S+$/,
      headers: { 'cal-api-version': '2024-08-13' },
      body: (b) =>
        object(b, 'body', {
          eventTypeId: (v, p) => [...integer(v, p), ...equals(5885841)(v, p)],
          start: string(/Z$/),
          attendee: (v, p) => object(v, p, { name: string(), email: string(EMAIL), timeZone: string() }),
        }),
      answer: { status: 201, body: { status: 'success', data: { id: 1, uid: 'bk_1', status: 'accepted' } } },
    },
  },
  {
    templateId: 'calendly.create_scheduling_link',
    headers: { Authorization: 'Bearer eyJ.pat' },
    settings: { event_type_uri: 'https://api.calendly.com/event_types/AAAAAAAAAAAAAAAA' },
    args: {},
    url: 'https://api.calendly.com/scheduling_links',
    contract: {
      method: 'POST',
      path: '/scheduling_links',
      contentType: 'application/json',
      authorization: /^Bearer \S+$/,
      body: (b) =>
        object(b, 'body', {
          max_event_count: equals(1),
          owner: equals('https://api.calendly.com/event_types/AAAAAAAAAAAAAAAA'),
          owner_type: equals('EventType'),
        }),
      answer: { status: 201, body: { resource: { booking_url: 'https://calendly.com/d/abc-123/30min', owner_type: 'EventType' } } },
    },
  },
  {
    templateId: 'hubspot.create_contact',
    headers: { Authorization: 'Bearer pat-na1-abc' },
    // No last name: the optional property is left out rather than sent empty.
    args: { email: 'ada@example.com', first_name: 'Ada', phone: '+14155550142' },
    url: 'https://api.hubapi.com/crm/v3/objects/contacts',
    contract: {
      method: 'POST',
      path: '/crm/v3/objects/contacts',
      contentType: 'application/json',
      authorization: /^Bearer \S+$/,
      body: (b) =>
        object(b, 'body', {
          properties: (v, p) => object(v, p, { email: string(EMAIL), firstname: equals('Ada'), phone: string(E164) }),
        }),
      answer: { status: 201, body: { id: '512', properties: { email: 'ada@example.com' } } },
    },
  },
  {
    templateId: 'hubspot.update_contact',
    headers: { Authorization: 'Bearer pat-na1-abc' },
    args: { email: 'ada@example.com', lead_status: 'connected' },
    url: 'https://api.hubapi.com/crm/v3/objects/contacts/ada%40example.com?idProperty=email',
    contract: {
      method: 'PATCH',
      path: '/crm/v3/objects/contacts/ada%40example.com?idProperty=email',
      contentType: 'application/json',
      authorization: /^Bearer \S+$/,
      body: (b) => object(b, 'body', { properties: (v, p) => object(v, p, { hs_lead_status: equals('CONNECTED') }) }),
      answer: { status: 200, body: { id: '512', properties: { hs_lead_status: 'CONNECTED' } } },
    },
  },
  {
    templateId: 'salesforce.create_lead',
    headers: { Authorization: 'Bearer 00D.token' },
    settings: { my_domain: 'acme' },
    args: { last_name: 'Lovelace', company: 'Analytical Engines', email: 'ada@example.com', notes: 'Wants a demo "soon"' },
    url: 'https://acme.my.salesforce.com/services/data/v62.0/sobjects/Lead',
    contract: {
      method: 'POST',
      path: '/services/data/v62.0/sobjects/Lead',
      contentType: 'application/json',
      authorization: /^Bearer \S+$/,
      body: (b) =>
        object(b, 'body', {
          LastName: string(),
          Company: string(),
          Email: string(EMAIL),
          Description: equals('Wants a demo "soon"'),
          LeadSource: equals('Phone Inquiry'),
        }),
      answer: { status: 201, body: { id: '00Q5e000001', success: true, errors: [] } },
    },
  },
  {
    templateId: 'zendesk.create_ticket',
    headers: { Authorization: `Basic ${Buffer.from('agent@acme.com/token:abc123').toString('base64')}` },
    settings: { subdomain: 'acme' },
    args: { subject: 'Broken kettle', description: 'It stopped heating.', requester_name: 'Ada', requester_email: 'ada@example.com', priority: 'High' },
    url: 'https://acme.zendesk.com/api/v2/tickets',
    contract: {
      method: 'POST',
      path: '/api/v2/tickets',
      contentType: 'application/json',
      authorization: /^Basic [A-Za-z0-9+/=]+$/,
      body: (b) =>
        object(b, 'body', {
          ticket: (v, p) =>
            object(v, p, {
              subject: string(),
              comment: (c, cp) => object(c, cp, { body: string() }),
              requester: (r, rp) => object(r, rp, { name: string(), email: string(EMAIL) }),
              priority: equals('high'),
            }),
        }),
      answer: { status: 201, body: { ticket: { id: 35436, status: 'new' } } },
    },
  },
  {
    templateId: 'slack.post_message',
    headers: { Authorization: 'Bearer xoxb-123' },
    settings: { channel: 'C0123456789' },
    args: { text: 'Caller Ada wants a human: +14155550142' },
    url: 'https://slack.com/api/chat.postMessage',
    contract: {
      method: 'POST',
      path: '/api/chat.postMessage',
      contentType: 'application/json',
      authorization: /^Bearer xox[bp]-\S+$/,
      body: (b) => object(b, 'body', { channel: equals('C0123456789'), text: string() }),
      answer: { status: 200, body: { ok: true, channel: 'C0123456789', ts: '1503435956.000247' } },
    },
  },
  {
    templateId: 'twilio.send_sms',
    headers: { Authorization: `Basic ${Buffer.from(`${SID}:authtoken`).toString('base64')}` },
    settings: { account_sid: SID, from_number: '+14155550100' },
    args: { to: '+14155550142', message: 'Your booking is confirmed & paid.' },
    url: `https://api.twilio.com/2010-04-01/Accounts/${SID}/Messages.json`,
    contract: {
      method: 'POST',
      path: `/2010-04-01/Accounts/${SID}/Messages.json`,
      contentType: 'application/x-www-form-urlencoded',
      authorization: /^Basic [A-Za-z0-9+/=]+$/,
      body: (b) => object(b, 'body', { To: string(E164), From: equals('+14155550100'), Body: equals('Your booking is confirmed & paid.') }),
      answer: { status: 201, body: { sid: 'SM0123', status: 'queued' } },
    },
  },
  {
    templateId: 'webhook.post',
    headers: { 'X-Webhook-Secret': 's3cret' },
    webhook: {
      path: '/hooks/voice',
      parameters: [
        { name: 'caller_name', description: 'Name', required: true },
        { name: 'party_size', description: 'Seats', required: true, type: 'integer' },
        { name: 'vip', description: 'VIP', required: false, type: 'boolean' },
      ],
    },
    args: { caller_name: 'Ada', party_size: '4', vip: true },
    url: '(stand-in)/hooks/voice',
    contract: {
      method: 'POST',
      path: '/hooks/voice',
      contentType: 'application/json',
      headers: { 'X-Webhook-Secret': 's3cret' },
      body: (b) => object(b, 'body', { caller_name: equals('Ada'), party_size: equals(4), vip: boolean }),
      answer: { status: 200, body: { received: true } },
    },
  },
];

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };
let standIn: IntegrationStandIn;

beforeAll(async () => {
  standIn = await startIntegrationStandIn();
  // The generic webhook's URL is the stand-in itself: allow exactly that loopback host:port, as tests do.
  process.env.TOOL_ALLOWED_HOSTS = new URL(standIn.origin).host;
  t = await startTestPlatform();
  ws = await t.workspace();
});
afterAll(async () => {
  delete process.env.TOOL_ALLOWED_HOSTS;
  await t?.stop();
  await standIn?.close();
});

describe('integration templates against their documented request shapes', () => {
  it('covers every template in the catalogue', () => {
    expect(CASES.map((c) => c.templateId).sort()).toEqual(TOOL_TEMPLATES.map((tpl) => tpl.templateId).sort());
  });

  it.each(CASES)('$templateId sends the documented request', async (c) => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', {
      name: c.templateId,
      type: 'integration',
      templateId: c.templateId,
      description: `Use ${c.templateId}`,
      workspaceId: ws.workspaceId,
      config: {
        headers: c.headers,
        ...(c.settings ? { settings: c.settings } : {}),
        ...(c.webhook ? { url: `${standIn.origin}${c.webhook.path}` } : {}),
      },
      ...(c.webhook ? { parameters: c.webhook.parameters } : {}),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    // The call-time path: the stored tool with its headers decrypted, its spec, the model's arguments.
    const tool = await getTool(t.deps.db, t.deps.secrets, ws.workspaceId, created.body._id);
    const spec = httpSpecOf(tool)!;
    const checked = coerceArguments(parseArguments(JSON.stringify(c.args)), parametersOf(tool)!);
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    const args = checked.ok ? checked.args : {};
    expect(fillUrl(spec.url, { ...args, ...spec.fixed })).toBe(c.url.replace('(stand-in)', standIn.origin));

    standIn.arm(c.contract);
    const before = standIn.seen.length;
    const onStandIn = { ...spec, url: spec.url.replace(/^https:\/\/[^/]+/, standIn.origin) };
    const outcome = await runHttpTool(onStandIn, args, { allowedHosts: [new URL(standIn.origin).host] });
    expect(standIn.seen).toHaveLength(before + 1);
    expect(standIn.seen.at(-1)!.problems).toEqual([]);
    expect(outcome).toMatchObject({ ok: true, status: c.contract.answer.status });
    expect(JSON.parse(JSON.parse(outcome.content).body)).toEqual(c.contract.answer.body);
  });

  it('the stand-in refuses a request off the documented shape (its checks can fail)', async () => {
    const twilio = CASES.find((c) => c.templateId === 'twilio.send_sms')!;
    standIn.arm(twilio.contract);
    // JSON instead of form encoding, and no credentials: what a careless template would send.
    const outcome = await runHttpTool(
      { method: 'POST', url: `${standIn.origin}${twilio.contract.path}`, headers: {}, body: { To: '{to}', From: '+1', Body: '{message}' } },
      { to: 'not-a-number', message: 'hi' },
      { allowedHosts: [new URL(standIn.origin).host] },
    );
    expect(outcome).toMatchObject({ ok: false, status: 400 });
    const problems = standIn.seen.at(-1)!.problems.join('\n');
    expect(problems).toMatch(/content-type application\/json/);
    expect(problems).toMatch(/authorization \(none\)/);
  });
});
