import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { vi } from 'vitest';
import type { Db, RetryClock } from '../../lib/store/dynamo.js';

/** An AWS SDK client class: its prototype's `send` is what every instance calls. */
type ClientClass = { prototype: { send: (...args: any[]) => Promise<unknown> } };

/** A failure as the SDK throws it: a named service exception with the HTTP status it came with. */
export function serviceError(name: string, httpStatusCode = 500, message = `${name} (injected)`): Error {
  return Object.assign(new Error(message), { name, $fault: httpStatusCode >= 500 ? 'server' : 'client', $metadata: { httpStatusCode } });
}

/**
 * Makes every client of `Client` (in this process: the platform's and the test's) fail the commands that
 * `matches` picks with `error`, and send every other command as usual; `restore()` ends it. The failure is
 * injected at the client, where the SDK would throw it, so the code path is the production one.
 */
export function failCommands(Client: ClientClass, matches: (command: { constructor: { name: string }; input: any }) => boolean, error: Error) {
  const original = Client.prototype.send;
  const failed: string[] = [];
  const spy = vi.spyOn(Client.prototype, 'send').mockImplementation(function (this: unknown, ...args: any[]) {
    const command = args[0] as { constructor: { name: string }; input: any };
    if (matches(command)) {
      failed.push(command.constructor.name);
      return Promise.reject(error);
    }
    return original.apply(this, args);
  });
  return {
    /** The names of the commands that were failed, in order. */
    failed,
    restore: () => spy.mockRestore(),
  };
}

/** A matcher for commands by class name (`PutCommand`, `TransactWriteCommand`, `SendMessageCommand`). */
export const named = (...names: string[]) => (command: { constructor: { name: string } }) => names.includes(command.constructor.name);

/**
 * `deps` with a store where every transaction conflicts, as when many writers of one workspace race for its
 * balance item; every other command reaches the real store. Its retries run on a virtual clock: each
 * back-off moves the clock instead of waiting, so a transaction that nobody gets through gives up at once,
 * after as many tries as its stall budget allows (TRANSACT_STALL_MS; it waited 6 s when they were real).
 */
export function conflictingTransactions<D extends { db: Db }>(deps: D): D {
  const doc = new Proxy(deps.db.doc, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver);
      return (command: unknown, ...rest: unknown[]) => {
        if (command instanceof TransactWriteCommand) {
          return Promise.reject(new TransactionCanceledException({ message: 'conflict', $metadata: {}, CancellationReasons: [{ Code: 'TransactionConflict' }] }));
        }
        return (target.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
      };
    },
  });
  let virtualMs = Date.now();
  const retryClock: RetryClock = {
    now: () => virtualMs,
    sleep: async (ms) => {
      virtualMs += ms;
    },
  };
  return { ...deps, db: { ...deps.db, doc, retryClock } };
}

let lostAnswers = 0;

/**
 * Makes the table answer the first `times` requests that `matches` picks (by the SDK's command name and
 * its wire input) with a timeout AFTER the request was carried out, as when DynamoDB wrote an item and its
 * answer was lost on the way back: the SDK takes the timeout for a transient fault and sends the same
 * request again, which now meets its own write. Added to `db`'s own client, for every command it sends;
 * `restore()` ends it.
 */
export function loseAnswers(db: Db, matches: (commandName: string, input: any) => boolean, times = 1) {
  const name = `loseAnswers${(lostAnswers += 1)}`;
  const lost: string[] = [];
  db.doc.middlewareStack.add(
    (next: any, context: any) => async (args: any) => {
      const out = await next(args);
      if (lost.length < times && matches(context.commandName, args.input)) {
        lost.push(context.commandName);
        throw Object.assign(new Error('the answer was lost after the request was carried out (injected)'), { name: 'TimeoutError' });
      }
      return out;
    },
    // After the retry step: each attempt the SDK makes passes here.
    { step: 'deserialize', name },
  );
  return { lost, restore: () => db.doc.middlewareStack.remove(name) };
}

/**
 * Makes the table slow and contended for the requests `matches` picks (by class name and input, before the
 * document client marshals it): each waits `delayMs` before it is sent and again before its answer comes
 * back, and a share `conflictRate` of the transactions among them is canceled with TransactionConflict
 * before it reaches the table, as when other writers of the workspace hold its items. Every client of
 * `Client` in this process (the platform's included); `restore()` ends it.
 */
export function slowContendedStore(
  Client: ClientClass,
  options: { matches: (command: { constructor: { name: string }; input: any }) => boolean; delayMs: number; conflictRate: number },
) {
  const original = Client.prototype.send;
  const counts = { sent: 0, conflicted: 0 };
  const pause = () => new Promise((r) => setTimeout(r, options.delayMs));
  const spy = vi.spyOn(Client.prototype, 'send').mockImplementation(async function (this: unknown, ...args: any[]) {
    const command = args[0] as { constructor: { name: string }; input: any };
    if (!options.matches(command)) return original.apply(this, args);
    counts.sent += 1;
    await pause();
    if (command instanceof TransactWriteCommand && Math.random() < options.conflictRate) {
      counts.conflicted += 1;
      throw new TransactionCanceledException({ message: 'conflict (injected)', $metadata: {}, CancellationReasons: [{ Code: 'TransactionConflict' }] });
    }
    const out = await original.apply(this, args);
    await pause();
    return out;
  });
  return { counts, restore: () => spy.mockRestore() };
}
