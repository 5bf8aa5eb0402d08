import * as z from 'zod';
import type { JsonObject, ToolParameter } from './tool-parameter.js';

/**
 * Integration templates: prepared HTTP tool definitions keyed by `templateId`, each following the vendor's
 * documented request shape (method, URL, headers, body; `docsUrl` says where). An `integration` tool names
 * one and supplies only what is its own: the credentials (`config.headers`, stored encrypted) and the
 * account settings (`config.settings`: a subdomain, a calendar, a channel), never the request shape. The
 * model fills the template's parameters from the conversation. The voice pipeline runs them like `http`
 * tools, through the same SSRF guard.
 *
 * Placeholders `{name}` in the URL and the body name a setting or a parameter. In the body, a string that is
 * exactly one placeholder takes the value's own JSON type (an integer setting stays a number), and a value
 * whose argument is missing is left out (see streaming-service/src/tools/http.ts).
 */
export interface TemplateSetting {
  readonly name: string;
  readonly description: string;
  /** Integer settings are JSON numbers (Cal.com's `eventTypeId`); the rest are strings matching `pattern`. */
  readonly type: 'string' | 'integer';
  /** What a string setting must match: it lands in a host name or a path, so it is kept narrow. */
  readonly pattern?: string;
  readonly example: string | number;
}

export interface ToolTemplate {
  readonly templateId: string;
  readonly title: string;
  readonly description: string;
  /** The vendor's reference page for the request this template makes. */
  readonly docsUrl: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absent: the tool supplies `config.url` (the generic webhook). */
  readonly url?: string;
  /** Header names the tool must supply (credentials); values are stored encrypted. */
  readonly requiredHeaders: readonly string[];
  /** Headers the vendor requires with a fixed value (an API version); the tool's own headers win. */
  readonly fixedHeaders?: Readonly<Record<string, string>>;
  readonly contentType: 'application/json' | 'application/x-www-form-urlencoded';
  /** Absent with `parameters: 'tool'`: the body is one field per parameter. */
  readonly body?: JsonObject;
  readonly settings: readonly TemplateSetting[];
  /** `'tool'`: the tool declares its own parameters (the generic webhook). */
  readonly parameters: readonly ToolParameter[] | 'tool';
}

const p = (name: string, description: string, required: boolean, extra: Partial<ToolParameter> = {}): ToolParameter => ({
  name,
  description,
  required,
  ...extra,
});

const EMAIL = "The person's email address";
const E164 = 'Phone number in E.164 format, for example +14155550142';

export const TOOL_TEMPLATES: readonly ToolTemplate[] = [
  {
    templateId: 'google_calendar.create_event',
    title: 'Google Calendar: create an event',
    description: 'Adds an event to a Google Calendar (events.insert), optionally inviting the caller.',
    docsUrl: 'https://developers.google.com/calendar/api/v3/reference/events/insert',
    method: 'POST',
    url: 'https://www.googleapis.com/calendar/v3/calendars/{calendar_id}/events',
    requiredHeaders: ['Authorization'],
    contentType: 'application/json',
    body: {
      summary: '{summary}',
      description: '{details}',
      start: { dateTime: '{start}', timeZone: '{time_zone}' },
      end: { dateTime: '{end}', timeZone: '{time_zone}' },
      attendees: [{ email: '{attendee_email}' }],
    },
    settings: [
      { name: 'calendar_id', description: 'Calendar identifier, or `primary` for the signed-in user', type: 'string', pattern: '^(?!\\.{1,2}$)[^\\s/?#\\\\]{1,254}$', example: 'primary' },
    ],
    parameters: [
      p('summary', 'Title of the event', true),
      p('start', 'Start time, RFC 3339 with offset, for example 2026-05-28T09:00:00-07:00', true),
      p('end', 'End time, RFC 3339 with offset', true),
      p('time_zone', 'IANA time zone of the event, for example America/Los_Angeles', true),
      p('details', 'Notes for the event description', false),
      p('attendee_email', `${EMAIL}, to send them an invitation`, false),
    ],
  },
  {
    templateId: 'calcom.book_meeting',
    title: 'Cal.com: create a booking',
    description: 'Books a Cal.com event type for the caller (API v2 POST /v2/bookings).',
    docsUrl: 'https://cal.com/docs/api-reference/v2/bookings/create-a-booking',
    method: 'POST',
    url: 'https://api.cal.com/v2/bookings',
    requiredHeaders: ['Authorization'],
    // The v2 API refuses requests without a version; 2024-08-13 is the one the bookings body above follows.
    fixedHeaders: { 'cal-api-version': '2024-08-13' },
    contentType: 'application/json',
    body: {
      eventTypeId: '{event_type_id}',
      start: '{start}',
      attendee: { name: '{name}', email: '{email}', timeZone: '{time_zone}' },
    },
    settings: [{ name: 'event_type_id', description: 'The Cal.com event type to book', type: 'integer', example: 123456 }],
    parameters: [
      p('start', 'Start time in UTC, ISO 8601, for example 2026-05-28T16:00:00Z', true),
      p('name', "The attendee's full name", true),
      p('email', "The attendee's email address", true),
      p('time_zone', "The attendee's IANA time zone, for example Europe/Rome", true),
    ],
  },
  {
    templateId: 'calendly.create_scheduling_link',
    title: 'Calendly: create a single-use scheduling link',
    description: 'Creates a one-time booking link for a Calendly event type, to read out or send to the caller.',
    docsUrl: 'https://developer.calendly.com/api-docs/calendly-api/scheduling-links/create-scheduling-link',
    method: 'POST',
    url: 'https://api.calendly.com/scheduling_links',
    requiredHeaders: ['Authorization'],
    contentType: 'application/json',
    body: { max_event_count: 1, owner: '{event_type_uri}', owner_type: 'EventType' },
    settings: [
      {
        name: 'event_type_uri',
        description: 'URI of the event type the link books',
        type: 'string',
        pattern: '^https://api\\.calendly\\.com/event_types/[A-Za-z0-9-]{1,64}$',
        example: 'https://api.calendly.com/event_types/AAAAAAAAAAAAAAAA',
      },
    ],
    parameters: [],
  },
  {
    templateId: 'hubspot.create_contact',
    title: 'HubSpot: create a contact',
    description: 'Creates a CRM contact (CRM v3 objects API).',
    docsUrl: 'https://developers.hubspot.com/docs/api-reference/crm-contacts-v3/basic/post-crm-v3-objects-contacts',
    method: 'POST',
    url: 'https://api.hubapi.com/crm/v3/objects/contacts',
    requiredHeaders: ['Authorization'],
    contentType: 'application/json',
    body: { properties: { email: '{email}', firstname: '{first_name}', lastname: '{last_name}', phone: '{phone}' } },
    settings: [],
    parameters: [
      p('email', "The contact's email", true),
      p('first_name', "The contact's first name", false),
      p('last_name', "The contact's last name", false),
      p('phone', `The contact's ${E164.toLowerCase()}`, false),
    ],
  },
  {
    templateId: 'hubspot.update_contact',
    title: 'HubSpot: update a contact found by email',
    description: "Updates a CRM contact's properties, finding it by email (idProperty=email).",
    docsUrl: 'https://developers.hubspot.com/docs/api-reference/crm-contacts-v3/basic/patch-crm-v3-objects-contacts-contactId',
    method: 'PATCH',
    url: 'https://api.hubapi.com/crm/v3/objects/contacts/{email}?idProperty=email',
    requiredHeaders: ['Authorization'],
    contentType: 'application/json',
    body: { properties: { firstname: '{first_name}', lastname: '{last_name}', phone: '{phone}', hs_lead_status: '{lead_status}' } },
    settings: [],
    parameters: [
      p('email', 'Email of the contact to update', true),
      p('first_name', 'New first name', false),
      p('last_name', 'New last name', false),
      p('phone', `New ${E164.toLowerCase()}`, false),
      p('lead_status', 'New lead status', false, {
        enum: ['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING'],
      }),
    ],
  },
  {
    templateId: 'salesforce.create_lead',
    title: 'Salesforce: create a lead',
    description: 'Creates a Lead record (REST API sObject create).',
    docsUrl: 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_sobject_create.htm',
    method: 'POST',
    url: 'https://{my_domain}.my.salesforce.com/services/data/v62.0/sobjects/Lead',
    requiredHeaders: ['Authorization'],
    contentType: 'application/json',
    body: {
      LastName: '{last_name}',
      FirstName: '{first_name}',
      Company: '{company}',
      Email: '{email}',
      Phone: '{phone}',
      Description: '{notes}',
      LeadSource: 'Phone Inquiry',
    },
    settings: [
      {
        name: 'my_domain',
        description: 'Your My Domain name: `acme` for acme.my.salesforce.com, `acme--uat.sandbox` for a sandbox',
        type: 'string',
        pattern: '^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?(?:\\.sandbox)?$',
        example: 'acme',
      },
    ],
    parameters: [
      p('last_name', "The lead's last name", true),
      p('company', "The lead's company (Salesforce requires one)", true),
      p('first_name', "The lead's first name", false),
      p('email', EMAIL, false),
      p('phone', E164, false),
      p('notes', 'What the caller wants', false),
    ],
  },
  {
    templateId: 'zendesk.create_ticket',
    title: 'Zendesk: create a ticket',
    description: 'Opens a support ticket on behalf of the caller (Tickets API).',
    docsUrl: 'https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#create-ticket',
    method: 'POST',
    url: 'https://{subdomain}.zendesk.com/api/v2/tickets',
    requiredHeaders: ['Authorization'],
    contentType: 'application/json',
    body: {
      ticket: {
        subject: '{subject}',
        comment: { body: '{description}' },
        requester: { name: '{requester_name}', email: '{requester_email}' },
        priority: '{priority}',
      },
    },
    settings: [
      { name: 'subdomain', description: 'Your Zendesk subdomain: `acme` for acme.zendesk.com', type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$', example: 'acme' },
    ],
    parameters: [
      p('subject', 'One line saying what the ticket is about', true),
      p('description', 'What the caller reported, in full', true),
      p('requester_name', "The caller's name", true),
      p('requester_email', "The caller's email address", true),
      p('priority', 'How urgent it is', false, { enum: ['low', 'normal', 'high', 'urgent'] }),
    ],
  },
  {
    templateId: 'slack.post_message',
    title: 'Slack: post a message to a channel',
    description: 'Posts a message with chat.postMessage, for example to hand a caller over to the team.',
    docsUrl: 'https://docs.slack.dev/reference/methods/chat.postMessage',
    method: 'POST',
    url: 'https://slack.com/api/chat.postMessage',
    requiredHeaders: ['Authorization'],
    contentType: 'application/json',
    body: { channel: '{channel}', text: '{text}' },
    settings: [
      { name: 'channel', description: 'Channel id (preferred) or name to post in', type: 'string', pattern: '^#?[A-Za-z0-9_.-]{1,80}$', example: 'C0123456789' },
    ],
    parameters: [p('text', 'The message to post', true)],
  },
  {
    templateId: 'twilio.send_sms',
    title: 'Twilio: send an SMS',
    description: 'Sends a text message from your Twilio number (Messages resource, form-encoded).',
    docsUrl: 'https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource',
    method: 'POST',
    url: 'https://api.twilio.com/2010-04-01/Accounts/{account_sid}/Messages.json',
    // Basic base64("AccountSid:AuthToken"), or an API key's "SK...:secret".
    requiredHeaders: ['Authorization'],
    contentType: 'application/x-www-form-urlencoded',
    body: { To: '{to}', From: '{from_number}', Body: '{message}' },
    settings: [
      { name: 'account_sid', description: 'Your Twilio Account SID', type: 'string', pattern: '^AC[0-9a-fA-F]{32}$', example: 'AC00000000000000000000000000000000' },
      { name: 'from_number', description: 'Your Twilio number to send from, E.164', type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$', example: '+14155550100' },
    ],
    parameters: [p('to', `Recipient's ${E164.toLowerCase()}`, true), p('message', 'The text to send', true)],
  },
  {
    templateId: 'webhook.post',
    title: 'Generic webhook',
    description: 'POSTs the arguments as one JSON object to your own URL (config.url); declare the parameters on the tool.',
    docsUrl: 'https://www.rfc-editor.org/rfc/rfc8259',
    method: 'POST',
    requiredHeaders: [],
    contentType: 'application/json',
    settings: [],
    parameters: 'tool',
  },
];

export const findTemplate = (templateId: string): ToolTemplate | undefined =>
  TOOL_TEMPLATES.find((t) => t.templateId === templateId);

const ScalarSchema = z.union([z.string(), z.number(), z.boolean()]);

/** One entry of GET /api/tools/templates: everything needed to create an integration tool from it. */
export const ToolTemplateView = z
  .object({
    templateId: z.string(),
    title: z.string(),
    description: z.string(),
    docsUrl: z.string(),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    /** Absent: the tool supplies `config.url`. */
    url: z.string().optional(),
    requiredHeaders: z.array(z.string()),
    fixedHeaders: z.record(z.string(), z.string()).optional(),
    contentType: z.string(),
    body: z.record(z.string(), z.unknown()).optional(),
    settings: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        type: z.enum(['string', 'integer']),
        pattern: z.string().optional(),
        example: z.union([z.string(), z.number()]),
      }),
    ),
    parameters: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        required: z.boolean(),
        type: z.enum(['string', 'number', 'integer', 'boolean']).optional(),
        enum: z.array(ScalarSchema).optional(),
      }),
    ),
    /** True when the tool declares its own `parameters` (the generic webhook). */
    parametersFromTool: z.boolean(),
  })
  .meta({ id: 'ToolTemplate' });
export type ToolTemplateView = z.infer<typeof ToolTemplateView>;

/** The catalogue as GET /api/tools/templates returns it. */
export function listTemplates(): ToolTemplateView[] {
  return TOOL_TEMPLATES.map(({ parameters, ...t }) => ({
    ...t,
    requiredHeaders: [...t.requiredHeaders],
    settings: t.settings.map((s) => ({ ...s })),
    parameters: parameters === 'tool' ? [] : parameters.map((p) => ({ ...p })),
    parametersFromTool: parameters === 'tool',
  }));
}
