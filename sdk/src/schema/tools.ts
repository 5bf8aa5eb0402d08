// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// The "Tools" operations.
import type { components } from './components.js';

export interface paths {
    "/api/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tools (no pagination) */
        get: operations["listTools"];
        put?: never;
        /** Create a tool */
        post: operations["createTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
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
    "/api/tools/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a tool, header values masked */
        get: operations["getTool"];
        /** Update a tool (only the fields sent change) */
        put: operations["updateTool"];
        post?: never;
        /** Delete a tool */
        delete: operations["deleteTool"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tools/{id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Discover an mcp tool's server tools again */
        post: operations["refreshTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listTools: {
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
            /** @description List tools (no pagination) */
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
                     *           "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *           "name": "check_order_status",
                     *           "type": "http",
                     *           "description": "Looks up the delivery status of an order by its number.",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "createdAt": "2025-06-02T14:03:11.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ToolListItem"][];
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
    createTool: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "check_order_status",
                 *       "type": "http",
                 *       "description": "Looks up the delivery status of an order by its number.",
                 *       "config": {
                 *         "method": "GET",
                 *         "url": "https://api.example.com/orders/{order_id}/status",
                 *         "headers": {
                 *           "Authorization": "Bearer sk_test_51Hc2xV0a9Q7"
                 *         }
                 *       },
                 *       "parameters": [
                 *         {
                 *           "name": "order_id",
                 *           "description": "The order number the caller reads out, e.g. 10023",
                 *           "required": true
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ToolCreate"];
            };
        };
        responses: {
            /** @description Create a tool */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *       "name": "check_order_status",
                     *       "type": "http",
                     *       "description": "Looks up the delivery status of an order by its number.",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "config": {
                     *         "method": "GET",
                     *         "url": "https://api.example.com/orders/{order_id}/status"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ToolCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
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
    getTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tool_01JWRFBSERD1BS3W9VV6RZM94Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a tool, header values masked */
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
                     *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *       "name": "check_order_status",
                     *       "type": "http",
                     *       "description": "Looks up the delivery status of an order by its number.",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "config": {
                     *         "method": "GET",
                     *         "url": "https://api.example.com/orders/{order_id}/status",
                     *         "headers": {
                     *           "Authorization": "********"
                     *         }
                     *       },
                     *       "parameters": [
                     *         {
                     *           "name": "order_id",
                     *           "description": "The order number the caller reads out, e.g. 10023",
                     *           "required": true
                     *         }
                     *       ],
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Tool"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tool_01JWRFBSERD1BS3W9VV6RZM94Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Looks up the delivery status and expected date of an order.",
                 *       "config": {
                 *         "headers": {
                 *           "Authorization": "********"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ToolUpdate"];
            };
        };
        responses: {
            /** @description Update a tool (only the fields sent change) */
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
                     *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *       "name": "check_order_status",
                     *       "type": "http",
                     *       "description": "Looks up the delivery status and expected date of an order.",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "config": {
                     *         "method": "GET",
                     *         "url": "https://api.example.com/orders/{order_id}/status",
                     *         "headers": {
                     *           "Authorization": "********"
                     *         }
                     *       },
                     *       "parameters": [
                     *         {
                     *           "name": "order_id",
                     *           "description": "The order number the caller reads out, e.g. 10023",
                     *           "required": true
                     *         }
                     *       ],
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Tool"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tool_01JWRFBSERD1BS3W9VV6RZM94Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    refreshTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tool_01JWRFBSERD1BS3W9VV6RZM94Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Discover an mcp tool's server tools again */
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
                     *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *       "name": "Weather",
                     *       "type": "mcp",
                     *       "description": "Weather forecasts from our MCP server.",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "config": {
                     *         "url": "https://mcp.example.com/mcp",
                     *         "headers": {
                     *           "Authorization": "********"
                     *         },
                     *         "allowed_tools": [
                     *           "get_forecast"
                     *         ]
                     *       },
                     *       "parameters": [],
                     *       "mcp": {
                     *         "transport": "streamable_http",
                     *         "tools": [
                     *           {
                     *             "name": "get_forecast",
                     *             "description": "The weather forecast for a city.",
                     *             "inputSchema": {
                     *               "type": "object",
                     *               "properties": {
                     *                 "city": {
                     *                   "type": "string",
                     *                   "description": "The city"
                     *                 }
                     *               },
                     *               "required": [
                     *                 "city"
                     *               ]
                     *             }
                     *           },
                     *           {
                     *             "name": "get_alerts",
                     *             "description": "Severe weather alerts for a region.",
                     *             "inputSchema": {
                     *               "type": "object",
                     *               "properties": {
                     *                 "region": {
                     *                   "type": "string"
                     *                 }
                     *               },
                     *               "required": [
                     *                 "region"
                     *               ]
                     *             }
                     *           }
                     *         ],
                     *         "refreshedAt": "2025-06-02T15:20:45.000Z"
                     *       },
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Tool"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
