import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createMeetingLink } from '../../lib/services/meetings.js';

export const handler = defineRoute(ROUTES.createMeetingLink, ({ deps, workspaceId, body }) => createMeetingLink(deps, workspaceId, body));
