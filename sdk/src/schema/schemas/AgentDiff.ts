// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "from": 2,
 *       "to": "draft",
 *       "changes": [
 *         {
 *           "field": "first_message",
 *           "before": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
 *           "after": "Hello from Bayview Dental! I am calling to confirm your appointment tomorrow."
 *         }
 *       ]
 *     }
 */
export type AgentDiff = {
    from: "draft" | number;
    to: "draft" | number;
    changes: {
        field: string;
        before?: unknown;
        after?: unknown;
    }[];
};
