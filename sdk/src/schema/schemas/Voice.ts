// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "id": "21m00Tcm4TlvDq8ikWAM",
 *       "name": "Rachel",
 *       "language": "en",
 *       "gender": "female",
 *       "previewUrl": "https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3"
 *     }
 */
export type Voice = {
    id: string;
    name: string;
    language: string | null;
    gender: string | null;
    previewUrl: string | null;
};
