import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { startPhoneCall } from '../../lib/services/calls.js';

/** POST /api/optimus/phone-call and its alias /api/optimus/call: one handler, two routes. */
export const handler = defineRoute(ROUTES.startPhoneCall, ({ deps, workspaceId, body, event }) =>
  startPhoneCall(deps, workspaceId, body, event.headers?.['idempotency-key']),
);
