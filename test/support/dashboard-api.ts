import { expect, inject } from 'vitest';
import { confirmationCodeOf } from '../../lib/local/platform/cognito.js';

/**
 * Dashboard sign-in for connected tests: a browser-like client of the /auth endpoints that keeps the
 * HttpOnly refresh cookie as a browser would, and the code cognito-local "emailed" (read from its store).
 */
export class DashboardBrowser {
  cookie: string | undefined;
  readonly setCookies: string[] = [];

  constructor(private readonly baseUrl: string) {}

  /** POSTs to /auth/<path> as the dashboard page does (the CSRF header, a JSON body) unless `headers` replaces the header. */
  async auth(path: string, body?: unknown, headers: Record<string, string> = { 'x-requested-with': 'dashboard' }) {
    const res = await fetch(`${this.baseUrl}/auth/${path}`, {
      method: 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.get('set-cookie');
    if (set) {
      this.setCookies.push(set);
      const value = /^vas_refresh=([^;]*)/.exec(set)?.[1];
      this.cookie = value ? `vas_refresh=${value}` : undefined;
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
}

export interface DashboardSession {
  apiKey: string;
  expiresAt: string;
  user: { id: string; email: string };
  workspace: { id: string; name: string; role: string };
  workspaces: { id: string; name: string; role: string }[];
}

/**
 * The latest code cognito-local issued to the email (sign-up or password reset). With `previous`, one other
 * than that: its store file can lag a new code for a moment (lib/local/platform/cognito.ts), so it is read again
 * until the new code shows (or 5 s pass, when a new code happened to repeat the old one).
 */
export async function codeFor(email: string, previous?: string): Promise<string | undefined> {
  const cognito = inject('stores').cognito;
  const deadline = Date.now() + 5_000;
  for (;;) {
    const code = await confirmationCodeOf(cognito.dataDir, cognito.userPoolId, email);
    if (previous === undefined || code !== previous || Date.now() >= deadline) return code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Signs a user up, confirms them with their code and signs in; the browser holds the refresh cookie. */
export async function signedUpUser(baseUrl: string, email: string, password: string, workspaceName = 'Acme') {
  const browser = new DashboardBrowser(baseUrl);
  const up = await browser.auth('sign-up', { email, password, workspaceName });
  expect(up).toEqual({ status: 201, body: { confirmationRequired: true } });
  const code = await codeFor(email);
  expect(code).toMatch(/^\d{6}$/);
  expect((await browser.auth('confirm-sign-up', { email, code })).status).toBe(204);
  const signIn = await browser.auth('sign-in', { email, password });
  expect(signIn.status).toBe(200);
  return { email, browser, session: signIn.body as DashboardSession };
}
