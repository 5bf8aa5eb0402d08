/**
 * Invariant: `transact` retries a transaction that meets other writers for as long as the others get
 * through (what its `standing` sees keeps changing), however long that takes; it gives up (StoreBusyError)
 * only after TRANSACT_STALL_MS in which nobody got through, or at the request's deadline; it answers a lost
 * race with the index `standing` names; and a try DynamoDB still holds in progress is asked again with the
 * same ClientRequestToken, never as a new request that would meet its own writes.
 */
import { TransactionCanceledException, TransactionInProgressException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { StoreBusyError, TRANSACT_STALL_MS, transact, withRequestDeadline, type Db } from '../../lib/store/dynamo.js';

const conflict = () => new TransactionCanceledException({ message: 'conflict', $metadata: {}, CancellationReasons: [{ Code: 'TransactionConflict' }] });

/** A table whose answers `answer` decides per try, on a virtual clock: back-offs move it instead of waiting. */
function fakeDb(answer: (attempt: number, input: { ClientRequestToken?: string }) => Error | undefined) {
  const tokens: string[] = [];
  const clock = { ms: 0 };
  const doc = {
    send: async (command: { input: { ClientRequestToken?: string } }) => {
      tokens.push(command.input.ClientRequestToken ?? '');
      const error = answer(tokens.length, command.input);
      if (error) throw error;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  const db: Db = { doc, table: 'unit', retryClock: { now: () => clock.ms, sleep: async (ms) => void (clock.ms += ms) } };
  return { db, tokens, clock };
}

const item = [{ Put: { TableName: 'unit', Item: { pk: 'A', sk: 'B' } } }];

describe('transact', () => {
  it('keeps trying past the stall budget while other writers get through, and succeeds', async () => {
    const { db, tokens, clock } = fakeDb((n) => (n < 100 ? conflict() : undefined));
    let balance = 1_000;
    // Every third look finds the balance moved: the crowd is taking its turns.
    let looks = 0;
    const standing = async () => ({ seen: (looks += 1) % 3 === 0 ? (balance -= 1) : balance });
    // Inside a request with ten minutes left, so only the stall budget could end it.
    expect(await withRequestDeadline(Date.now() + 600_000, () => transact(db, item, { standing }))).toEqual({});
    expect(tokens).toHaveLength(100);
    expect(clock.ms).toBeGreaterThan(TRANSACT_STALL_MS * 3);
  });

  it('gives up with StoreBusyError once nobody got through for the stall budget, and not before', async () => {
    const { db, clock } = fakeDb(() => conflict());
    const error = await transact(db, item, { standing: async () => ({ seen: 7 }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreBusyError);
    expect((error as Error).cause).toBeInstanceOf(TransactionCanceledException);
    expect(clock.ms).toBeGreaterThan(TRANSACT_STALL_MS - 1_000);
    expect(clock.ms).toBeLessThanOrEqual(TRANSACT_STALL_MS);
  });

  it("ends at the request's deadline even while the others get through", async () => {
    const { db, clock } = fakeDb(() => conflict());
    let seen = 0;
    const error = await withRequestDeadline(Date.now() + 4_000, () => transact(db, item, { standing: async () => ({ seen: (seen += 1) }) })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreBusyError);
    // The deadline less the margin kept for answering (2 s).
    expect(clock.ms).toBeLessThanOrEqual(2_000);
  });

  it('answers a lost race with the index its standing names, without another try', async () => {
    const { db, tokens } = fakeDb(() => conflict());
    expect(await transact(db, item, { standing: async () => ({ lostAt: 2, seen: 0 }) })).toEqual({ failedIndex: 2 });
    expect(tokens).toHaveLength(1);
  });

  it('asks again with the same token while its try is in progress, and with a new one after a conflict', async () => {
    const answers: (Error | undefined)[] = [new TransactionInProgressException({ message: 'in progress', $metadata: {} }), conflict(), undefined];
    const { db, tokens } = fakeDb((n) => answers[n - 1]);
    expect(await transact(db, item, { standing: async () => ({ seen: 1 }) })).toEqual({});
    expect(tokens).toHaveLength(3);
    expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(tokens[1]).toBe(tokens[0]);
    expect(tokens[2]).not.toBe(tokens[1]);
  });
});
