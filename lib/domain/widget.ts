import * as z from 'zod';
import { AppError } from './errors.js';

/**
 * The embeddable widget's rules about keys and origins (docs/widget.md). A widget key is public: anyone can
 * read it in the page's source. So it can do one thing (start widget sessions for the agents it names,
 * from the origins it lists) and every other endpoint refuses it; and the widget refuses a full key, which
 * in page source would hand the whole workspace to every visitor.
 */

/** A widget key on any other endpoint. */
export const widgetKeyRefused = () =>
  new AppError(403, 'widget_key', 'This is a widget key: it can only start widget sessions (docs/widget.md). Use a full API key for the API.');

/** A full key presented by the widget. */
export const fullKeyInPage = () =>
  new AppError(
    403,
    'full_key_in_page',
    'The widget only accepts a widget key: a full API key in a web page would let any visitor read and change the workspace. Create a widget key (npm run cli -- key create --widget …) and revoke this one if it was published.',
  );

export const originNotAllowed = () =>
  new AppError(403, 'origin_not_allowed', 'This widget key may not be used from this web site (its origin is not in the key\u2019s list).');

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

export const agentNotAllowed = () => new AppError(403, 'agent_not_allowed', 'This widget key does not name that agent.');

/**
 * An origin as browsers send it in `Origin`: scheme, host and port, nothing else (`https://shop.example`).
 * Returns undefined for anything else (a path, credentials, another scheme).
 */
export function canonicalOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  if (text.replace(/\/$/, '') !== url.origin) return undefined;
  return url.origin;
}

/** The body of `POST /widget/session` and `POST /widget/chat`: a text/plain JSON body (see docs/widget.md, "Why text/plain"). */
export const WidgetSessionRequest = z.strictObject({
  apiKey: z.string().min(1).max(200),
  agentId: z.string().min(1).max(64),
});
export type WidgetSessionRequest = z.infer<typeof WidgetSessionRequest>;

/** The most a widget request body may hold: a key and an agent id (a chat message has its own limit). */
export const MAX_WIDGET_BODY_BYTES = 4 * 1024;
