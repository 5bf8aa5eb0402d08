// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "templateId": "google_calendar.create_event",
 *       "title": "Google Calendar: create an event",
 *       "description": "Adds an event to a Google Calendar (events.insert), optionally inviting the caller.",
 *       "docsUrl": "https://developers.google.com/calendar/api/v3/reference/events/insert",
 *       "method": "POST",
 *       "url": "https://www.googleapis.com/calendar/v3/calendars/{calendar_id}/events",
 *       "requiredHeaders": [
 *         "Authorization"
 *       ],
 *       "contentType": "application/json",
 *       "body": {
 *         "summary": "{summary}",
 *         "description": "{details}",
 *         "start": {
 *           "dateTime": "{start}",
 *           "timeZone": "{time_zone}"
 *         },
 *         "end": {
 *           "dateTime": "{end}",
 *           "timeZone": "{time_zone}"
 *         },
 *         "attendees": [
 *           {
 *             "email": "{attendee_email}"
 *           }
 *         ]
 *       },
 *       "settings": [
 *         {
 *           "name": "calendar_id",
 *           "description": "Calendar identifier, or `primary` for the signed-in user",
 *           "type": "string",
 *           "pattern": "^(?!\\.{1,2}$)[^\\s/?#\\\\]{1,254}$",
 *           "example": "primary"
 *         }
 *       ],
 *       "parameters": [
 *         {
 *           "name": "summary",
 *           "description": "Title of the event",
 *           "required": true
 *         },
 *         {
 *           "name": "start",
 *           "description": "Start time, RFC 3339 with offset, for example 2026-05-28T09:00:00-07:00",
 *           "required": true
 *         },
 *         {
 *           "name": "end",
 *           "description": "End time, RFC 3339 with offset",
 *           "required": true
 *         },
 *         {
 *           "name": "time_zone",
 *           "description": "IANA time zone of the event, for example America/Los_Angeles",
 *           "required": true
 *         },
 *         {
 *           "name": "details",
 *           "description": "Notes for the event description",
 *           "required": false
 *         },
 *         {
 *           "name": "attendee_email",
 *           "description": "The person's email address, to send them an invitation",
 *           "required": false
 *         }
 *       ],
 *       "parametersFromTool": false
 *     }
 */
export type ToolTemplate = {
    templateId: string;
    title: string;
    description: string;
    docsUrl: string;
    /** @enum {string} */
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    url?: string;
    requiredHeaders: string[];
    fixedHeaders?: {
        [key: string]: string;
    };
    contentType: string;
    body?: {
        [key: string]: unknown;
    };
    settings: {
        name: string;
        description: string;
        /** @enum {string} */
        type: "string" | "integer";
        pattern?: string;
        example: string | number;
    }[];
    parameters: {
        name: string;
        description: string;
        required: boolean;
        /** @enum {string} */
        type?: "string" | "number" | "integer" | "boolean";
        enum?: (string | number | boolean)[];
    }[];
    parametersFromTool: boolean;
};
