import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { controlCall } from '../../lib/services/live-call-control.js';

/** Steering a live call (docs/live-calls.md): one handler per command, each a call of controlCall. */
const key = (headers: Record<string, string | undefined> | undefined) => headers?.['idempotency-key'];

export const end = defineRoute(CALLS_ROUTES.endCall, ({ deps, workspaceId, params, body, event }) =>
  controlCall(deps, workspaceId, params.id, { kind: 'end', ...(body.message ? { message: body.message } : {}) }, key(event.headers)),
);
export const say = defineRoute(CALLS_ROUTES.sayOnCall, ({ deps, workspaceId, params, body, event }) =>
  controlCall(deps, workspaceId, params.id, { kind: 'say', text: body.text, mode: body.mode }, key(event.headers)),
);
export const context = defineRoute(CALLS_ROUTES.addCallContext, ({ deps, workspaceId, params, body, event }) =>
  controlCall(deps, workspaceId, params.id, { kind: 'context', message: body.message }, key(event.headers)),
);
export const transfer = defineRoute(CALLS_ROUTES.transferCall, ({ deps, workspaceId, params, body, event }) =>
  controlCall(deps, workspaceId, params.id, { kind: 'transfer', to: body.to, mode: body.mode, ...(body.summary ? { summary: body.summary } : {}) }, key(event.headers)),
);
