import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { startPhoneCall } from '../../lib/services/outbound-calls.js';

/** POST /api/optimus/phone-call and its alias /api/optimus/call: one handler, two routes. */
export const handler = defineRoute(CALLS_ROUTES.startPhoneCall, ({ deps, workspaceId, body, event }) =>
  startPhoneCall(deps, workspaceId, body, event.headers?.['idempotency-key']),
);
