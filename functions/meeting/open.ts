import { webStreamUrl } from '../../lib/config.js';
import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { inspectMeetingLink } from '../../lib/services/meetings.js';
import { meetingPageHeaders, openPage } from '../../lib/web/meeting/pages.js';

/**
 * GET /meeting/{callId}?token=: the Join page of a good link, WITHOUT using it (link scanners fetch URLs).
 * Without a token: the room page, whose script rejoins with the tab's own credential.
 */
export const handler = defineRoute(CALLS_ROUTES.openMeeting, async ({ deps, params, query }) => {
  const outcome = query.token === undefined ? undefined : await inspectMeetingLink(deps, params.callId, query.token);
  const { status, html } = openPage(params.callId, outcome, query.token);
  return { raw: true as const, status, contentType: 'text/html; charset=utf-8', headers: meetingPageHeaders(webStreamUrl(deps.config)), body: html };
});
