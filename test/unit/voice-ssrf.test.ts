/**
 * Invariant: a call-time tool never reaches a private, loopback, link-local or metadata address — judged on
 * the addresses the host resolves to (every one of them), connected to exactly the checked address — unless
 * the exact host is on the allow-list; and URL and body templates cannot be broken out of by the model's
 * arguments.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fillBody, fillUrl, parseArguments, runHttpTool } from '../../streaming-service/src/tools/http.js';
import { buildCallTools, END_CALL_TOOL, SEND_DTMF_TOOL } from '../../streaming-service/src/tools/registry.js';
import { isAllowedHost, isForbiddenAddress, resolveToolTarget, ToolTargetRefusedError } from '../../streaming-service/src/tools/ssrf.js';

describe('forbidden addresses', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::5', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '64:ff9b::10.0.0.1', 'not-an-ip',
    // Every IPv6 form that carries an IPv4 address: IPv4-compatible, IPv4-translated, NAT64 (both
    // prefixes), 6to4 and Teredo.
    '::127.0.0.1', '::7f00:1', '::8.8.8.8', '::ffff:0:7f00:1', '::ffff:0:169.254.169.254', '64:ff9b:1::8.8.8.8', '64:ff9b:1::7f00:1',
    '2002:7f00:1::', '2002:a9fe:a9fe::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::1',
    // Reserved and non-public ranges the hand list missed.
    '192.88.99.1', '255.255.255.255', 'fec0::1', '2001:db8::1', '3fff::1', '100::1', '0x7f.1', '2130706433',
  ])('%s is forbidden', (ip) => expect(isForbiddenAddress(ip)).toBe(true));
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])('%s is public', (ip) =>
    expect(isForbiddenAddress(ip)).toBe(false));
});

describe('resolution', () => {
  const resolver = (answers: Record<string, string[]>) => async (host: string) =>
    (answers[host] ?? []).map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));

  it('refuses a name when any resolved address is private (DNS rebinding with mixed answers)', async () => {
    const r = resolver({ 'evil.example': ['93.184.216.34', '127.0.0.1'], 'ok.example': ['93.184.216.34'] });
    await expect(resolveToolTarget(new URL('http://evil.example/x'), [], r)).rejects.toBeInstanceOf(ToolTargetRefusedError);
    await expect(resolveToolTarget(new URL('http://ok.example/x'), [], r)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(resolveToolTarget(new URL('http://nowhere.example/x'), [], r)).rejects.toThrow(/does not resolve/);
    await expect(resolveToolTarget(new URL('http://[::1]:8080/'), [], r)).rejects.toThrow(/private/);
    await expect(resolveToolTarget(new URL('ftp://ok.example/'), [], r)).rejects.toThrow(/http and https/);
  });

  it('refuses names answered with IPv6 forms that carry a private IPv4 address, and internal names whatever DNS says', async () => {
    const r = resolver({
      'mapped.example': ['::ffff:0:7f00:1'],
      'nat64.example': ['64:ff9b:1::a00:1'],
      'sixtofour.example': ['2002:a9fe:a9fe::1'],
      'compat.example': ['::7f00:1'],
      localhost: ['93.184.216.34'],
      'metadata.google.internal': ['93.184.216.34'],
    });
    for (const host of ['mapped.example', 'nat64.example', 'sixtofour.example', 'compat.example', 'localhost', 'metadata.google.internal']) {
      await expect(resolveToolTarget(new URL(`http://${host}/`), [], r), host).rejects.toThrow(/refused/);
    }
    await expect(resolveToolTarget(new URL('http://[::127.0.0.1]/'), [], r)).rejects.toThrow(/refused/);
    await expect(resolveToolTarget(new URL('http://localhost:4000/'), ['localhost:4000'], r)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('lets only exact allow-listed hosts through', async () => {
    const url = new URL('http://127.0.0.1:4000/x');
    expect(isAllowedHost(url, ['127.0.0.1:4000'])).toBe(true);
    expect(isAllowedHost(url, ['127.0.0.1'])).toBe(true);
    expect(isAllowedHost(url, ['127.0.0.1:4001', 'localhost'])).toBe(false);
    await expect(resolveToolTarget(url, ['127.0.0.1:4000'])).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });

  it('connects to the checked address, not a second DNS answer, and sends nothing to refused targets', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      // "pinned.test" does not exist in DNS; the request still reaches the address the resolver returned.
      const pinned = await runHttpTool(
        { method: 'GET', url: `http://pinned.test:${port}/`, headers: {} },
        {},
        { allowedHosts: ['pinned.test'], resolver: async () => [{ address: '127.0.0.1', family: 4 }] },
      );
      expect(pinned).toMatchObject({ ok: true, status: 200 });
      const refused = await runHttpTool({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {} }, {}, {});
      expect(refused.refused).toBe(true);
      expect(JSON.parse(refused.content).error).toMatch(/refused.*not sent/);
      expect(hits).toBe(1);
    } finally {
      server.close();
    }
  });

  it('caps the response size and times out', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.end('x'.repeat(200_000));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const big = await runHttpTool({ method: 'GET', url: `http://127.0.0.1:${port}/big`, headers: {} }, {}, { allowedHosts: ['127.0.0.1'], maxResponseBytes: 1000 });
      const parsed = JSON.parse(big.content) as { body: string; truncated?: boolean };
      expect(parsed.body).toHaveLength(1000);
      expect(parsed.truncated).toBe(true);
      const slow = await runHttpTool({ method: 'GET', url: `http://127.0.0.1:${port}/slow`, headers: {} }, {}, { allowedHosts: ['127.0.0.1'], timeoutMs: 100 });
      expect(slow.ok).toBe(false);
      expect(JSON.parse(slow.content)).toEqual({ error: 'timed out after 0.1 s' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('templates and tool list', () => {
  it('encodes URL parameters and escapes JSON body values', () => {
    expect(fillUrl('https://x.test/a/{id}?q={q}', { id: '../../admin', q: 'a&b=c' })).toBe('https://x.test/a/..%2F..%2Fadmin?q=a%26b%3Dc');
    expect(JSON.parse(fillBody('{"note":"{note}","n":{n}}', { note: 'x", "admin": true, "y": "', n: '5' }))).toEqual({ note: 'x", "admin": true, "y": "', n: 5 });
    expect(fillBody('name={name}', { name: 'Ada' })).toBe('name=Ada');
    expect(parseArguments('{"a":"x","b":3}')).toEqual({ a: 'x', b: 3 });
    expect(parseArguments('[1]')).toEqual({});
    expect(parseArguments('not json')).toEqual({});
  });

  it('offers every workspace tool with string parameters and required flags, plus send_dtmf and end_call', () => {
    const base = { workspaceId: 'ws', createdAt: '', updatedAt: '' };
    const tools = buildCallTools([
      { ...base, _id: 't1', name: 'Check order!', type: 'http', description: 'd', config: { method: 'GET', url: 'https://x.test/{id}' }, parameters: [{ name: 'id', description: 'Order', required: true }, { name: 'n', description: 'Note', required: false }] },
      { ...base, _id: 't2', name: 'Check order', type: 'transfer', description: 'd', config: { url: 'tel:+14155550142' }, parameters: [] },
    ]);
    expect(tools.specs.map((s) => s.name)).toEqual(['check_order', 'check_order_2', SEND_DTMF_TOOL, END_CALL_TOOL]);
    expect(tools.specs[0]!.parameters).toEqual({
      type: 'object',
      properties: { id: { type: 'string', description: 'Order' }, n: { type: 'string', description: 'Note' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(tools.byName.get('check_order_2')).toMatchObject({ kind: 'transfer', to: '+14155550142', mode: 'cold' });
    // Warm transfers ask the model for the summary the target hears.
    const warm = buildCallTools([{ ...base, _id: 't3', name: 'Desk', type: 'transfer', description: 'd', config: { url: 'sip:desk@pbx.example.com' }, parameters: [] }], { transferMode: 'warm' });
    expect(warm.specs[0]!.parameters).toMatchObject({ required: ['summary'] });
    expect(warm.byName.get('desk')).toMatchObject({ kind: 'transfer', to: 'sip:desk@pbx.example.com', mode: 'warm' });
  });
});
