// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "call_id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
 *       "status": "initiated"
 *     }
 */
export type CallStarted = {
    call_id: string;
    /** @constant */
    status: "initiated";
};
