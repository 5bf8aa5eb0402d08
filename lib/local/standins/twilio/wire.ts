import type { ServerResponse } from 'node:http';
import type { FormParams } from '../../../vendors/telephony/twilio-webhook.js';

/** Twilio's REST wire format shared by every resource: the API version, errors, list pages, responses. */

export const API_VERSION = '2010-04-01';
export const ACCOUNT_SID = /^AC[0-9a-f]{32}$/;
export const AUTH_TOKEN = /^[0-9a-f]{32}$/;
export const E164 = /^\+[1-9]\d{6,14}$/;

/** A refusal as Twilio sends it: HTTP status plus Twilio's own error code (twilio.com/docs/api/errors). */
export class TwilioFault extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (path: string) => new TwilioFault(404, 20404, `The requested resource ${path} was not found`);

/** What a resource answers: the HTTP status and the JSON body (undefined for none). */
export type Answer = [number, unknown];

export const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
export const many = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Twilio's list envelope: the records under their resource name plus page metadata. */
export function listEnvelope(key: string, path: string, query: FormParams, items: unknown[], pageSize: number, page: number) {
  const start = page * pageSize;
  const slice = items.slice(start, start + pageSize);
  const extra = Object.entries(query)
    .filter(([k]) => k !== 'Page' && k !== 'PageSize' && k !== 'PageToken')
    .flatMap(([k, v]) => many(v).map((x) => `&${encodeURIComponent(k)}=${encodeURIComponent(x)}`))
    .join('');
  const pageUri = (p: number) => `${path}?PageSize=${pageSize}&Page=${p}${extra}`;
  return {
    [key]: slice,
    end: Math.max(start, start + slice.length - 1),
    first_page_uri: pageUri(0),
    next_page_uri: start + pageSize < items.length ? pageUri(page + 1) : null,
    page,
    page_size: pageSize,
    previous_page_uri: page > 0 ? pageUri(page - 1) : null,
    start,
    uri: pageUri(page),
  };
}

/** `PageSize` and `Page` of a list request, refused as Twilio refuses them when out of range. */
export function pageParams(query: FormParams, defaultSize: number, maxSize: number) {
  const size = Number(one(query.PageSize) ?? defaultSize);
  const page = Number(one(query.Page) ?? 0);
  if (!Number.isInteger(size) || size < 1 || size > maxSize) throw new TwilioFault(400, 20007, `PageSize must be between 1 and ${maxSize}`);
  if (!Number.isInteger(page) || page < 0) throw new TwilioFault(400, 20007, 'Page must be a non-negative integer');
  return { size, page };
}

/** Twilio's error body: `{code, message, more_info, status}` plus any extra fields of the fault. */
export function faultBody(error: TwilioFault) {
  return {
    code: error.code,
    message: error.message,
    more_info: `https://www.twilio.com/docs/errors/${error.code}`,
    status: error.status,
    ...error.extra,
  };
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  if (status === 401) res.setHeader('www-authenticate', 'Basic realm="Twilio API"');
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
