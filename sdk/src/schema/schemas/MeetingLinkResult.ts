// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "call_id": "call_01JWRFK3TRZXKY0WVNX2WE4XSF",
 *       "room_url": "https://api.example.com/meeting/call_01JWRFK3TRZXKY0WVNX2WE4XSF?token=q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc"
 *     }
 */
export type MeetingLinkResult = {
    call_id: string;
    room_url: string;
};
