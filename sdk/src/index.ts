import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

/**
 * The typed client of the Voice Agent Platform API (docs/sdk.md): openapi-fetch over the types generated
 * from the OpenAPI document (./schema.ts), so every path, body, query and answer is checked by the compiler.
 *
 *   const api = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.API_KEY });
 *   const { data, error } = await api.POST('/api/agents', { body: { name: 'Ava', ... } });
 */
export type { components, operations, paths };
export type { Client } from 'openapi-fetch';

/** Every component schema by name: `Schemas['AgentCreate']`, `Schemas['HistoryRecord']`, ... */
export type Schemas = components['schemas'];
/** The error body every failure carries, and its code to switch on. */
export type ApiErrorBody = Schemas['Error'];
export type ErrorCode = ApiErrorBody['error']['code'];
export type CallEndReason = Schemas['HistoryRecord']['callEndReason'];
export type ToolCreate = Schemas['ToolCreate'];

export interface VoiceAgentClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the API is: `http://127.0.0.1:3000` under `npm start`, the stack's API URL on AWS. */
  readonly baseUrl: string;
  /** Sent as `x-api-key` on every request; leave it out to send the header yourself (or none). */
  readonly apiKey?: string;
}

export function createClient({ baseUrl, apiKey, headers, ...options }: VoiceAgentClientOptions): Client<paths> {
  const own: Record<string, string> = apiKey === undefined ? {} : { 'x-api-key': apiKey };
  return createFetchClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, ''), headers: { ...own, ...(headers as Record<string, string> | undefined) } });
}

/**
 * The `bodySerializer` of an upload (multipart/form-data): each field of the typed body goes into a
 * FormData, a Blob or File as a file part. fetch then sets the multipart content type with its boundary.
 *
 *   await api.POST('/api/contacts/upload', { body: { file, workspaceId }, bodySerializer: formData });
 */
export function formData(body: Record<string, string | number | boolean | Blob | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else form.append(name, String(value));
  }
  return form;
}
