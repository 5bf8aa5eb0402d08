import { IdParams, pageEnvelope } from '../../domain/common.js';
import { ContactImportForm, ContactImportResult } from '../../domain/contact-import/schema.js';
import { ContactCreate, ContactListItem, ContactListQuery, ContactUpdate, ContactView } from '../../domain/contact.js';
import { listQuery, route, type RouteSpec } from '../route-spec.js';

/** The contacts routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const CONTACTS_ROUTES = {
  createContact: route({ method: 'POST', path: '/api/contacts', entry: 'functions/contacts/routes.ts', summary: 'Create a contact', tag: 'Contacts', auth: true, body: ContactCreate, errors: [409], status: 201, response: ContactView }),
  listContacts: route({ method: 'GET', path: '/api/contacts', entry: 'functions/contacts/routes.ts', summary: 'List contacts, newest first; search by name or phone', tag: 'Contacts', auth: true, query: listQuery(ContactListQuery), status: 200, response: pageEnvelope(ContactListItem) }),
  getContact: route({ method: 'GET', path: '/api/contacts/{id}', entry: 'functions/contacts/routes.ts', summary: 'Get a contact', tag: 'Contacts', auth: true, params: IdParams, status: 200, response: ContactView }),
  updateContact: route({ method: 'PATCH', path: '/api/contacts/{id}', entry: 'functions/contacts/routes.ts', summary: 'Update a contact (JSON merge patch)', tag: 'Contacts', auth: true, params: IdParams, body: ContactUpdate, errors: [409], status: 200, response: ContactView }),
  deleteContact: route({ method: 'DELETE', path: '/api/contacts/{id}', entry: 'functions/contacts/routes.ts', summary: 'Delete a contact', tag: 'Contacts', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
  uploadContacts: route({ method: 'POST', path: '/api/contacts/upload', entry: 'functions/contacts/upload.ts', summary: 'Import contacts from a CSV or .xlsx file (see docs/contact-import.md)', tag: 'Contacts', auth: true, bodyKind: 'raw', consumes: 'multipart/form-data', form: ContactImportForm, errors: [415], status: 200, response: ContactImportResult }),
} as const satisfies Record<string, RouteSpec>;
