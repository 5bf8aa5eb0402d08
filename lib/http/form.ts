import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A body the size of a token form; anything longer is not one (the JSON cap does not apply to raw bodies). */
const MAX_FORM_BYTES = 4 * 1024;

/**
 * The `token` of a meeting join: a form post (`token=...`, what the Join page sends) or JSON `{"token"}`
 * (a script's fetch). Undefined when absent or malformed; the caller treats that as an unknown link.
 */
export function meetingJoinToken(event: APIGatewayProxyEventV2): string | undefined {
  const raw = event.body ?? '';
  if (raw.length > MAX_FORM_BYTES * 2) return undefined;
  // API Gateway may base64-encode form bodies.
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  const type = (event.headers?.['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      const token = typeof parsed === 'object' && parsed !== null ? (parsed as { token?: unknown }).token : undefined;
      return typeof token === 'string' ? token : undefined;
    } catch {
      return undefined;
    }
  }
  return new URLSearchParams(text).get('token') ?? undefined;
}

/**
 * Whether a client asked for JSON (`Accept: application/json`, what the meeting page's fetch sends) rather
 * than a page (a browser's form post accepts text/html first).
 */
export function acceptsJson(event: APIGatewayProxyEventV2): boolean {
  return /\bapplication\/json\b/i.test(event.headers?.accept ?? '');
}
