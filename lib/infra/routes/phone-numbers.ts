import * as z from 'zod';
import { IdParams, pageEnvelope } from '../../domain/common.js';
import { InboundDeliveryView } from '../../domain/inbound-delivery.js';
import { AvailableNumbersQuery, AvailableNumberView, PhoneNumberBought, PhoneNumberBuy, PhoneNumberImport, PhoneNumberImported, PhoneNumberUpdate, PhoneNumberView } from '../../domain/phone-number.js';
import { WorkspaceQuery, listQuery, route, type RouteSpec } from '../route-spec.js';

/** The phone numbers routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const PHONE_NUMBERS_ROUTES = {
  // `available` precedes `{id}`: the local server takes the first match, as API Gateway prefers static segments.
  searchPhoneNumbers: route({ method: 'GET', path: '/api/phone-numbers/available', entry: 'functions/phone-numbers/available.ts', summary: 'Search numbers for sale (buy takes one of these)', tag: 'Phone numbers', auth: true, query: WorkspaceQuery.extend(AvailableNumbersQuery.shape), status: 200, response: z.object({ data: z.array(AvailableNumberView) }) }),
  buyPhoneNumber: route({ method: 'POST', path: '/api/phone-numbers/buy', entry: 'functions/phone-numbers/buy.ts', summary: 'Buy a number for the workspace', tag: 'Phone numbers', auth: true, body: PhoneNumberBuy, errors: [409], status: 201, response: PhoneNumberBought }),
  importPhoneNumber: route({ method: 'POST', path: '/api/phone-numbers/import', entry: 'functions/phone-numbers/import.ts', summary: 'Import a number from your own telephony account (BYOT); points its webhooks at the platform', tag: 'Phone numbers', auth: true, body: PhoneNumberImport, errors: [409, 422], status: 201, response: PhoneNumberImported }),
  listPhoneNumbers: route({ method: 'GET', path: '/api/phone-numbers', entry: 'functions/phone-numbers/list.ts', summary: 'List phone numbers, newest first', tag: 'Phone numbers', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(PhoneNumberView) }),
  getPhoneNumber: route({ method: 'GET', path: '/api/phone-numbers/{id}', entry: 'functions/phone-numbers/get.ts', summary: 'Get a phone number', tag: 'Phone numbers', auth: true, params: IdParams, status: 200, response: PhoneNumberView }),
  updatePhoneNumber: route({ method: 'PATCH', path: '/api/phone-numbers/{id}', entry: 'functions/phone-numbers/update.ts', summary: 'Assign (or with null unassign) the agent that answers inbound calls, and set or remove the inbound webhook that may route each one', tag: 'Phone numbers', auth: true, params: IdParams, body: PhoneNumberUpdate, errors: [422], status: 200, response: PhoneNumberView }),
  listInboundDeliveries: route({ method: 'GET', path: '/api/phone-numbers/{id}/inbound-deliveries', entry: 'functions/phone-numbers/inbound-deliveries.ts', summary: "The number's inbound webhook answers, newest first: the call, what the answer did (routed, rejected, or fallback and why), the server's status and time", tag: 'Phone numbers', auth: true, params: IdParams, query: listQuery(z.object({})), status: 200, response: pageEnvelope(InboundDeliveryView) }),
  deletePhoneNumber: route({ method: 'DELETE', path: '/api/phone-numbers/{id}', entry: 'functions/phone-numbers/delete.ts', summary: 'Release a number (bought: back to the provider; imported: our webhooks removed)', tag: 'Phone numbers', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
} as const satisfies Record<string, RouteSpec>;
