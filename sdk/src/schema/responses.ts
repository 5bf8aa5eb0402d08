// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// The answers every operation shares: the errors, with their headers.

export interface Responses<C extends { schemas: { Error: unknown }; headers: Record<string, unknown> }> {
    /** @description Validation failed (validation_failed), malformed JSON (invalid_json) or a __proto__ key (forbidden_key). */
    BadRequest: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "validation_failed",
             *         "message": "The request did not pass validation.",
             *         "details": [
             *           {
             *             "field": "body",
             *             "message": "Unrecognized key: \"colour\"",
             *             "keys": [
             *               "colour"
             *             ]
             *           }
             *         ]
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description The x-api-key header is missing, unknown or revoked (unauthorized). */
    Unauthorized: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "unauthorized",
             *         "message": "A valid x-api-key header is required.",
             *         "details": []
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description The workspace has insufficient credits (insufficient_credits): a call needs its longest possible duration in credits up front (10 at the default pricing; docs/calls.md). */
    PaymentRequired: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "insufficient_credits",
             *         "message": "The workspace has insufficient credits.",
             *         "details": {
             *           "required": 10,
             *           "available": 2.5
             *         }
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description A workspaceId in the query or body is not the API key's workspace (forbidden); on /auth, a request not from the dashboard page (csrf_refused). */
    Forbidden: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "forbidden",
             *         "message": "This API key cannot act on that workspace.",
             *         "details": []
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description No such record in this workspace (not_found); records of other workspaces are reported the same way. */
    NotFound: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "not_found",
             *         "message": "Agent was not found.",
             *         "details": []
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description The change conflicts with existing data, e.g. a phone number already in use (phone_number_taken), or a phone call to a number on the workspace's do-not-call list (do_not_call: details name the number and the history record of the refusal; send consentedCall: true for a call the person agreed to). */
    Conflict: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "phone_number_taken",
             *         "message": "A contact with phone number +14155552671 already exists.",
             *         "details": [
             *           {
             *             "field": "phoneNumber",
             *             "message": "already used by another contact in this workspace"
             *           }
             *         ]
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description The resource was used up, e.g. a meeting link already opened. */
    Gone: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description The body exceeds its limit (payload_too_large): 1048576 bytes for JSON. */
    PayloadTooLarge: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "payload_too_large",
             *         "message": "The request body exceeds 1048576 bytes.",
             *         "details": [
             *           {
             *             "message": "limit is 1048576 bytes"
             *           }
             *         ]
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description The body is not multipart/form-data (uploads) or application/json (/auth) (unsupported_media_type). */
    UnsupportedMediaType: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "unsupported_media_type",
             *         "message": "Send the upload as multipart/form-data with the fields file and workspaceId (and optionally defaultCountry).",
             *         "details": [
             *           {
             *             "field": "content-type",
             *             "message": "expected multipart/form-data"
             *           }
             *         ]
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description Well-formed but not usable: an Idempotency-Key reused with another body (idempotency_key_reused), an agent that is not the workspace's (unknown_agent), telephony credentials the provider refused or a number not in that account (telephony_credentials_invalid, number_not_in_account). */
    UnprocessableContent: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "idempotency_key_reused",
             *         "message": "This Idempotency-Key was already used with a different request body.",
             *         "details": [
             *           {
             *             "field": "Idempotency-Key",
             *             "message": "send a new key for a new request"
             *           }
             *         ]
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description Too many requests (rate_limited): this API key's quota, or the route's own limit (per source IP on public routes; webhook replays per endpoint and workspace, and their hourly delivery budget; docs/api.md, Rate limits); wait Retry-After seconds. */
    TooManyRequests: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            "Retry-After": C["headers"]["RetryAfter"];
            RateLimit: C["headers"]["RateLimit"];
            "RateLimit-Policy": C["headers"]["RateLimitPolicy"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "rate_limited",
             *         "message": "Too many requests; retry after 12 seconds.",
             *         "details": []
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description Our fault (internal_error): the message says nothing more; details carry the request id to quote. */
    InternalServerError: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "internal_error",
             *         "message": "Something went wrong on our side. Try again; if it persists, quote the request id.",
             *         "details": [
             *           {
             *             "requestId": "0b4a5c62-3f1e-4d1a-9a57-1d2c3e4f5a6b"
             *           }
             *         ]
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description Our data store was busy or unreachable for the whole request (service_unavailable): nothing was changed; send the same request again after Retry-After seconds. */
    ServiceUnavailable: {
        headers: {
            "x-request-id": C["headers"]["RequestId"];
            "Retry-After": C["headers"]["RetryAfter"];
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "service_unavailable",
             *         "message": "We could not reach our data store in time; nothing was changed. Retry after 2 seconds.",
             *         "details": []
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
    /** @description The path exists but not with this method (method_not_allowed); `Allow` lists the methods it takes. Local server only: API Gateway answers 404. */
    MethodNotAllowed: {
        headers: {
            /** @description The methods this path takes, e.g. `GET, POST`. */
            Allow?: string;
            [name: string]: unknown;
        };
        content: {
            /**
             * @example {
             *       "error": {
             *         "code": "method_not_allowed",
             *         "message": "PUT is not allowed here; use POST, GET.",
             *         "details": []
             *       }
             *     }
             */
            "application/json": C["schemas"]["Error"];
        };
    };
}
