import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/**
 * A loopback stand-in for the vendor APIs the integration templates call (lib/domain/tool-templates.ts).
 * It is armed with one vendor's documented request contract at a time — method, path and query, content
 * type, credential header, fixed headers and body shape — checks every request against it and answers the
 * way the vendor does: its documented success, or a 400 listing what did not match (so a tool that sends
 * the wrong shape fails the way it would against the real API).
 */
export interface RequestContract {
  readonly method: string;
  /** Path and query exactly as the vendor documents them (percent-encoding included). */
  readonly path: string;
  readonly contentType: 'application/json' | 'application/x-www-form-urlencoded';
  /** What the Authorization header must look like. */
  readonly authorization?: RegExp;
  /** Other headers with the exact value the vendor requires (an API version). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body, parsed per content type (form bodies as a plain object); returns what is wrong. */
  readonly body: (body: unknown) => string[];
  readonly answer: { readonly status: number; readonly body: unknown };
}

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  readonly problems: readonly string[];
}

export interface IntegrationStandIn {
  readonly origin: string;
  readonly seen: SeenRequest[];
  arm(contract: RequestContract): void;
  close(): Promise<void>;
}

function parseBody(text: string, contentType: string): unknown {
  if (contentType.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function check(contract: RequestContract, method: string, path: string, headers: IncomingHttpHeaders, body: unknown): string[] {
  const problems: string[] = [];
  if (method !== contract.method) problems.push(`method ${method}, expected ${contract.method}`);
  if (path !== contract.path) problems.push(`path ${path}, expected ${contract.path}`);
  const type = headers['content-type'] ?? '';
  if (!type.startsWith(contract.contentType)) problems.push(`content-type ${type}, expected ${contract.contentType}`);
  if (contract.authorization && !contract.authorization.test(headers.authorization ?? '')) {
    problems.push(`authorization ${headers.authorization ?? '(none)'} does not match ${contract.authorization}`);
  }
  for (const [name, value] of Object.entries(contract.headers ?? {})) {
    if (headers[name.toLowerCase()] !== value) problems.push(`header ${name}: ${String(headers[name.toLowerCase()])}, expected ${value}`);
  }
  return [...problems, ...contract.body(body)];
}

export async function startIntegrationStandIn(): Promise<IntegrationStandIn> {
  let contract: RequestContract | undefined;
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = parseBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type'] ?? '');
      const problems = contract ? check(contract, req.method ?? '', req.url ?? '', req.headers, body) : ['no contract armed'];
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, problems });
      const answer = problems.length === 0 ? contract!.answer : { status: 400, body: { error: 'request does not match the documented shape', problems } };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    arm(next) {
      contract = next;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Body-shape checks: each returns the problems found at `path`. */
export const shape = {
  object(value: unknown, path: string, fields: Record<string, (v: unknown, p: string) => string[]>, optional: readonly string[] = []): string[] {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path} must be an object`];
    const record = value as Record<string, unknown>;
    const problems = Object.keys(record)
      .filter((k) => !(k in fields))
      .map((k) => `${path}.${k} is not part of the documented request`);
    for (const [key, checkField] of Object.entries(fields)) {
      if (!(key in record)) {
        if (!optional.includes(key)) problems.push(`${path}.${key} is required`);
        continue;
      }
      problems.push(...checkField(record[key], `${path}.${key}`));
    }
    return problems;
  },
  string: (pattern: RegExp = /.+/s) => (v: unknown, p: string) => (typeof v === 'string' && pattern.test(v) ? [] : [`${p} must be a string matching ${pattern}`]),
  equals: (expected: unknown) => (v: unknown, p: string) => (v === expected ? [] : [`${p} must be ${JSON.stringify(expected)}, got ${JSON.stringify(v)}`]),
  integer: (v: unknown, p: string) => (Number.isInteger(v) ? [] : [`${p} must be an integer, got ${JSON.stringify(v)}`]),
  boolean: (v: unknown, p: string) => (typeof v === 'boolean' ? [] : [`${p} must be a boolean, got ${JSON.stringify(v)}`]),
  array: (item: (v: unknown, p: string) => string[]) => (v: unknown, p: string) =>
    Array.isArray(v) ? v.flatMap((x, i) => item(x, `${p}.${i}`)) : [`${p} must be an array`],
};

export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
export const E164 = /^\+[1-9]\d{6,14}$/;
