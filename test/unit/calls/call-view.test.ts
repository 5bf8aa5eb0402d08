/**
 * Invariant: one call's view never names a history record while it says the call is in progress. Every end
 * settles the call before it writes the record, but the view reads both; a read of the call that lands before
 * the end and a read of the record after it must not make a view no client can act on (the dashboard stops
 * following a call once it has a record).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../../lib/deps.js';
import { getCallView } from '../../../lib/services/live-calls.js';
import type { Db } from '../../../lib/store/dynamo.js';

const WS = 'ws_1';
const CALL = 'call_01';
const base = {
  _id: CALL, workspaceId: WS, agentId: 'agent_1', agentType: 'voice', direction: 'outbound', from: '+14155550100', to: '+14155550101',
  createdAt: '2026-12-06T10:00:00.000Z', answeredAt: '2026-12-06T10:00:05.000Z', updatedAt: '2026-12-06T10:00:05.000Z',
};

/** A table where the call ends (settled, then its record written) between the view's read of the call and of the record. */
function endingBetweenReads(): { db: Db; reads: string[] } {
  const reads: string[] = [];
  let ended = false;
  const send = async (command: unknown) => {
    if (!(command instanceof GetCommand)) throw new Error('only reads are expected');
    const sk = String(command.input.Key?.sk);
    reads.push(sk);
    if (sk.startsWith('LIVECALL#')) {
      const item = ended
        ? { ...base, status: 'completed', endReason: 'customer_hangup', endedAt: '2026-12-06T10:01:00.000Z' }
        : { ...base, status: 'in-progress' };
      // The call is read while live; it ends before anything else is read.
      ended = true;
      return { Item: { pk: `WS#${WS}`, sk, ...item } };
    }
    return ended ? { Item: { pk: `WS#${WS}` } } : {};
  };
  return { db: { table: 't', doc: { send } } as unknown as Db, reads };
}

describe('one call, read as it ends', () => {
  it('is completed with its record, never in progress with one', async () => {
    const { db, reads } = endingBetweenReads();
    const view = await getCallView({ db } as Pick<Deps, 'db' | 'config' | 'secrets'>, WS, CALL);
    expect(view).toMatchObject({ id: CALL, state: 'completed', historyId: CALL, endReason: 'customer_hangup', agentState: null });
    expect(reads.filter((sk) => sk.startsWith('LIVECALL#'))).toHaveLength(2);
  });
});
