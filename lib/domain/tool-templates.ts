/**
 * Integration templates: prepared HTTP tool definitions keyed by `templateId`. An `integration` tool names
 * one and supplies only its credentials (headers) and, where the template has them, placeholders' values
 * through its parameters. The voice pipeline runs them like `http` tools.
 */
export interface ToolTemplate {
  readonly templateId: string;
  readonly title: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  /** Header names the tool must supply (credentials); values are stored encrypted. */
  readonly requiredHeaders: readonly string[];
  readonly body?: string;
  readonly parameters: readonly { name: string; description: string; required: boolean }[];
}

export const TOOL_TEMPLATES: readonly ToolTemplate[] = [
  {
    templateId: 'calcom.book_meeting',
    title: 'Cal.com: book a meeting',
    method: 'POST',
    url: 'https://api.cal.com/v2/bookings',
    requiredHeaders: ['Authorization'],
    body: '{"eventTypeId":{event_type_id},"start":"{start}","attendee":{"name":"{name}","email":"{email}","timeZone":"{time_zone}"}}',
    parameters: [
      { name: 'event_type_id', description: 'Cal.com event type to book', required: true },
      { name: 'start', description: 'Start time in ISO 8601 (UTC)', required: true },
      { name: 'name', description: "Attendee's full name", required: true },
      { name: 'email', description: "Attendee's email address", required: true },
      { name: 'time_zone', description: "Attendee's IANA time zone", required: true },
    ],
  },
  {
    templateId: 'slack.post_message',
    title: 'Slack: post a message to a channel',
    method: 'POST',
    url: 'https://slack.com/api/chat.postMessage',
    requiredHeaders: ['Authorization'],
    body: '{"channel":"{channel}","text":"{text}"}',
    parameters: [
      { name: 'channel', description: 'Channel id, for example C0123456', required: true },
      { name: 'text', description: 'The message to post', required: true },
    ],
  },
  {
    templateId: 'hubspot.create_contact',
    title: 'HubSpot: create a contact',
    method: 'POST',
    url: 'https://api.hubapi.com/crm/v3/objects/contacts',
    requiredHeaders: ['Authorization'],
    body: '{"properties":{"email":"{email}","firstname":"{first_name}","lastname":"{last_name}","phone":"{phone}"}}',
    parameters: [
      { name: 'email', description: "The contact's email", required: true },
      { name: 'first_name', description: "The contact's first name", required: false },
      { name: 'last_name', description: "The contact's last name", required: false },
      { name: 'phone', description: "The contact's phone number in E.164", required: false },
    ],
  },
];

export const findTemplate = (templateId: string): ToolTemplate | undefined =>
  TOOL_TEMPLATES.find((t) => t.templateId === templateId);
