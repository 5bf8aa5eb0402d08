import { ForbiddenError } from '../../domain/errors.js';
import type { RouteSpec } from '../../infra/routes.js';
import { stateOf, type RouteMiddleware } from './state.js';

function assertOwnWorkspace(claimed: unknown, own: string): void {
  if (typeof claimed === 'string' && claimed !== own) throw new ForbiddenError();
}

/** A key acts on its own workspace only: a `workspaceId` in the query or the body naming another is 403. */
export const tenancy = (route: RouteSpec): RouteMiddleware => ({
  before: async (request) => {
    if (!route.auth) return;
    const state = stateOf(request.event);
    assertOwnWorkspace(request.event.queryStringParameters?.workspaceId, state.workspaceId!);
    const body = state.parsedBody;
    if (body && typeof body === 'object') assertOwnWorkspace((body as Record<string, unknown>).workspaceId, state.workspaceId!);
  },
});
