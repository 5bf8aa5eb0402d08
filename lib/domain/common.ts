import * as z from 'zod';

/**
 * A number the store keeps exactly: DynamoDB numbers span 1e-130 to 1e126 with 38 digits, and the SDK
 * refuses beyond ±(2^53 - 1) rather than lose precision. Within that, every JSON number round-trips. Every
 * non-integer number a request may store goes through this, so `1e-320` is a 400, not a store error.
 */
export const storedNumber = (base: z.ZodNumber = z.number()) =>
  base.refine(
    (n) => Math.abs(n) <= Number.MAX_SAFE_INTEGER && (n === 0 || Math.abs(n) >= 1e-130),
    `numbers lie within ±${Number.MAX_SAFE_INTEGER}, and are 0 or at least 1e-130 in size`,
  );
export const StoredNumber = storedNumber();

/** Timestamps are ISO 8601 strings in UTC. */
export const Timestamp = z.iso.datetime({ offset: true });
export const WorkspaceIdField = z.string().min(1).max(64);
/**
 * `workspaceId` in a create or start body. The spec's bodies carry it, but the API key already decides the
 * workspace (DESIGN.md), so it may be left out and then means the key's own; when sent it must be that one
 * (403 otherwise, checked by the middleware before the body is parsed). Optional so a request pasted from
 * the reference page works as is.
 */
export const BodyWorkspaceId = WorkspaceIdField.optional().describe(
  "Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise).",
);

/** `page` and `limit` as query strings; limit 1..100 (default 10), page 1..10,000 (default 1). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** The paginated list envelope of agents, contacts and history. */
export const pageEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

export interface Page<T> {
  readonly data: readonly T[];
  readonly total: number;
  readonly page: number;
  readonly limit: number;
}

/** Path parameter `id`. */
export const IdParams = z.object({ id: z.string().min(1).max(64) });

/** Text that people type: trimmed, non-empty, bounded. */
export const Name = z.string().trim().min(1).max(200);

