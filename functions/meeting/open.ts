import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { meetingPage, redeemMeetingLink } from '../../lib/services/meetings.js';

/** GET /meeting/{callId}?token=: redeems the single-use link and serves the (minimal) meeting page. */
export const handler = defineRoute(ROUTES.openMeeting, async ({ deps, params, query }) => {
  const { status, html } = meetingPage(await redeemMeetingLink(deps, params.callId, query.token));
  return {
    raw: true as const,
    status,
    contentType: 'text/html; charset=utf-8',
    // The link is a secret: keep it out of caches and out of Referer headers of anything the page loads.
    headers: { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    body: html,
  };
});
