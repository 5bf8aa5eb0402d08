// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "cmp_01JWRFTPKR8D2MZ6XQ4VN7HB3C",
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
 *       "schedule": {
 *         "startAt": "2025-06-02T13:00:00.000Z",
 *         "endAt": "2025-06-09T01:00:00.000Z"
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
 *         },
 *         "busy": {
 *           "retries": 2,
 *           "delayMinutes": 15
 *         },
 *         "voicemail": {
 *           "retries": 1,
 *           "delayMinutes": 240
 *         },
 *         "failed": {
 *           "retries": 1,
 *           "delayMinutes": 30
 *         }
 *       },
 *       "status": "draft",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "updatedAt": "2025-06-02T15:20:45.000Z",
 *       "progress": {
 *         "status": "draft",
 *         "contacts": {
 *           "total": 1,
 *           "pending": 1,
 *           "inFlight": 0,
 *           "finished": 0,
 *           "skipped": 0
 *         },
 *         "outcomes": {
 *           "answered": 0,
 *           "voicemail": 0,
 *           "busy": 0,
 *           "no_answer": 0,
 *           "failed": 0
 *         },
 *         "attempts": {
 *           "answered": 0,
 *           "voicemail": 0,
 *           "busy": 0,
 *           "no_answer": 0,
 *           "failed": 0
 *         },
 *         "nextAttempts": [
 *           {
 *             "contactId": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
 *             "at": "2025-06-02T14:03:11.000Z"
 *           }
 *         ]
 *       },
 *       "variables": {
 *         "clinic": "Bayview Dental"
 *       }
 *     }
 */
export type CampaignDetail = {
    _id: string;
    name: string;
    agentId: string;
    agent_version?: number;
    phoneNumberIds: string[];
    contacts: {
        contactIds: string[];
    } | {
        search: string;
    } | {
        importId: string;
    };
    schedule: {
        /** Format: date-time */
        startAt?: string;
        /** Format: date-time */
        endAt?: string;
    };
    callingWindow: {
        start: string;
        end: string;
        days: ("sun" | "mon" | "tue" | "wed" | "thu" | "fri" | "sat")[];
        timeZone?: string;
    };
    concurrency: number;
    retry: {
        no_answer: {
            retries: number;
            delayMinutes: number;
        };
        busy: {
            retries: number;
            delayMinutes: number;
        };
        voicemail: {
            retries: number;
            delayMinutes: number;
        };
        failed: {
            retries: number;
            delayMinutes: number;
        };
    };
    variables?: {
        [key: string]: string | number | boolean;
    };
    /** @enum {string} */
    status: "draft" | "scheduled" | "running" | "paused" | "completed" | "cancelled";
    statusReason?: string;
    workspaceId: string;
    /** Format: date-time */
    createdAt: string;
    /** Format: date-time */
    updatedAt: string;
    progress: {
        /** @enum {string} */
        status: "draft" | "scheduled" | "running" | "paused" | "completed" | "cancelled";
        statusReason?: string;
        contacts: {
            total: number;
            pending: number;
            inFlight: number;
            finished: number;
            skipped: number;
        };
        /** @description each finished contact's last outcome */
        outcomes: {
            answered: number;
            voicemail: number;
            busy: number;
            no_answer: number;
            failed: number;
        };
        /** @description every dial's outcome */
        attempts: {
            answered: number;
            voicemail: number;
            busy: number;
            no_answer: number;
            failed: number;
        };
        /** @description the next contacts due, earliest first (at most 10) */
        nextAttempts: {
            contactId: string;
            /** Format: date-time */
            at: string;
        }[];
    };
};
