import { createHash } from 'node:crypto';
import type { LinkOutcome } from '../../services/meetings.js';

/**
 * The pages of a meeting link. No script at all: the Join button is a plain form POST, so the page works
 * without JavaScript and a link scanner that fetches the URL (and runs nothing, submits nothing) cannot use
 * the link up. The real meeting room (microphone, the agent's audio) is a later issue; the admitted page
 * says what happens and pretends nothing more.
 */

/** Readable at any size: system fonts, body text #111827 on white (16:1), the button white on #1d4ed8 (6.7:1). */
const CSS = [
  'body{margin:0;font:1.125rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#fff}',
  'main{max-width:36rem;margin:10vh auto;padding:0 1.25rem}',
  'h1{font-size:1.75rem;line-height:1.25;margin:0 0 .75rem}',
  'button{font:inherit;font-weight:600;color:#fff;background:#1d4ed8;border:0;border-radius:.5rem;padding:.75rem 2rem;cursor:pointer}',
  'button:hover{background:#1e40af}',
  // A focus ring that is visible on white and does not rely on the button colour (WCAG 2.4.7, 1.4.11).
  'button:focus-visible{outline:3px solid #111827;outline-offset:3px}',
].join('');

/** The stylesheet is inline and fixed, so the CSP allows exactly it by hash; nothing else may load or run. */
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of every meeting page: the link is a secret, so no cache keeps a page and no Referer carries the
 * URL to anything; no framing; the CSP above.
 */
export const MEETING_PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
} as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${CSS}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

const message = (title: string, text: string) => page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);

/** Pages for a link that does not work (the same for an open and a join). */
function refusedPage(outcome: LinkOutcome): { status: number; html: string } {
  switch (outcome.kind) {
    case 'used':
      return { status: 410, html: message('Link already used', 'This meeting link has already been used. Ask for a new link.') };
    case 'expired':
      return { status: 410, html: message('Link expired', 'This meeting link has expired. Ask for a new link.') };
    default:
      return { status: 404, html: message('Link not found', 'This meeting link is not valid.') };
  }
}

/**
 * GET /meeting/{callId}?token=: the Join page for a good link. The token goes back in the POST body, never
 * in a URL the browser would log or send on.
 */
export function joinPage(outcome: LinkOutcome, token: string): { status: number; html: string } {
  if (outcome.kind !== 'valid') return refusedPage(outcome);
  const agent = escapeHtml(outcome.agentName);
  const body =
    `<h1>Call with ${agent}</h1>` +
    `<p id="how">Join to start your call with ${agent}. This link works once: after you join, it cannot be used again.</p>` +
    // Relative to /meeting/{callId}: the form posts to /meeting/{callId}/join on this origin.
    `<form method="post" action="${escapeHtml(encodeURIComponent(outcome.callId))}/join">` +
    `<input type="hidden" name="token" value="${escapeHtml(token)}">` +
    `<button type="submit" aria-describedby="how">Join</button></form>`;
  return { status: 200, html: page(`Call with ${outcome.agentName}`, body) };
}

/** POST /meeting/{callId}/join: the admitted page, or why the link does not work. */
export function joinedPage(outcome: LinkOutcome): { status: number; html: string } {
  if (outcome.kind !== 'admitted') return refusedPage(outcome);
  const agent = escapeHtml(outcome.agentName);
  const body =
    `<h1 role="status">Connecting you to ${agent}…</h1>` +
    '<p>Your link is now used, and this session is yours. Keep this page open.</p>';
  return { status: 200, html: page(`Connecting you to ${outcome.agentName}`, body) };
}
