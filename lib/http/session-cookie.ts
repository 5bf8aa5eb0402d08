import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Config } from '../config.js';
import { csrfRefused, jsonRequired, sessionRequired } from '../domain/access.js';
import type { Session } from '../domain/dashboard.js';
import type { RawResponse } from './handler.js';

/**
 * The dashboard's refresh cookie and its CSRF rule (docs/dashboard.md, "Sessions"). The Cognito refresh
 * token lives only here: HttpOnly (no script reads it), `Path=/auth` (sent to the auth endpoints only, never
 * to the API), `SameSite=Strict` (no other site's page makes the browser send it), `Secure` over https.
 */
export const REFRESH_COOKIE = 'vas_refresh';
/** The cookie lasts as long as the app client's refresh tokens (30 days, lib/infra/constructs/dashboard.ts). */
export const REFRESH_COOKIE_MAX_AGE_S = 30 * 86_400;

const secure = (config: Pick<Config, 'PUBLIC_BASE_URL'>) => new URL(config.PUBLIC_BASE_URL).protocol === 'https:';

function cookieHeader(config: Pick<Config, 'PUBLIC_BASE_URL'>, value: string, maxAge: number): string {
  return [`${REFRESH_COOKIE}=${value}`, 'Path=/auth', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAge}`, ...(secure(config) ? ['Secure'] : [])].join('; ');
}

/** The refresh token from the request's cookies; `session_required` when there is none. */
export function readRefreshCookie(event: APIGatewayProxyEventV2): string {
  const pairs = event.cookies ?? event.headers?.cookie?.split(/;\s*/) ?? [];
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === REFRESH_COOKIE) {
      const value = pair.slice(at + 1).trim();
      // Cognito's refresh tokens are a few KB of base64url and dots; anything else is not one of ours.
      if (value && value.length <= 8192 && /^[A-Za-z0-9._~+/=-]+$/.test(value)) return value;
    }
  }
  throw sessionRequired();
}

/**
 * The rule of every /auth route (docs/dashboard.md, "CSRF"), checked before anything else runs:
 * - the header `x-requested-with: dashboard`: a cross-site form cannot send it, and a cross-site fetch that
 *   does needs a CORS preflight we never grant;
 * - an `Origin`, when sent, that is this host or one of the dashboard's configured origins (another port of
 *   this host is another origin, though the same site: SameSite=Strict lets its requests carry the cookie);
 * - a body, when there is one, sent as `application/json`: no form can send that type (a text/plain form
 *   whose field name and value concatenate into JSON was how another site signed a visitor in as itself).
 * 403 `csrf_refused` or 415 `unsupported_media_type`; nothing has been read or counted yet.
 */
export function assertDashboardRequest(event: APIGatewayProxyEventV2, config: Pick<Config, 'PUBLIC_BASE_URL' | 'DASHBOARD_ORIGINS'>): void {
  const headers = event.headers ?? {};
  if (headers['x-requested-with'] !== 'dashboard') throw csrfRefused();
  const origin = headers.origin;
  if (origin !== undefined) {
    const allowed = new Set([new URL(config.PUBLIC_BASE_URL).origin, ...config.DASHBOARD_ORIGINS]);
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      throw csrfRefused();
    }
    if (!allowed.has(origin) && host !== headers.host) throw csrfRefused();
  }
  const type = headers['content-type'];
  const hasBody = event.body !== undefined && event.body !== '';
  if (type === undefined ? hasBody : type.split(';')[0]!.trim().toLowerCase() !== 'application/json') throw jsonRequired();
}

/** What every /auth handler passes to defineRoute: the rule above, run before anything else. */
export const DASHBOARD_REQUEST = { dashboardRequest: assertDashboardRequest } as const;

const jsonBody = (status: number, body: unknown, headers: Record<string, string>): RawResponse => ({
  raw: true,
  status,
  contentType: 'application/json; charset=utf-8',
  body: body === undefined ? '' : JSON.stringify(body),
  // The session key is in the body: no cache may keep it.
  headers: { 'cache-control': 'no-store', ...headers },
});

/** A session answer that also sets the refresh cookie (sign-in). */
export const sessionWithCookie = (config: Pick<Config, 'PUBLIC_BASE_URL'>, session: Session, refreshToken: string): RawResponse =>
  jsonBody(200, session, { 'set-cookie': cookieHeader(config, refreshToken, REFRESH_COOKIE_MAX_AGE_S) });

/** A session answer without touching the cookie (refresh, accepting an invitation). */
export const sessionAnswer = (session: Session): RawResponse => jsonBody(200, session, {});

/** The 204 of sign-out, which also removes the cookie. */
export const signedOut = (config: Pick<Config, 'PUBLIC_BASE_URL'>): RawResponse =>
  jsonBody(204, undefined, { 'set-cookie': cookieHeader(config, '', 0) });
