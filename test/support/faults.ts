import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { vi } from 'vitest';
import type { Db } from '../../lib/store/dynamo.js';

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
 * balance item; every other command reaches the real store.
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
  return { ...deps, db: { ...deps.db, doc } };
}
