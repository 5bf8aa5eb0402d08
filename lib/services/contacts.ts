import { contactPhone, type Contact, type ContactCreate, type ContactUpdate } from '../domain/contact.js';
import { ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { normalizePhone } from '../domain/phone.js';
import { getContact, putNewContact, saveContact, deleteContact } from '../store/contacts.js';
import type { Db } from '../store/dynamo.js';

/** Creates a contact with its number in E.164 and its region derived when not given. */
export async function createContact(db: Db, ws: string, input: ContactCreate): Promise<Contact> {
  const phone = contactPhone(input.phoneNumber);
  const now = new Date().toISOString();
  const contact: Contact = {
    _id: newId('contact'),
    contactName: input.contactName,
    phoneNumber: phone.e164,
    region: input.region ?? phone.region,
    workspaceId: ws,
    externalFields: input.externalFields,
    createdAt: now,
    updatedAt: now,
  };
  await putNewContact(db, contact);
  return contact;
}

/**
 * The region of a patched contact that was sent no region text: derived from the number when asked to
 * (`region: null`) or when the number changed, otherwise the one it had.
 */
function nextRegion(before: Contact, phone: { e164: string; region: string } | undefined, derive: boolean): string {
  if (phone && phone.e164 !== before.phoneNumber) return phone.region;
  if (!derive) return before.region;
  return (phone ?? normalizePhone(before.phoneNumber))?.region ?? before.region;
}

/** JSON merge patch of a contact. A new number without a region re-derives the region. */
export async function changeContact(db: Db, ws: string, id: string, input: ContactUpdate): Promise<Contact> {
  const before = await getContact(db, ws, id);
  const phone = input.phoneNumber ? contactPhone(input.phoneNumber) : undefined;
  // Merged in a Map: field names are client text, and a Map has no inherited keys for one to collide with.
  const fields = new Map(Object.entries(before.externalFields));
  for (const [k, v] of Object.entries(input.externalFields ?? {})) {
    if (v === null) fields.delete(k);
    else fields.set(k, v);
  }
  if (fields.size > 50) {
    throw new ValidationError([{ field: 'externalFields', message: 'at most 50 external fields' }]);
  }
  const after: Contact = {
    ...before,
    contactName: input.contactName ?? before.contactName,
    phoneNumber: phone?.e164 ?? before.phoneNumber,
    region: input.region ?? nextRegion(before, phone, input.region === null),
    // Object.fromEntries defines own data properties, whatever the names.
    externalFields: Object.fromEntries(fields),
    updatedAt: new Date().toISOString(),
  };
  await saveContact(db, before, after);
  return after;
}

/** Deletes the workspace's contact (404 if it has none by that id). */
export const removeContact = (db: Db, ws: string, id: string): Promise<void> => deleteContact(db, ws, id);
