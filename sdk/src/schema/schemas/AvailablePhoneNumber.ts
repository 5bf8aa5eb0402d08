// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "number": "+14155550123",
 *       "friendlyName": "(415) 555-0123",
 *       "locality": "San Francisco",
 *       "region": "CA",
 *       "postalCode": "94103",
 *       "country": "US",
 *       "capabilities": {
 *         "voice": true,
 *         "sms": true,
 *         "mms": true
 *       }
 *     }
 */
export type AvailablePhoneNumber = {
    number: string;
    friendlyName: string;
    locality: string | null;
    region: string | null;
    postalCode: string | null;
    country: string;
    capabilities: {
        voice: boolean;
        sms: boolean;
        mms: boolean;
    };
};
