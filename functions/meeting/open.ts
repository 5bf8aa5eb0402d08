import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { inspectMeetingLink } from '../../lib/services/meetings.js';
import { MEETING_PAGE_HEADERS, joinPage } from '../../lib/web/meeting/pages.js';

/** GET /meeting/{callId}?token=: shows the Join page of a good link WITHOUT using it (link scanners fetch URLs). */
export const handler = defineRoute(ROUTES.openMeeting, async ({ deps, params, query }) => {
  const { status, html } = joinPage(await inspectMeetingLink(deps, params.callId, query.token), query.token ?? '');
  return { raw: true as const, status, contentType: 'text/html; charset=utf-8', headers: MEETING_PAGE_HEADERS, body: html };
});
