import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Deps } from '../../deps.js';
import type { RateDecision } from '../../domain/rate-window.js';
import type { KeyUser } from '../../store/workspaces.js';

/** The presented key as a route sees it (docs/dashboard.md: session keys carry a user). */
export interface Caller {
  readonly keyId: string;
  readonly user?: KeyUser;
}

/** What the middlewares of one request hand to each other and to the route (on `event.app`). */
export interface AppState {
  deps?: Deps;
  workspaceId?: string;
  caller?: Caller;
  /** Resolves when the key is confirmed current (see authenticate.ts). */
  verified?: Promise<void>;
  /** The JSON body as parsed, before validation (undefined for raw and bodiless routes). */
  parsedBody?: unknown;
  input?: { body: unknown; query: unknown; params: unknown };
  /** The rate-limit decision of this request, reported in the RateLimit headers of the answer. */
  rate?: RateDecision;
  started: number;
}

export type Event = APIGatewayProxyEventV2 & { app?: AppState };

/** One middleware of the route stack (lib/http/handler.ts lists them in the order they run). */
export type RouteMiddleware = MiddlewareObj<Event, APIGatewayProxyStructuredResultV2, Error, Context>;

/** The state `requestState` put on the event; every later middleware may rely on it. */
export const stateOf = (event: Event): AppState => event.app!;

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return event.headers?.[name] ?? event.headers?.[name.toLowerCase()];
}

export const json = (status: number, payload: unknown, requestId: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
  body: JSON.stringify(payload),
});
