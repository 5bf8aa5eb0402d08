// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "text": "One moment, I am checking that for you.",
 *       "mode": "queue"
 *     }
 */
export type SayRequest = {
    text: string;
    /**
     * @description Default: `"queue"`.
     * @enum {string}
     */
    mode?: "interrupt" | "queue";
};
