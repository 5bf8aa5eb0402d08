import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../domain/common.js';
import type { Contact } from '../domain/contact.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { phoneDigits } from '../domain/phone.js';
import type { Db, PageRequest } from './dynamo.js';
import { batchGetItems, queryAll, transact } from './dynamo.js';
import {
  deleteCounted,
  getRecord,
  insertCounted,
  listCounted,
  pageOfMatches,
  type CollectionSpec,
} from './collection.js';
import { COLLECTION, ENTITY, TABLE_SCHEMA_VERSION, fromItem, key } from './model.js';

const CONTACTS: CollectionSpec = { entity: 'contact', label: 'Contact', itemKey: key.contact };

/** Lower-cased name and the number's digits, matched by `search`. */
const searchText = (c: Pick<Contact, 'contactName' | 'phoneNumber'>) =>
  `${c.contactName.toLowerCase()}|${c.phoneNumber}|${phoneDigits(c.phoneNumber)}`;

/** The stored item of a contact (also written in bulk by contact-import.ts). */
export const toItem = (c: Contact) => ({
  ...key.contact(c.workspaceId, c._id),
  entity: ENTITY.contact,
  v: TABLE_SCHEMA_VERSION,
  searchText: searchText(c),
  ...c,
});

/** The put that claims a contact's number in its workspace; fails its condition when the number is taken. */
export const phoneGuard = (db: Db, c: Pick<Contact, 'workspaceId' | 'phoneNumber' | '_id'>) => ({
  Put: {
    TableName: db.table,
    Item: { ...key.contactPhone(c.workspaceId, c.phoneNumber), entity: ENTITY.contactPhone, contactId: c._id },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

const duplicate = (phoneNumber: string) =>
  new ConflictError('phone_number_taken', `A contact with phone number ${phoneNumber} already exists.`, [
    { field: 'phoneNumber', message: 'already used by another contact in this workspace' },
  ]);

/** Stores a new contact; its phone number must be new to the workspace (409 otherwise). */
export async function putNewContact(db: Db, contact: Contact): Promise<void> {
  const { failedIndex } = await insertCounted(db, CONTACTS, contact.workspaceId, toItem(contact), [
    phoneGuard(db, contact),
  ]);
  if (failedIndex !== undefined) throw duplicate(contact.phoneNumber);
}

/** Whether the workspace already has a contact with this E.164 number. */
export async function contactIdByPhone(db: Db, ws: string, e164: string): Promise<string | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.contactPhone(ws, e164), ConsistentRead: true }));
  return out.Item?.contactId as string | undefined;
}

export async function getContact(db: Db, ws: string, id: string): Promise<Contact> {
  const found = await getRecord<Contact>(db, CONTACTS, ws, id);
  if (!found) throw new NotFoundError(CONTACTS.label);
  return found;
}

/** A page of contacts, newest first; with `search`, those whose name or number contains it. */
export function listContacts(db: Db, ws: string, req: PageRequest & { search?: string }): Promise<Page<Contact>> {
  const q = req.search?.trim().toLowerCase();
  if (!q) return listCounted<Contact>(db, CONTACTS, ws, req);
  return pageOfMatches<Contact>(contactsMatching(db, ws, q), req);
}

/** Every contact whose name or number contains `search` (lower-cased), newest first, read in the workspace's partition. */
export function contactsMatching(db: Db, ws: string, search: string): AsyncGenerator<Record<string, unknown>> {
  const q = search.trim().toLowerCase();
  const digits = /^[+\d\s().-]+$/.test(q) ? phoneDigits(q) : '';
  return queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: digits ? 'contains(searchText, :q) OR contains(searchText, :d)' : 'contains(searchText, :q)',
    ExpressionAttributeValues: { ':pk': `WS#${ws}`, ':prefix': COLLECTION.contact, ':q': q, ...(digits ? { ':d': digits } : {}) },
    ScanIndexForward: false,
  });
}

/** Every contact one import wrote (contacts carry the `importId` of the upload that created them). */
export function contactsOfImport(db: Db, ws: string, importId: string): AsyncGenerator<Record<string, unknown>> {
  return queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'importId = :imp',
    ExpressionAttributeValues: { ':pk': `WS#${ws}`, ':prefix': COLLECTION.contact, ':imp': importId },
  });
}

/** The contacts of these ids that the workspace has (strongly consistent; unknown ids are absent). */
export async function contactsById(db: Db, ws: string, ids: readonly string[]): Promise<Map<string, Contact>> {
  const items = await batchGetItems(db, [...new Set(ids)].map((id) => key.contact(ws, id)));
  return new Map(items.map((item) => [String(item._id), fromItem<Contact>(item)]));
}

/**
 * Saves an edited contact. When the number changed, the old guard is released and the new one claimed in
 * the same transaction, so two contacts can never hold one number.
 */
export async function saveContact(db: Db, before: Contact, after: Contact): Promise<void> {
  const items: Parameters<typeof transact>[1] = [
    { Put: { TableName: db.table, Item: toItem(after), ConditionExpression: 'attribute_exists(pk)' } },
  ];
  if (before.phoneNumber !== after.phoneNumber) {
    items.push(phoneGuard(db, after), {
      Delete: { TableName: db.table, Key: key.contactPhone(before.workspaceId, before.phoneNumber) },
    });
  }
  const { failedIndex } = await transact(db, items);
  if (failedIndex === 0) throw new NotFoundError(CONTACTS.label);
  if (failedIndex === 1) throw duplicate(after.phoneNumber);
}

/** Deletes a contact and releases its number. */
export async function deleteContact(db: Db, ws: string, id: string): Promise<void> {
  const contact = await getContact(db, ws, id);
  await deleteCounted(db, CONTACTS, ws, id, [
    { Delete: { TableName: db.table, Key: key.contactPhone(ws, contact.phoneNumber) } },
  ]);
}
