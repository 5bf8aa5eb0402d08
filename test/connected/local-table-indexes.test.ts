/**
 * Invariant: `npm start` on a DATA_DIR kept from before an index existed gets it: ensureTable adds every
 * index of the model that the existing table lacks (GSI2, the live calls of GET /api/calls), and leaves a
 * table that has them all as it is.
 */
import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../lib/local/platform/dynamodb.js';
import { GSI1, GSI2, TABLE } from '../../lib/store/model.js';

const client = new DynamoDBClient({ endpoint: inject('stores').dynamodb, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const table = `t-old-${randomBytes(6).toString('hex')}`;
afterAll(async () => {
  await client.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
  client.destroy();
});

const indexNames = async () =>
  ((await client.send(new DescribeTableCommand({ TableName: table }))).Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort();

describe('a table kept from before GSI2', () => {
  it('gets the missing index at start, once', async () => {
    // The table as the model was before GSI2: its keys and GSI1 only.
    await client.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: GSI1,
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    expect(await indexNames()).toEqual([GSI1]);
    await ensureTable(inject('stores').dynamodb, table);
    expect(await indexNames()).toEqual(TABLE.globalIndexes.map((i) => i.name).sort());
    expect(await indexNames()).toContain(GSI2);
    // A second start finds nothing to add (an UpdateTable for an existing index would throw).
    await ensureTable(inject('stores').dynamodb, table);
    expect(await indexNames()).toEqual([GSI1, GSI2]);
  });
});
