import type { RouteSpec } from '../../infra/routes.js';
import { parseJsonBody } from '../json.js';
import { stateOf, type RouteMiddleware } from './state.js';

/** A JSON route's body, parsed by our rules (lib/http/json.ts); raw and bodiless routes keep theirs as sent. */
export const jsonBody = (route: RouteSpec): RouteMiddleware => ({
  before: async (request) => {
    if (route.bodyKind === 'raw' || route.bodyKind === 'none') return;
    stateOf(request.event).parsedBody = parseJsonBody(request.event.body, request.event.isBase64Encoded);
  },
});
