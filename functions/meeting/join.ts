import { webStreamUrl } from '../../lib/config.js';
import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { acceptsJson, meetingJoinToken } from '../../lib/http/form.js';
import { admittedSession, redeemMeetingLink } from '../../lib/services/meetings.js';
import { joinedPage, meetingPageHeaders } from '../../lib/web/meeting/pages.js';

/** The JSON join answer carries the tab's credential: no cache may keep it, no Referer carries anything. */
const JSON_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };

/**
 * POST /meeting/{callId}/join: redeems the single-use token sent in the body. The page's fetch (Accept:
 * application/json) gets the web session as JSON, or the JSON error body; a form post gets a page.
 */
export const handler = defineRoute(CALLS_ROUTES.joinMeeting, async ({ deps, params, event }) => {
  const outcome = await redeemMeetingLink(deps, params.callId, meetingJoinToken(event));
  if (acceptsJson(event)) {
    return { raw: true as const, contentType: 'application/json; charset=utf-8', headers: JSON_HEADERS, body: JSON.stringify(admittedSession(outcome)) };
  }
  const { status, html } = joinedPage(outcome);
  return { raw: true as const, status, contentType: 'text/html; charset=utf-8', headers: meetingPageHeaders(webStreamUrl(deps.config)), body: html };
});
