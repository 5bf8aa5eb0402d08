// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "url": "wss://stream.example.com/live/listen?token=vlt1.eyJ3b3Jrc3BhY2VJZCI6IndzXzAxIn0.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
 *       "expiresAt": "2025-06-02T14:09:19.000Z",
 *       "format": {
 *         "encoding": "pcm_s16le",
 *         "sampleRate": 8000,
 *         "channels": [
 *           "caller",
 *           "agent"
 *         ],
 *         "headerBytes": 8
 *       }
 *     }
 */
export type ListenResult = {
    url: string;
    expiresAt: string;
    format: {
        /** @constant */
        encoding: "pcm_s16le";
        sampleRate: 8000 | 16000;
        channels: [
            "caller",
            "agent"
        ];
        /** @constant */
        headerBytes: 8;
    };
};
