/**
 * The dashboard's response headers, shared by the local server (lib/local/platform/dashboard.ts) and, on AWS, the
 * CloudFront response-headers policy: one source for the CSP.
 *
 * Only this origin's scripts and styles run; the API is this origin (connect-src 'self'), and `socketOrigins`
 * the streaming service's (`wss://…`, the Live page's listen socket). Recordings play
 * from presigned URLs on the recordings bucket, another origin: `mediaOrigins` names it (locally the S3
 * stand-in, on AWS the bucket's regional endpoint). "Talk to this agent" opens the meeting page in a new
 * tab, so nothing here needs the microphone.
 */
export function dashboardCsp(mediaOrigins: readonly string[], socketOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // The Live page listens to a call on the streaming service's origin (docs/live-calls.md); locally it is this one.
    `connect-src 'self' ${socketOrigins.join(' ')}`.trim(),
    "img-src 'self'",
    "font-src 'self'",
    `media-src 'self' ${mediaOrigins.join(' ')}`.trim(),
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers of index.html (never cached: it names the current hashed assets) and of the assets. */
export function dashboardHeaders(mediaOrigins: readonly string[], kind: 'page' | 'asset'): Record<string, string> {
  return {
    'content-security-policy': dashboardCsp(mediaOrigins),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'permissions-policy': 'microphone=(), camera=(), geolocation=(), payment=()',
    // Vite names assets by content hash: they never change, so they may be cached for good.
    'cache-control': kind === 'asset' ? 'public, max-age=31536000, immutable' : 'no-store',
  };
}
