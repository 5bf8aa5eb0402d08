import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { createMeetingLink } from '../../lib/services/meetings.js';

export const handler = defineRoute(CALLS_ROUTES.createMeetingLink, ({ deps, workspaceId, body }) => createMeetingLink(deps, workspaceId, body));
