// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "name": "June appointment reminders",
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "phoneNumberIds": [
 *         "pn_01JWRFFEMRDV3APXSJENM3G73Y"
 *       ],
 *       "contacts": {
 *         "contactIds": [
 *           "ct_01JWRFDM1R9CFJ88P7TD5FBWNC"
 *         ]
 *       },
 *       "callingWindow": {
 *         "start": "09:00",
 *         "end": "20:00",
 *         "days": [
 *           "mon",
 *           "tue",
 *           "wed",
 *           "thu",
 *           "fri"
 *         ]
 *       },
 *       "concurrency": 2,
 *       "retry": {
 *         "no_answer": {
 *           "retries": 2,
 *           "delayMinutes": 60
 *         }
 *       },
 *       "variables": {
 *         "clinic": "Bayview Dental"
 *       }
 *     }
 */
export type CampaignCreate = {
    name: string;
    agentId: string;
    /** @description a published version of the agent to run instead of its latest (docs/agent-versions.md) */
    agent_version?: number;
    /** @description numbers to call from, used in turn */
    phoneNumberIds: string[];
    contacts: {
        contactIds: string[];
    } | {
        search: string;
    } | {
        importId: string;
    };
    /** @description Default: `{}`. */
    schedule?: {
        /** Format: date-time */
        startAt?: string;
        /** Format: date-time */
        endAt?: string;
    };
    /** @description Default: `{"start":"09:00","end":"20:00","days":["mon","tue","wed","thu","fri"]}`. */
    callingWindow?: {
        /** @description Default: `"09:00"`. */
        start?: string;
        /** @description Default: `"20:00"`. */
        end?: string;
        /** @description Default: `["mon","tue","wed","thu","fri"]`. */
        days?: ("sun" | "mon" | "tue" | "wed" | "thu" | "fri" | "sat")[];
        /** @description Read the window in this zone for every contact; by default each contact's own (its timeZone field, else its number's country) */
        timeZone?: string;
    };
    /** @description Default: `5`. */
    concurrency?: number;
    /** @description Default: `{"no_answer":{"retries":2,"delayMinutes":60},"busy":{"retries":2,"delayMinutes":15},"voicemail":{"retries":1,"delayMinutes":240},"failed":{"retries":1,"delayMinutes":30}}`. */
    retry?: {
        /** @description Default: `{"retries":2,"delayMinutes":60}`. */
        no_answer?: {
            /** @description how many more times a contact is called after this outcome */
            retries: number;
            /** @description minutes before the next try */
            delayMinutes: number;
        };
        /** @description Default: `{"retries":2,"delayMinutes":15}`. */
        busy?: {
            /** @description how many more times a contact is called after this outcome */
            retries: number;
            /** @description minutes before the next try */
            delayMinutes: number;
        };
        /** @description Default: `{"retries":1,"delayMinutes":240}`. */
        voicemail?: {
            /** @description how many more times a contact is called after this outcome */
            retries: number;
            /** @description minutes before the next try */
            delayMinutes: number;
        };
        /** @description Default: `{"retries":1,"delayMinutes":30}`. */
        failed?: {
            /** @description how many more times a contact is called after this outcome */
            retries: number;
            /** @description minutes before the next try */
            delayMinutes: number;
        };
    };
    /** @description Values for {{name}} in the agent's prompt, first message, voicemail message, analysis prompts and tools, for this call (docs/calls.md) */
    variables?: {
        [key: string]: string | number | boolean;
    };
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
