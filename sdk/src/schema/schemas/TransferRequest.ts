// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "to": "+14155550142",
 *       "mode": "warm",
 *       "summary": "Ada wants to move her appointment."
 *     }
 */
export type TransferRequest = {
    to: string;
    /**
     * @description Default: `"cold"`.
     * @enum {string}
     */
    mode?: "cold" | "warm";
    summary?: string;
};
