import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { meetingJoinToken } from '../../lib/http/form.js';
import { redeemMeetingLink } from '../../lib/services/meetings.js';
import { MEETING_PAGE_HEADERS, joinedPage } from '../../lib/web/meeting/pages.js';

/** POST /meeting/{callId}/join (the Join page's form): redeems the single-use token sent in the body. */
export const handler = defineRoute(ROUTES.joinMeeting, async ({ deps, params, event }) => {
  const { status, html } = joinedPage(await redeemMeetingLink(deps, params.callId, meetingJoinToken(event)));
  return { raw: true as const, status, contentType: 'text/html; charset=utf-8', headers: MEETING_PAGE_HEADERS, body: html };
});
