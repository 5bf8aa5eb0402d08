// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "provider": "elevenlabs",
 *       "data": [
 *         {
 *           "id": "21m00Tcm4TlvDq8ikWAM",
 *           "name": "Rachel",
 *           "language": "en",
 *           "gender": "female",
 *           "previewUrl": "https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3"
 *         },
 *         {
 *           "id": "pNInz6obpgDQGcFmaJgB",
 *           "name": "Adam",
 *           "language": "en",
 *           "gender": "male",
 *           "previewUrl": null
 *         }
 *       ]
 *     }
 */
export type Voices<S extends Record<"Voice", unknown>> = {
    /** @enum {string} */
    provider: "elevenlabs" | "deepgram" | "cartesia";
    data: S["Voice"][];
};
