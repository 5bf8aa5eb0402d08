/**
 * Invariant: the public docs routes serve the generated OpenAPI document, a page with no inline script
 * under a same-origin CSP, and exactly the allow-listed assets (correct content types, cacheable by
 * version, revalidated by ETag); any other asset name, including path tricks, is a JSON 404. Every path the
 * document lists answers a method it does not list with the documented JSON 405, whose `Allow` names
 * exactly the documented methods.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../lib/http/openapi.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t?.stop());

/** Asset URLs as the page names them, e.g. /docs/assets/swagger-ui.css?v=... */
async function pageAssetUrls(): Promise<string[]> {
  const html = await (await fetch(`${t.baseUrl}/docs`)).text();
  return [...html.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
}

describe('GET /api/openapi.json', () => {
  it('returns the generated document without an API key', async () => {
    const res = await fetch(`${t.baseUrl}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.sort()).toEqual(Object.keys(ROUTES).sort());
  });
});

describe('GET /docs', () => {
  it('is HTML with no inline script, under a CSP that allows only this origin', async () => {
    const res = await fetch(`${t.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBe(2);
    for (const tag of scripts) expect(tag).toMatch(/\bsrc="\/docs\/assets\//);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/\son\w+=/i);
  });
});

describe('GET /docs/assets/{file}', () => {
  it('serves the swagger-ui-dist files byte for byte with their content types', async () => {
    const urls = await pageAssetUrls();
    expect(urls.map((u) => u.split('?')[0]).sort()).toEqual(
      ['/docs/assets/init.js', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css'].sort(),
    );
    const cases = [
      ['swagger-ui-bundle.js', /^text\/javascript/],
      ['swagger-ui.css', /^text\/css/],
    ] as const;
    for (const [file, type] of cases) {
      const res = await fetch(`${t.baseUrl}/docs/assets/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text(), file).toBe(await readFile(join(distDir, file), 'utf8'));
    }
    const init = await fetch(`${t.baseUrl}/docs/assets/init.js`);
    expect(init.headers.get('content-type')).toMatch(/^text\/javascript/);
    const script = await init.text();
    expect(script).toContain("url: '/api/openapi.json'");
    expect(script).toContain('validatorUrl: null');
  });

  it('compresses for clients that accept gzip and not for others', async () => {
    const gz = await fetch(`${t.baseUrl}/docs/assets/swagger-ui.css`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const plain = await fetch(`${t.baseUrl}/docs/assets/swagger-ui.css`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await gz.text()).toBe(await plain.text());
    expect(gz.headers.get('etag')).not.toBe(plain.headers.get('etag'));
  });

  it('caches versioned URLs for good and revalidates the rest by ETag', async () => {
    const versioned = (await pageAssetUrls()).find((u) => u.includes('swagger-ui-bundle.js'))!;
    const long = await fetch(`${t.baseUrl}${versioned}`);
    expect(long.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const stale = await fetch(`${t.baseUrl}/docs/assets/swagger-ui-bundle.js?v=0000`);
    expect(stale.headers.get('cache-control')).toBe('no-cache');
    const etag = stale.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+(-gz)?"$/);
    const again = await fetch(`${t.baseUrl}/docs/assets/swagger-ui-bundle.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const changed = await fetch(`${t.baseUrl}/docs/assets/swagger-ui-bundle.js`, { headers: { 'if-none-match': '"other"' } });
    expect(changed.status).toBe(200);
  });

  it('answers a JSON 404 for anything outside the allow-list', async () => {
    const names = [
      '..%2Fpackage.json',
      '%2e%2e%2fpackage.json',
      '..%2F..%2F..%2Fpackage.json',
      'index.html',
      'swagger-initializer.js',
      'swagger-ui-bundle.js.map',
      'swagger-ui-standalone-preset.js',
      'package.json',
      'constructor',
      '__proto__',
      'SWAGGER-UI.CSS',
    ];
    for (const name of names) {
      const res = await fetch(`${t.baseUrl}/docs/assets/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.headers.get('content-type'), name).toMatch(/^application\/json/);
      expect((await res.json()).error.code, name).toBe('not_found');
    }
  });
});

describe('methods the document does not list', () => {
  it('are a JSON 405 on every documented path, with Allow naming exactly the documented methods', async () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const samples: Record<string, string> = { id: 'agt_01JWRF9YVRV07ZX0MV7YH6S11D', file: 'swagger-ui.css', callId: 'call_01JWRFK3TRZXKY0WVNX2WE4XSF' };
    const templates = Object.entries(doc.paths).map(([path, item]) => ({
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
      methods: Object.keys(item).map((m) => m.toUpperCase()),
    }));
    for (const path of Object.keys(doc.paths)) {
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => samples[name]!);
      // A static path such as /api/contacts/upload also matches /api/contacts/{id}: both routes' methods apply.
      const documented = [...new Set(templates.filter((p) => p.pattern.test(url)).flatMap((p) => p.methods))];
      const other = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((m) => !documented.includes(m))!;
      const res = await fetch(`${t.baseUrl}${url}`, { method: other });
      expect(res.status, `${other} ${path}`).toBe(405);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect((res.headers.get('allow') ?? '').split(', ').sort(), path).toEqual(documented.sort());
      const body = await res.json();
      expect(body.error.code, path).toBe('method_not_allowed');
      expect(body.error.message, path).toContain(other);
    }
  });
});
