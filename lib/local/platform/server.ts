import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ROUTES, type RouteSpec } from '../../infra/routes.js';
import type { ErrorCode } from '../../domain/errors.js';

/** API Gateway HTTP APIs refuse request bodies over 10 MB; so do we, before any handler runs. */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface CompiledRoute {
  readonly spec: RouteSpec;
  readonly pattern: RegExp;
  readonly names: string[];
  /** `GET /api/agents/{id}`: the event's route key, built once rather than per request. */
  readonly routeKey: string;
}

function compile(spec: RouteSpec): CompiledRoute {
  const names: string[] = [];
  const source = spec.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { spec, pattern: new RegExp(`^${source}/?$`), names, routeKey: `${spec.method} ${spec.path}` };
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

/**
 * The request headers as API Gateway hands them over: one string per name. Node has already lower-cased
 * the names and joined repeated headers (all but `set-cookie`, which stays a list: joined here).
 */
export function gatewayHeaders(incoming: IncomingMessage['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/** Repeated query parameters joined with commas, as API Gateway does; undefined when there are none. */
function queryParameters(params: URLSearchParams): Record<string, string> | undefined {
  // A Map: parameter names are client text, and `constructor in {}` is true for a plain object.
  const joined = new Map<string, string>();
  for (const [k, v] of params) joined.set(k, joined.has(k) ? `${joined.get(k)},${v}` : v);
  return joined.size > 0 ? Object.fromEntries(joined) : undefined;
}

/** The request as API Gateway (HTTP API, payload format 2.0) would hand it to a Lambda. */
export function toGatewayEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  route: CompiledRoute,
  pathParameters: Record<string, string>,
): APIGatewayProxyEventV2 {
  const headers = gatewayHeaders(req.headers);
  const query = url.search.length > 1 ? queryParameters(url.searchParams) : undefined;
  const isText = TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  const method = (req.method ?? 'GET').toUpperCase();
  const now = Date.now();
  const requestId = randomUUID();
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: headers.cookie?.split(/;\s*/),
    headers,
    queryStringParameters: query,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        // From the socket, never from X-Forwarded-For (a client writes that): per-IP rate limits key on it.
        // API Gateway reports IPv4 callers as plain IPv4, so the IPv4-mapped IPv6 form is unwrapped.
        sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, ''),
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: route.routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
  };
}

/** The context's legacy callbacks, which nothing here calls: one shared function rather than three per request. */
const ignored = (): void => undefined;

function lambdaContext(requestId: string, name: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    // An own function, as Lambda's runtime gives it: callers may take it off the object.
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: ignored,
    fail: ignored,
    succeed: ignored,
  };
}

/** HTTP/1.1 framing: a request has a body only when it declares a length or a transfer coding. */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

const NO_BODY = Buffer.alloc(0);

/** The whole body, or undefined once it passed the gateway's limit. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > GATEWAY_MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A handler's headers as strings, plus a `content-length` when the handler set none, as API Gateway sends
 * one (without it Node answers in chunks: more framing for every client).
 */
export function responseHeaders(
  given: APIGatewayProxyStructuredResultV2['headers'],
  payload: string | Buffer | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  let hasLength = false;
  for (const name in given) {
    headers[name] = String(given[name]);
    if (!hasLength && name.length === 14 && name.toLowerCase() === 'content-length') hasLength = true;
  }
  if (payload !== undefined && !hasLength) headers['content-length'] = String(Buffer.byteLength(payload));
  return headers;
}

function sendError(res: ServerResponse, status: number, code: ErrorCode, message: string, extra: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...extra });
  res.end(JSON.stringify({ error: { code, message, details: [] } }));
}

/** A handler for requests no route claims (the Twilio stand-in, the meeting pages of later issues). */
export type Fallback = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/**
 * The local HTTP API: each request becomes an API Gateway event handled by the route's own Lambda module,
 * loaded once, exactly as in AWS.
 */
export function createLocalServer(options: { fallbacks?: Fallback[] } = {}): Server {
  const routes = Object.values(ROUTES as Record<string, RouteSpec>).map(compile);
  // Each request tests only its own method's patterns; the 405 scan below still looks at every route.
  const byMethod = new Map<string, CompiledRoute[]>();
  for (const r of routes) byMethod.set(r.spec.method, [...(byMethod.get(r.spec.method) ?? []), r]);
  const modules = new Map<string, Promise<LambdaHandler>>();
  const load = (entry: string) => {
    let found = modules.get(entry);
    if (!found) {
      found = import(pathToFileURL(`${PROJECT_ROOT}${entry}`).href).then((m: { handler: LambdaHandler }) => m.handler);
      modules.set(entry, found);
    }
    return found;
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://local');
      const path = url.pathname;
      const method = (req.method ?? 'GET').toUpperCase();
      const route = byMethod.get(method)?.find((r) => r.pattern.test(path));
      if (!route) {
        for (const fallback of options.fallbacks ?? []) if (await fallback(req, res)) return;
        const matches = routes.filter((r) => r.pattern.test(path));
        if (matches.length > 0) {
          // A static path can also match a templated one (/api/phone-numbers/available and /{id}): name each method once.
          const allow = [...new Set(matches.map((r) => r.spec.method))].join(', ');
          return sendError(res, 405, 'method_not_allowed', `${method} is not allowed here; use ${allow}.`, { allow });
        }
        return sendError(res, 404, 'not_found', `No route for ${method} ${path}.`);
      }
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > GATEWAY_MAX_BODY_BYTES) {
        req.resume();
        return sendError(res, 413, 'payload_too_large', `The request body exceeds ${GATEWAY_MAX_BODY_BYTES} bytes.`);
      }
      // Most requests are bodiless GETs: no stream to drain (Node discards the empty body itself).
      const body = hasBody(req) ? await readBody(req) : NO_BODY;
      if (!body) return sendError(res, 413, 'payload_too_large', `The request body exceeds ${GATEWAY_MAX_BODY_BYTES} bytes.`);
      const exec = route.pattern.exec(path)!;
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(exec[i + 1]!)]));
      const event = toGatewayEvent(req, url, body, route, params);
      const handler = await load(route.spec.entry);
      const result = await handler(event, lambdaContext(event.requestContext.requestId, route.spec.entry));
      const payload = result.body === undefined ? undefined : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
      const headers = responseHeaders(result.headers, payload);
      res.writeHead(result.statusCode ?? 200, headers);
      res.end(payload);
    } catch (error) {
      if (error instanceof URIError) return sendError(res, 400, 'bad_request', 'The path is not valid percent-encoding.');
      process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'local server failure', error: String(error) })}\n`);
      if (!res.headersSent) sendError(res, 500, 'internal_error', 'Something went wrong on our side.');
      else res.end();
    }
  });
  // Requests Node cannot parse (a URL or headers over its 16 KiB limit, broken framing) never reach the
  // handler above; Node would answer them with an empty body. Answer with the error body every client reads.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // A reset connection has no one left to answer (Node's own handler skips it too).
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify({
      error: tooLarge
        ? { code: 'headers_too_large', message: 'The request line and headers exceed 16 KiB.', details: [] }
        : { code: 'bad_request', message: 'The HTTP request cannot be parsed.', details: [] },
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
