import { createClient, formData, type Client, type paths, type Schemas } from '../../../../sdk/src/index.js';

/**
 * The dashboard's one way to the server: the public REST API with the session's key in `x-api-key` (the same
 * API developers use), through the typed client of sdk/ (docs/sdk.md), and the few /auth calls that read and
 * write the HttpOnly refresh cookie. Every answer that is not 2xx becomes an {@link ApiError} carrying the
 * JSON error body of DESIGN.md.
 */

export type { Client, paths, Schemas };
/** A typed upload body as multipart: `c.POST('/api/contacts/upload', { body, bodySerializer: formData })`. */
export { formData };

export interface Workspace {
  readonly id: string;
  readonly name: string;
  readonly role: 'owner' | 'member';
}

export interface Session {
  readonly apiKey: string;
  readonly expiresAt: string;
  readonly user: { readonly id: string; readonly email: string };
  readonly workspace: Workspace;
  readonly workspaces: readonly Workspace[];
}

export interface ErrorDetail {
  readonly field?: string;
  readonly message: string;
}

export class ApiError extends Error {
  /** Field problems, when the server listed them (`details` as an array). */
  readonly details: readonly ErrorDetail[];
  /** `details` as an object (402's `{required, available}`). */
  readonly info: Readonly<Record<string, unknown>>;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    details: unknown = [],
  ) {
    super(message);
    this.details = Array.isArray(details) ? (details as ErrorDetail[]) : [];
    this.info = details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
  }

  /** The message for a field of a form, when the server named one. */
  forField(field: string): string | undefined {
    return this.details.find((d) => d.field === field || d.field?.startsWith(`${field}.`))?.message;
  }
}

async function toError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string; details?: unknown } };
    if (body.error?.message) return new ApiError(res.status, body.error.code ?? 'error', body.error.message, body.error.details ?? []);
  } catch {
    // Not the JSON error body (a proxy's page): fall through to the generic sentence.
  }
  return new ApiError(res.status, 'http_error', `The server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`);
}

async function parse<T>(res: Response): Promise<T> {
  if (!res.ok) throw await toError(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A network failure (server down, offline) said in words, not as a TypeError. */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
}

/**
 * /auth calls: same-origin cookies, and the `x-requested-with` header the server demands on every
 * cookie-using call (a cross-site form cannot set it, so it is the CSRF check).
 */
export function authCall<T>(path: string, body?: unknown): Promise<T> {
  return send(`/auth/${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'dashboard' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((res) => parse<T>(res));
}

/** The typed client with `apiKey` (sdk/src/index.ts): same origin, no cookies, JSON answers asked for. */
export const typedClient = (apiKey: string): Client<paths> =>
  createClient({ baseUrl: '', apiKey, credentials: 'omit', headers: { accept: 'application/json' } });

/** What an openapi-fetch call answers: the data of a 2xx, or the parsed error body; and the response. */
export interface Answer {
  readonly data?: unknown;
  readonly error?: unknown;
  readonly response: Response;
}
/** The data of a 2xx answer (the member of openapi-fetch's union without an error). */
export type DataOf<A> = A extends { data: infer D; error?: never } ? D : never;

/** The data of a typed call, or an {@link ApiError} made from its error body (or its status, when the body is not ours). */
export async function ok<A extends Answer>(pending: Promise<A>): Promise<DataOf<A>> {
  let answer: A;
  try {
    answer = await pending;
  } catch {
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
  const { response } = answer;
  // A 2xx: its data (none for a 204). A refusal may come with no body at all, so the status decides.
  if (response.ok) return answer.data as DataOf<A>;
  const body = answer.error as { error?: { code?: string; message?: string; details?: unknown } } | string;
  if (typeof body === 'object' && body.error?.message) throw new ApiError(response.status, body.error.code ?? 'error', body.error.message, body.error.details ?? []);
  throw new ApiError(response.status, 'http_error', `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`);
}
