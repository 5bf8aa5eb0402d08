import { ID_PREFIX } from '../../domain/ids.js';
import type { OperationId } from '../../infra/routes.js';

/** What every domain's examples share: the ids, the workspace, the timestamps, the numbers and the page shape. */

/** An id of the given kind: its prefix and a ULID of a fixed moment (examples must not change per build). */
export const id = (kind: keyof typeof ID_PREFIX, ulid: string) => `${ID_PREFIX[kind]}_${ulid}`;

export const EXAMPLE_IDS = {
  workspace: id('workspace', '01JWRF848R3JVSZ7EBQE8EMWFG'),
  agent: id('agent', '01JWRF9YVRV07ZX0MV7YH6S11D'),
  /** The practice's booking agent, which the example agent hands over to (docs/handoffs.md). */
  bookingAgent: id('agent', '01JWRG5TRR3M8QK2XD6B9NZ4VH'),
  tool: id('tool', '01JWRFBSERD1BS3W9VV6RZM94Y'),
  contact: id('contact', '01JWRFDM1R9CFJ88P7TD5FBWNC'),
  phoneNumber: id('phoneNumber', '01JWRFFEMRDV3APXSJENM3G73Y'),
  call: id('call', '01JWRFH97RNSQ4B7JD31A2QE39'),
  meeting: id('call', '01JWRFK3TRZXKY0WVNX2WE4XSF'),
  chat: id('call', '01JWRFM8Q2D7XK4TNV9B3C6YHZ'),
  webhookEndpoint: id('webhookEndpoint', '01JWRFN6ERB2Q5TV3C8XW0H7JD'),
  event: id('event', '01JWRFQ0ZR6M4KQ8YB2D9NWS5E'),
  delivery: id('delivery', '01JWRFRVJR3H7XGA5P1QK8ZC6M'),
  apiKey: id('apiKey', '01JWRFTPNR8Q1B6ZK4XD3M2V7H'),
  invitation: id('invitation', '01JWRFWH8R5C2N9TQ7EJ4K6B3A'),
  secondWorkspace: id('workspace', '01JWRFYC3RH4V8P2MX6QD9N1TE'),
  campaign: id('campaign', '01JWRFTPKR8D2MZ6XQ4VN7HB3C'),
  contact2: id('contact', '01JWRFWH5R1K9TB3YD6QZ2MC8P'),
  knowledgeBase: id('knowledgeBase', '01JWRG0A4R7N3KQ5XB8D2MZ6VT'),
  knowledgeDocument: id('knowledgeDocument', '01JWRG25GR4T8MB1XQ6N3KD9ZW'),
  knowledgeChunk: id('knowledgeChunk', '01JWRG3ZYR2P6QK9XD4M8BN7TC'),
} as const;

export const WS = EXAMPLE_IDS.workspace;
export const CREATED = '2025-06-02T14:03:11.000Z';
export const UPDATED = '2025-06-02T15:20:45.000Z';

/** The callee of the examples; +1 415 555-2671 is the number docs/api.md uses too. */
export const CALLEE = '+14155552671';
/** A number of the customer's own Twilio account, imported with its credentials (BYOT). */
export const IMPORTED = '+14155550142';

export const page = (item: unknown) => ({ data: [item], total: 1, page: 1, limit: 10 });

export interface OperationExamples {
  /** The JSON request body, exactly as the try-out sends it (no workspaceId: the key decides it). */
  readonly request?: unknown;
  /** The success answer's body. */
  readonly response?: unknown;
  /**
   * Path and query parameter values the try-out pre-fills. Only for path ids and parameters whose value
   * does not narrow the answer surprisingly: optional filters stay empty.
   */
  readonly params?: Readonly<Record<string, string>>;
}
