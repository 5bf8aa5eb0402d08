// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "message": "The caller is a returning customer; offer the loyalty discount."
 *     }
 */
export type ContextRequest = {
    message: string;
};
