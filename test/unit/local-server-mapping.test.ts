/**
 * Invariant: the local server hands a handler the headers API Gateway would (one string per lower-case
 * name, repeated values joined) and answers with the handler's headers as strings plus a byte-exact
 * `content-length` unless the handler set one, in any letter case. The rate policies a request reads are
 * built once per parsed config.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { ratePolicies } from '../../lib/services/rate-limits.js';
import { gatewayHeaders, responseHeaders } from '../../lib/local/platform/server.js';

/** The headers of one request as Node's server parsed them, sent as raw lines over loopback. */
async function parsedHeaders(lines: readonly [string, string][]): Promise<IncomingHttpHeaders> {
  const server = createServer((req, res) => {
    res.end();
    server.emit('parsed', req.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const parsed = new Promise<IncomingHttpHeaders>((resolve) => server.once('parsed', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    const head = lines.map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.end(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}Connection: close\r\n\r\n`);
    socket.resume();
    return await parsed;
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

describe('request headers', () => {
  it('gives one string per lower-case name, repeated headers joined, as the gateway does', async () => {
    const incoming = await parsedHeaders([
      ['X-Api-Key', 'vak_secret'],
      ['Accept', 'text/html'],
      ['accept', 'application/json'],
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    const headers = gatewayHeaders(incoming);
    expect(headers['x-api-key']).toBe('vak_secret');
    expect(headers.accept).toBe('text/html, application/json');
    expect(headers['set-cookie']).toBe('a=1,b=2');
    expect(Object.keys(headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(Object.values(headers).every((value) => typeof value === 'string')).toBe(true);
  });

  it('leaves out names without a value', () => {
    expect(gatewayHeaders({ host: 'localhost', 'x-empty': undefined })).toEqual({ host: 'localhost' });
  });
});

describe('response headers', () => {
  it('turns values into strings and adds the payload length in bytes', () => {
    expect(responseHeaders({ 'content-type': 'text/plain', 'x-count': 3, 'x-flag': true }, 'né')).toEqual({
      'content-type': 'text/plain',
      'x-count': '3',
      'x-flag': 'true',
      'content-length': '3',
    });
    expect(responseHeaders(undefined, Buffer.from([1, 2, 3, 4]))).toEqual({ 'content-length': '4' });
  });

  it("keeps the handler's own length, whatever its letter case, and adds none to an empty answer", () => {
    expect(responseHeaders({ 'Content-Length': 10 }, 'short')).toEqual({ 'Content-Length': '10' });
    expect(responseHeaders({ 'x-request-id': 'r1' }, undefined)).toEqual({ 'x-request-id': 'r1' });
  });
});

describe('rate policies', () => {
  it('are built once per parsed config and follow the config they come from', () => {
    const config = loadConfig({ RATE_LIMIT_KEY: '50/10s' });
    expect(ratePolicies(config)).toBe(ratePolicies(config));
    expect(ratePolicies(config).key).toEqual({ name: 'key', limit: 50, windowSeconds: 10 });
    expect(ratePolicies(loadConfig({ RATE_LIMIT_KEY: '7/60s' })).key).toEqual({ name: 'key', limit: 7, windowSeconds: 60 });
  });
});
