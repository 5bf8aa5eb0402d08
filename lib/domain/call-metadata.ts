import * as z from 'zod';
import { ValidationError } from './errors.js';

/**
 * `metadata` on a call (docs/calls.md, "Metadata"): the caller's own object, stored with the call, returned
 * on its history record, sent in every webhook about it, and filterable in the history list
 * (`metadata.key=value`), as Vapi's and Retell's `metadata` are. We never read it otherwise.
 */

/** At most 50 top-level keys and 16 KB of JSON: room for a CRM's ids, not for a document. */
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_BYTES = 16 * 1024;
/** A key a history filter can name: a letter or `_`, then letters, digits, `_` or `-`; 64 characters at most. */
export const METADATA_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

export const CallMetadata = z
  .record(z.string().regex(METADATA_KEY, 'a metadata key is a letter or _ then letters, digits, _ or -; 64 characters at most'), z.unknown())
  .superRefine((m, ctx) => {
    if (Object.keys(m).length > MAX_METADATA_KEYS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_METADATA_KEYS} keys` });
    if (Buffer.byteLength(JSON.stringify(m)) > MAX_METADATA_BYTES) ctx.addIssue({ code: 'custom', message: `at most ${MAX_METADATA_BYTES} bytes of JSON` });
  })
  .describe('Your own object for this call (at most 50 keys, 16 KB of JSON): stored on the call, returned on its history record and in every webhook about it, filterable with metadata.key=value (docs/calls.md)');
export type CallMetadata = Record<string, unknown>;

/** The history list's `metadata.<key>=<value>` parameters. */
export const METADATA_FILTER_PREFIX = 'metadata.';
/** At most 5 metadata filters on one listing: each is a filter over the workspace's records. */
export const MAX_METADATA_FILTERS = 5;

/**
 * The `metadata.<key>=<value>` pairs of a history query, checked: a known key shape, at most five. A
 * value matches a stored string equal to it, or a stored number or boolean written the same way.
 */
export function metadataFilters(query: Readonly<Record<string, unknown>>): [string, string][] {
  const pairs = Object.entries(query).filter(([k]) => k.startsWith(METADATA_FILTER_PREFIX));
  const bad = pairs.filter(([k, v]) => !METADATA_KEY.test(k.slice(METADATA_FILTER_PREFIX.length)) || typeof v !== 'string' || v.length > 200);
  if (bad.length > 0) throw new ValidationError(bad.map(([k]) => ({ field: k, message: 'a metadata filter is metadata.<key>=<value>: a key as metadata takes, a value of at most 200 characters' })));
  if (pairs.length > MAX_METADATA_FILTERS) throw new ValidationError([{ field: 'metadata', message: `at most ${MAX_METADATA_FILTERS} metadata filters` }]);
  return pairs.map(([k, v]) => [k.slice(METADATA_FILTER_PREFIX.length), v as string]);
}

/**
 * A listing's query schema that also takes `metadata.<key>` parameters (checked by {@link metadataFilters}
 * when the listing runs) and still refuses any other unknown parameter, as `.strict()` does.
 */
export function withMetadataFilters<Shape extends z.ZodRawShape>(query: z.ZodObject<Shape>) {
  const known = new Set(Object.keys(query.shape));
  return query.catchall(z.string()).superRefine((q, ctx) => {
    for (const k of Object.keys(q)) {
      if (!known.has(k) && !k.startsWith(METADATA_FILTER_PREFIX)) ctx.addIssue({ code: 'custom', path: [k], message: `unknown query parameter ${k}` });
    }
  });
}
