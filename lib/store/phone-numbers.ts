import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../domain/common.js';
import { ConflictError } from '../domain/errors.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import { deleteCounted, getRecord, insertCounted, listCounted, requireRecord, type CollectionSpec } from './collection.js';
import { batchGetItems, type Db, type PageRequest } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';
import type { SecretBox } from './secret-box.js';
import { updateExisting } from './update.js';

const NUMBERS: CollectionSpec = { entity: 'phoneNumber', label: 'Phone number', itemKey: key.phoneNumber };

/** The stored item: the number plus, for BYOT, the customer's auth token sealed to the workspace. */
type StoredNumber = PhoneNumber & { authTokenSealed?: string };

/** The global claim on a number: which workspace holds it. */
export interface NumberOwner {
  readonly workspaceId: string;
  readonly numberId: string;
}

const withoutSecret = ({ authTokenSealed: _sealed, ...number }: StoredNumber): PhoneNumber => number;

/** A number with its BYOT auth token opened (undefined for bought numbers). */
type NumberWithToken = { number: PhoneNumber; authToken?: string };

const ownerOf = (item: Record<string, unknown>): NumberOwner => ({ workspaceId: item.workspaceId as string, numberId: item.numberId as string });

export const numberTaken = (e164: string) =>
  new ConflictError('phone_number_taken', `${e164} already belongs to a workspace on this platform.`, [
    { field: 'phoneNumber', message: 'owned by a workspace (this one or another); release it there first' },
  ]);

/**
 * Stores a new number, its global claim and the count in one transaction. The claim's condition makes a
 * number belong to at most one workspace: a second claim, from any workspace, is a 409.
 */
export async function putNewPhoneNumber(db: Db, box: SecretBox, number: PhoneNumber, authToken?: string): Promise<void> {
  const item: Record<string, unknown> = {
    ...key.phoneNumber(number.workspaceId, number._id),
    entity: ENTITY.phoneNumber,
    v: TABLE_SCHEMA_VERSION,
    ...number,
    ...(authToken ? { authTokenSealed: box.seal(authToken, number.workspaceId) } : {}),
  };
  const { failedIndex } = await insertCounted(db, NUMBERS, number.workspaceId, item, [
    {
      Put: {
        TableName: db.table,
        Item: {
          ...key.numberOwner(number.number),
          entity: ENTITY.numberOwner,
          v: TABLE_SCHEMA_VERSION,
          workspaceId: number.workspaceId,
          numberId: number._id,
          createdAt: number.createdAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  if (failedIndex !== undefined) throw numberTaken(number.number);
}

/** Who holds a number, if anyone. */
export async function findNumberOwner(db: Db, e164: string): Promise<NumberOwner | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.numberOwner(e164), ConsistentRead: true }));
  return out.Item ? ownerOf(out.Item) : undefined;
}

/** A number of the workspace, or 404. */
export async function getPhoneNumber(db: Db, ws: string, id: string): Promise<PhoneNumber> {
  return withoutSecret(await requireRecord<StoredNumber>(db, NUMBERS, ws, id));
}

/** A number with its BYOT auth token opened (undefined for bought numbers), or 404. */
export async function getPhoneNumberWithToken(
  db: Db,
  box: SecretBox,
  ws: string,
  id: string,
): Promise<{ number: PhoneNumber; authToken?: string }> {
  const stored = await requireRecord<StoredNumber>(db, NUMBERS, ws, id);
  return { number: withoutSecret(stored), authToken: stored.authTokenSealed ? box.open(stored.authTokenSealed, ws) : undefined };
}

/**
 * The number called at `e164`, with its BYOT token opened, for the webhooks: the claim, then the record.
 * Undefined when no workspace holds it.
 */
export async function findPhoneNumberByE164(db: Db, box: SecretBox, e164: string): Promise<NumberWithToken | undefined> {
  const owner = await findNumberOwner(db, e164);
  return owner && ownedNumber(db, box, owner);
}

/**
 * The first of `e164s` (in their order) that a workspace holds, as {@link findPhoneNumberByE164} finds it:
 * the claims of all of them in one batch read (a webhook names the call's two numbers, and usually only one
 * is ours), then the record. Undefined when none is held.
 */
export async function findFirstPhoneNumberByE164(db: Db, box: SecretBox, e164s: readonly string[]): Promise<NumberWithToken | undefined> {
  const candidates = [...new Set(e164s)];
  if (candidates.length === 0) return undefined;
  const claims = await batchGetItems(db, candidates.map((e164) => key.numberOwner(e164)));
  const owners = new Map(claims.map((item) => [String(item.pk), ownerOf(item)]));
  for (const e164 of candidates) {
    const owner = owners.get(key.numberOwner(e164).pk);
    const found = owner && (await ownedNumber(db, box, owner));
    if (found) return found;
  }
  return undefined;
}

/** The record a claim names, with its BYOT token opened; undefined when the record is gone. */
async function ownedNumber(db: Db, box: SecretBox, owner: NumberOwner): Promise<NumberWithToken | undefined> {
  const stored = await getRecord<StoredNumber>(db, NUMBERS, owner.workspaceId, owner.numberId);
  if (!stored) return undefined;
  return {
    number: withoutSecret(stored),
    authToken: stored.authTokenSealed ? box.open(stored.authTokenSealed, owner.workspaceId) : undefined,
  };
}

/** A page of the workspace's numbers, newest first. */
export async function listPhoneNumbers(db: Db, ws: string, req: PageRequest): Promise<Page<PhoneNumber>> {
  const page = await listCounted<StoredNumber>(db, NUMBERS, ws, req);
  return { ...page, data: page.data.map(withoutSecret) };
}

/** Sets (or with null removes) the number's inbound webhook; 404 when the number is gone. */
export async function setInboundWebhookUrl(db: Db, ws: string, id: string, url: string | null, now: string): Promise<PhoneNumber> {
  const key_ = key.phoneNumber(ws, id);
  if (url !== null) return withoutSecret(await updateExisting<StoredNumber>(db, key_, { inboundWebhookUrl: url, updatedAt: now }, NUMBERS.label));
  await updateExisting<StoredNumber>(db, key_, { updatedAt: now }, NUMBERS.label);
  await db.doc.send(new UpdateCommand({ TableName: db.table, Key: key_, UpdateExpression: 'REMOVE inboundWebhookUrl' }));
  return getPhoneNumber(db, ws, id);
}

/** Sets (or with null clears) the agent that answers the number; 404 when the number is gone. */
export async function setPhoneNumberAgent(db: Db, ws: string, id: string, agentId: string | null, now: string, agentVersion: number | null = null): Promise<PhoneNumber> {
  return withoutSecret(await updateExisting<StoredNumber>(db, key.phoneNumber(ws, id), { agentId, agentVersion, updatedAt: now }, NUMBERS.label));
}

/** Deletes the number and releases its global claim (only if the claim is this workspace's). */
export async function deletePhoneNumber(db: Db, number: Pick<PhoneNumber, '_id' | 'number' | 'workspaceId'>): Promise<void> {
  await deleteCounted(db, NUMBERS, number.workspaceId, number._id, [
    {
      Delete: {
        TableName: db.table,
        Key: key.numberOwner(number.number),
        ConditionExpression: 'attribute_not_exists(pk) OR workspaceId = :ws',
        ExpressionAttributeValues: { ':ws': number.workspaceId },
      },
    },
  ]);
}
