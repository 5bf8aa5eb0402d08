import { monotonicFactory, ulid } from 'ulid';

const nextUlid = monotonicFactory();

/** Entity prefixes keep identifiers self-describing in logs and support tickets. */
export const ID_PREFIX = {
  workspace: 'ws',
  apiKey: 'key',
  agent: 'agt',
  tool: 'tool',
  contact: 'ct',
  call: 'call',
  phoneNumber: 'pn',
  ledger: 'led',
  webhookEndpoint: 'whe',
  event: 'evt',
  delivery: 'dlv',
  session: 'ses',
  invitation: 'inv',
  campaign: 'cmp',
  contactImport: 'imp',
  knowledgeBase: 'kb',
  knowledgeDocument: 'kdoc',
  knowledgeChunk: 'kch',
  agentTest: 'atst',
  agentTestRun: 'trun',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/**
 * A sortable, unguessable identifier: a type prefix and a ULID (48-bit time, 80 random bits).
 * `atMs` lets a record carry its own creation time, which history date-range queries rely on.
 */
export function newId(kind: IdKind, atMs?: number): string {
  // The monotonic factory keeps ids made in one millisecond in creation order, but it ignores a time
  // earlier than its last one, so an explicit time gets a plain ULID of that time.
  return `${ID_PREFIX[kind]}_${atMs === undefined ? nextUlid() : ulid(atMs)}`;
}

/** The smallest and largest ULID suffixes for a moment, for key-range queries by time. */
export function ulidTimeBounds(atMs: number): { low: string; high: string } {
  const ENCODING = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = '';
  let rest = Math.max(0, Math.floor(atMs));
  for (let i = 0; i < 10; i += 1) {
    time = ENCODING[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  return { low: `${time}${'0'.repeat(16)}`, high: `${time}${'Z'.repeat(16)}` };
}
