import { contactPhone, type Contact, type ContactCreate, type ContactUpdate } from '../domain/contact.js';
import { ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { getContact, putNewContact, saveContact } from '../store/contacts.js';
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

/** JSON merge patch of a contact. A new number without a region re-derives the region. */
export async function changeContact(db: Db, ws: string, id: string, input: ContactUpdate): Promise<Contact> {
  const before = await getContact(db, ws, id);
  const phone = input.phoneNumber ? contactPhone(input.phoneNumber) : undefined;
  const externalFields: Contact['externalFields'] = { ...before.externalFields };
  for (const [k, v] of Object.entries(input.externalFields ?? {})) {
    if (v === null) delete externalFields[k];
    else externalFields[k] = v;
  }
  if (Object.keys(externalFields).length > 50) {
    throw new ValidationError([{ field: 'externalFields', message: 'at most 50 external fields' }]);
  }
  const after: Contact = {
    ...before,
    contactName: input.contactName ?? before.contactName,
    phoneNumber: phone?.e164 ?? before.phoneNumber,
    region: input.region ?? (phone && phone.e164 !== before.phoneNumber ? phone.region : before.region),
    externalFields,
    updatedAt: new Date().toISOString(),
  };
  await saveContact(db, before, after);
  return after;
}
