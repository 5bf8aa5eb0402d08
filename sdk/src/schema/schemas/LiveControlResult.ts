// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
 *       "status": "ending"
 *     }
 */
export type LiveControlResult = {
    id: string;
    /** @enum {string} */
    status: "ending" | "ended" | "speaking" | "queued" | "context_added" | "transferring";
    replayed?: boolean;
};
