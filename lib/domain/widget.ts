import * as z from 'zod';
import { AppError } from './errors.js';

export { TooManyWidgetSessionsError, widgetKeyRefused } from './access.js';

/**
 * The embeddable widget's rules about keys and origins (docs/widget.md). A widget key is public: anyone can
 * read it in the page's source. So it can do one thing (start widget sessions for the agents it names,
 * from the origins it lists) and every other endpoint refuses it; and the widget refuses a full key, which
 * in page source would hand the whole workspace to every visitor.
 */


/** A full key presented by the widget. */
export const fullKeyInPage = () =>
  new AppError(
    403,
    'full_key_in_page',
    'The widget only accepts a widget key: a full API key in a web page would let any visitor read and change the workspace. Create a widget key (npm run cli -- key create --widget …) and revoke this one if it was published.',
  );

export const originNotAllowed = () =>
  new AppError(403, 'origin_not_allowed', 'This widget key may not be used from this web site (its origin is not in the key\u2019s list).');


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
