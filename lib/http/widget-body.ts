import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from 'zod';
import { PayloadTooLargeError, ValidationError } from '../domain/errors.js';
import { parseJsonBody } from './json.js';

/**
 * A widget request's body: JSON sent as `text/plain`, so the browser makes a "simple" cross-origin request
 * without a preflight (docs/widget.md). The route takes it raw (the middleware would not know the content
 * type), so it is parsed and checked here with the same rules as any JSON body.
 */
export function widgetBody<S extends z.ZodType>(event: APIGatewayProxyEventV2, schema: S, maxBytes: number): z.infer<S> {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw, 'utf8');
  if (bytes > maxBytes) throw new PayloadTooLargeError(maxBytes);
  const value = parseJsonBody(raw, event.isBase64Encoded ?? false);
  if (value === undefined) throw new ValidationError([{ field: 'body', message: 'a JSON body is required' }]);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError(parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message })));
  }
  return parsed.data;
}

/** A widget session's answer: it carries the tab's credential, so no cache may keep it. */
export const noStoreJson = (value: unknown) => ({
  raw: true as const,
  contentType: 'application/json; charset=utf-8',
  headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
  body: JSON.stringify(value),
});
