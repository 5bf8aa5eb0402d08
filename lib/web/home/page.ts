import { createHash } from 'node:crypto';

/**
 * The start page (GET /): the first URL `npm start` prints, so a newcomer who opens it learns where
 * everything is instead of reading a JSON 404. A page rather than a redirect: there are several places to go
 * (the dashboard for people, the reference and the OpenAPI document for code), and picking one would hide
 * the others. Static HTML, no script; links are relative, so they work on the local server and on the
 * dashboard's origin on AWS, which serves the API too (docs/api.md, "Start page").
 */

/** The one stylesheet, inline: allowed by its hash, so the CSP stays as strict as the other pages'. */
const STYLE =
  'body{margin:0;font:1.0625rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#f9fafb}' +
  'main{max-width:40rem;margin:0 auto;padding:2rem 1.25rem}' +
  'h1{font-size:1.5rem;line-height:1.25;margin:0 0 .5rem}' +
  'p{margin:0 0 1rem;color:#374151}' +
  'ul{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}' +
  'li{background:#fff;border:1px solid #d1d5db;border-radius:.5rem;padding:.75rem 1rem}' +
  'a{color:#1d4ed8;font-weight:600}a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}' +
  'code{font-size:.9375rem;white-space:nowrap}' +
  '.what{display:block;color:#374151;font-weight:400}';

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Nothing runs; only the inline style above applies; the links are plain navigations. */
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  // The empty data: icon spares the browser a /favicon.ico request the API would answer with a 404.
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Where to go from here: each link with what it is for. */
export const START_LINKS = [
  { href: '/dashboard/', label: 'Dashboard', what: 'Sign in, create agents, buy numbers, read call history.' },
  { href: '/docs', label: 'API reference', what: 'Every route, its request and its answers; try them with your API key.' },
  { href: '/api/openapi.json', label: 'OpenAPI document', what: 'The same reference as OpenAPI 3.1, for generating a client.' },
] as const;

const BODY =
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Voice Agent Platform</title><link rel="icon" href="data:,">' +
  `<style>${STYLE}</style></head><body><main>` +
  '<h1>Voice Agent Platform</h1>' +
  '<p>This is the platform\'s API. Requests go to paths under <code>/api/</code> with an <code>x-api-key</code> header.</p>' +
  '<nav aria-label="Where to go"><ul>' +
  START_LINKS.map((l) => `<li><a href="${l.href}">${l.label}</a><span class="what">${l.what}</span></li>`).join('') +
  '</ul></nav></main></body></html>';

/** The start page and its headers: the same strict CSP and hardening headers as the other pages. */
export function startPage(): { html: string; headers: Record<string, string> } {
  return {
    html: BODY,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'permissions-policy': 'microphone=(), camera=(), geolocation=(), payment=()',
      // The page changes only with a deploy.
      'cache-control': 'public, max-age=300',
    },
  };
}
