// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/tools/templates
import type { components } from '../components.js';

export interface paths {
    "/api/tools/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List integration templates (method, URL, required headers, settings, parameters) */
        get: operations["listToolTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listToolTemplates: {
        parameters: {
            query?: {
                workspaceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List integration templates (method, URL, required headers, settings, parameters) */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "templateId": "google_calendar.create_event",
                     *           "title": "Google Calendar: create an event",
                     *           "description": "Adds an event to a Google Calendar (events.insert), optionally inviting the caller.",
                     *           "docsUrl": "https://developers.google.com/calendar/api/v3/reference/events/insert",
                     *           "method": "POST",
                     *           "url": "https://www.googleapis.com/calendar/v3/calendars/{calendar_id}/events",
                     *           "requiredHeaders": [
                     *             "Authorization"
                     *           ],
                     *           "contentType": "application/json",
                     *           "body": {
                     *             "summary": "{summary}",
                     *             "description": "{details}",
                     *             "start": {
                     *               "dateTime": "{start}",
                     *               "timeZone": "{time_zone}"
                     *             },
                     *             "end": {
                     *               "dateTime": "{end}",
                     *               "timeZone": "{time_zone}"
                     *             },
                     *             "attendees": [
                     *               {
                     *                 "email": "{attendee_email}"
                     *               }
                     *             ]
                     *           },
                     *           "settings": [
                     *             {
                     *               "name": "calendar_id",
                     *               "description": "Calendar identifier, or `primary` for the signed-in user",
                     *               "type": "string",
                     *               "pattern": "^(?!\\.{1,2}$)[^\\s/?#\\\\]{1,254}$",
                     *               "example": "primary"
                     *             }
                     *           ],
                     *           "parameters": [
                     *             {
                     *               "name": "summary",
                     *               "description": "Title of the event",
                     *               "required": true
                     *             },
                     *             {
                     *               "name": "start",
                     *               "description": "Start time, RFC 3339 with offset, for example 2026-05-28T09:00:00-07:00",
                     *               "required": true
                     *             },
                     *             {
                     *               "name": "end",
                     *               "description": "End time, RFC 3339 with offset",
                     *               "required": true
                     *             },
                     *             {
                     *               "name": "time_zone",
                     *               "description": "IANA time zone of the event, for example America/Los_Angeles",
                     *               "required": true
                     *             },
                     *             {
                     *               "name": "details",
                     *               "description": "Notes for the event description",
                     *               "required": false
                     *             },
                     *             {
                     *               "name": "attendee_email",
                     *               "description": "The person's email address, to send them an invitation",
                     *               "required": false
                     *             }
                     *           ],
                     *           "parametersFromTool": false
                     *         },
                     *         {
                     *           "templateId": "calcom.book_meeting",
                     *           "title": "Cal.com: create a booking",
                     *           "description": "Books a Cal.com event type for the caller (API v2 POST /v2/bookings).",
                     *           "docsUrl": "https://cal.com/docs/api-reference/v2/bookings/create-a-booking",
                     *           "method": "POST",
                     *           "url": "https://api.cal.com/v2/bookings",
                     *           "requiredHeaders": [
                     *             "Authorization"
                     *           ],
                     *           "fixedHeaders": {
                     *             "cal-api-version": "2024-08-13"
                     *           },
                     *           "contentType": "application/json",
                     *           "body": {
                     *             "eventTypeId": "{event_type_id}",
                     *             "start": "{start}",
                     *             "attendee": {
                     *               "name": "{name}",
                     *               "email": "{email}",
                     *               "timeZone": "{time_zone}"
                     *             }
                     *           },
                     *           "settings": [
                     *             {
                     *               "name": "event_type_id",
                     *               "description": "The Cal.com event type to book",
                     *               "type": "integer",
                     *               "example": 123456
                     *             }
                     *           ],
                     *           "parameters": [
                     *             {
                     *               "name": "start",
                     *               "description": "Start time in UTC, ISO 8601, for example 2026-05-28T16:00:00Z",
                     *               "required": true
                     *             },
                     *             {
                     *               "name": "name",
                     *               "description": "The attendee's full name",
                     *               "required": true
                     *             },
                     *             {
                     *               "name": "email",
                     *               "description": "The attendee's email address",
                     *               "required": true
                     *             },
                     *             {
                     *               "name": "time_zone",
                     *               "description": "The attendee's IANA time zone, for example Europe/Rome",
                     *               "required": true
                     *             }
                     *           ],
                     *           "parametersFromTool": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ToolTemplate"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
