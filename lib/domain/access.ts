import { AppError } from './errors.js';

/**
 * What the one middleware stack (lib/http/handler.ts and middleware/, session-cookie.ts, lib/services/api-keys.ts) needs of the
 * dashboard's and the widget's rules, apart from those domains' schemas: every Lambda bundles the stack, and
 * a module of zod schemas is never tree-shaken out of a bundle (each schema is a call at load time).
 * dashboard.ts and widget.ts re-export these.
 */

/** `lastUsedAt` of a key is written at most this often per key and process: a listing needs minutes, not every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export const userSessionRequired = () =>
  new AppError(403, 'user_session_required', 'Only a signed-in dashboard user can do this; API keys cannot manage keys or members.');
export const ownerRequired = () => new AppError(403, 'owner_required', 'Only an owner of this workspace can do this.');
export const sessionRequired = () => new AppError(401, 'session_required', 'Sign in again: the session has ended.');
export const csrfRefused = () =>
  new AppError(403, 'csrf_refused', 'This request must come from the dashboard page (x-requested-with: dashboard, same origin).');
export const jsonRequired = () =>
  new AppError(415, 'unsupported_media_type', 'Send the body as JSON (content-type: application/json).', [{ field: 'content-type', message: 'expected application/json' }]);

/** A widget key on any other endpoint. */
export const widgetKeyRefused = () =>
  new AppError(403, 'widget_key', 'This is a widget key: it can only start widget sessions (docs/widget.md). Use a full API key for the API.');

/**
 * A widget key, or one visitor address on it, with as many sessions open as it may have. `retryAfterSeconds`
 * is when a place frees at the latest: the first of those leases runs out then (a pending one within
 * seconds, one whose socket opened at its session's longest end); a conversation ending frees one sooner.
 */
export class TooManyWidgetSessionsError extends AppError {
  readonly headers: Record<string, string>;

  constructor(scope: 'key' | 'visitor', limit: number, retryAfterSeconds: number) {
    const who = scope === 'key' ? 'This widget key has' : 'Your address has';
    const most = scope === 'key' ? 'the most it may have at once' : 'the most one visitor address may have at once on this site';
    super(429, 'rate_limited', `${who} ${limit} conversations open, ${most}; a place frees within ${retryAfterSeconds} seconds (sooner when one ends).`, [
      {
        message: `at most ${limit} sessions open at once per ${scope === 'key' ? 'widget key' : 'visitor address and widget key'}`,
        policy: scope === 'key' ? 'widget-sessions' : 'widget-sessions-ip',
        limit,
        retryAfterSeconds,
      },
    ]);
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}
