// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

export type Error = {
    error: {
        /**
         * @description Stable snake_case code to branch on, e.g. validation_failed. New codes may be added.
         * @enum {string}
         */
        code: "bad_request" | "validation_failed" | "invalid_json" | "forbidden_key" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "payload_too_large" | "headers_too_large" | "unsupported_media_type" | "insufficient_credits" | "rate_limited" | "service_unavailable" | "internal_error" | "phone_number_taken" | "do_not_call" | "idempotency_key_reused" | "agent_not_allowed" | "already_member" | "campaign_not_startable" | "challenge_unsupported" | "country_not_supported" | "csrf_refused" | "email_not_verified" | "email_taken" | "full_key_in_page" | "invalid_campaign_state" | "invalid_code" | "invalid_credentials" | "invalid_multipart" | "invalid_search" | "invalid_signature" | "invalid_text" | "invalid_webhook" | "invitation_expired" | "invitation_for_another" | "invitation_invalid" | "limit_exceeded" | "link_expired" | "link_used" | "not_a_member" | "number_refused" | "number_routed_elsewhere" | "number_unavailable" | "origin_not_allowed" | "owner_required" | "session_required" | "sign_in_unavailable" | "unavailable" | "unsupported_file_type" | "user_not_confirmed" | "user_session_required" | "weak_password" | "webhook_disabled" | "widget_key" | "ambiguous_columns" | "cell_too_large" | "duplicate_column" | "empty_file" | "file_too_large" | "forbidden_column" | "invalid_csv" | "invalid_header" | "invalid_xlsx" | "missing_columns" | "missing_header" | "missing_variables" | "too_many_columns" | "too_many_rows" | "workbook_too_large" | "number_not_in_account" | "telephony_credentials_invalid" | "unknown_agent" | "mcp_server_unreachable" | "agent_changed" | "call_ended" | "call_not_connected" | "no_phone_line" | "transfer_in_progress" | "mcp_server_invalid" | "mcp_too_many_tools" | "mcp_schema_too_large" | "not_an_mcp_tool" | "invalid_document" | "document_too_large" | "knowledge_base_full" | "url_refused";
        /** @description A human sentence; may change between releases. */
        message: string;
        /** @description Usually a list of {field, message}; an object for some codes (insufficient_credits: {required, available}). */
        details: ({
            /** @description Dotted path of the offending input, e.g. config.url or query.limit. */
            field?: string;
            message?: string;
            /** @description The unknown field names, on an unrecognized-keys failure. */
            keys?: string[];
        } & {
            [key: string]: unknown;
        })[] | {
            [key: string]: unknown;
        };
    };
};
