/**
 * Invariant: the store writes any map a user keyed, whatever the keys: every name Object.prototype owns
 * (`constructor` above all, which the SDK's marshaller reads to tell a map) round-trips through the
 * marshalling options every table access uses.
 */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDb, MARSHALL_OPTIONS } from '../../lib/store/dynamo.js';

const NAMES = Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== '__proto__');

describe('marshalling user-keyed maps', () => {
  it.each(NAMES)('a map with the key "%s" round-trips, nested and at the top', (name) => {
    const item = { pk: 'p', [name]: 'top', externalFields: { [name]: 'v', n: 1, b: true }, config: { headers: { [name]: 'sealed' } } };
    const back = unmarshall(marshall(item, MARSHALL_OPTIONS));
    expect(back).toEqual(item);
    expect(Object.getOwnPropertyDescriptor(back.externalFields, name)?.value).toBe('v');
  });

  it('stay as written once a store client has sent a command (the SDK writes its defaults into the options it is given)', async () => {
    const before = { ...MARSHALL_OPTIONS };
    const db = createDb({ table: 'marshall-options', region: 'us-east-1', endpoint: 'http://127.0.0.1:9' });
    // Nothing listens on port 9: the command fails, after its middleware (the marshalling step) has run.
    await db.doc.send(new PutCommand({ TableName: db.table, Item: { pk: 'p', sk: 's' } })).catch(() => undefined);
    db.doc.destroy();
    expect(MARSHALL_OPTIONS).toEqual(before);
  });

  it('without the option the SDK refuses a map holding "constructor" (what made these writes 500)', () => {
    expect(() => marshall({ m: { constructor: 'x' } }, { removeUndefinedValues: true })).toThrow(/Unsupported type/);
  });
});
