import { BadRequestError, PayloadTooLargeError } from '../domain/errors.js';

/** JSON bodies over 1 MiB are refused: every entity here is far smaller, and it bounds parse cost. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Parses a JSON request body (the route stack's json-body middleware calls it).
 *
 * Refuses bodies over the limit, malformed JSON, any `__proto__` key at any
 * depth (a prototype-pollution vector once merged into another object), and strings or keys holding a lone
 * surrogate.
 *
 * Kept by hand rather than `@middy/http-json-body-parser` with a reviver, for a measured reason: that
 * parser brings @middy/util's createError and its table of status names, +2.7 KB minified per bundle
 * (esbuild with lib/infra/bundling.ts's options, December 2026), which takes functions/phone-numbers/import.ts
 * from 499.4 to 502.1 KB and phone-numbers/buy.ts to 500.8 KB, over test/offline/bundles.test.ts's 500 KB.
 * It would also not do the work here: it answers a missing or malformed body with a 415 (ours are
 * "no body" and a 400 `invalid_json`), caps no size, and replaces `event.body`, so a wrapper would
 * still have to catch and re-map every refusal.
 */
export function parseJsonBody(raw: string | undefined, isBase64: boolean): unknown {
  if (raw === undefined || raw === '') return undefined;
  const bytes = isBase64 ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > MAX_JSON_BODY_BYTES) throw new PayloadTooLargeError(MAX_JSON_BODY_BYTES);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'), (k, v: unknown) => {
      if (k === '__proto__') throw new ForbiddenKey();
      // A `\ud800` escape is valid JSON but not text: no store or vendor can hold a lone surrogate, and
      // each refuses it differently (often as a 5xx far from here). Refused once, at the edge.
      if (LONE_SURROGATE.test(k) || (typeof v === 'string' && LONE_SURROGATE.test(v))) throw new IllFormedText();
      return v;
    });
  } catch (error) {
    if (error instanceof ForbiddenKey) {
      throw new BadRequestError('The body contains a "__proto__" key, which is not allowed.', [
        { field: '__proto__', message: 'forbidden key' },
      ], 'forbidden_key');
    }
    if (error instanceof IllFormedText) {
      throw new BadRequestError('The body contains a string with a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape), which is not text.', [
        { field: 'body', message: 'lone surrogate in a string' },
      ], 'invalid_text');
    }
    throw new BadRequestError('The body is not valid JSON.', [{ message: (error as Error).message }], 'invalid_json');
  }
  return value;
}

/** In a `u` regex a surrogate matches only when it is unpaired. */
const LONE_SURROGATE = /\p{Cs}/u;

class ForbiddenKey extends Error {}
class IllFormedText extends Error {}
