// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "message": "A colleague will call you back shortly. Goodbye."
 *     }
 */
export type EndCallRequest = {
    message?: string;
};
