import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Fallback } from './server.js';
import { DASHBOARD_BASE, ensureDashboardBuild } from '../../web/dashboard/build.js';
import { dashboardHeaders } from '../../web/dashboard/headers.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * Serves the dashboard's build under /dashboard/ as CloudFront does on AWS: the files of `assets/`, and
 * index.html for every other path (the app's own routes, so a deep link or a reload works). The build (a
 * few hundred KB) is read into memory at start: what this server hands out cannot change or vanish under
 * it when another start builds newer sources. `mediaOrigins()` is read per request: the recordings
 * bucket's origin is known only once the platform set its environment.
 */
export async function dashboardFallback(mediaOrigins: () => string[]): Promise<Fallback> {
  const dir = await ensureDashboardBuild();
  const index = await readFile(join(dir, 'index.html'));
  const assets = new Map<string, Buffer>();
  for (const name of await readdir(join(dir, 'assets'))) assets.set(`assets/${name}`, await readFile(join(dir, 'assets', name)));
  const root = DASHBOARD_BASE.slice(0, -1);

  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    const method = req.method ?? 'GET';
    if ((path !== root && !path.startsWith(DASHBOARD_BASE)) || (method !== 'GET' && method !== 'HEAD')) return false;
    if (path === root) {
      res.writeHead(308, { location: DASHBOARD_BASE });
      res.end();
      return true;
    }
    const rest = path.slice(DASHBOARD_BASE.length);
    if (rest.startsWith('assets/')) {
      const body = assets.get(rest);
      if (!body) {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: { code: 'not_found', message: 'No such dashboard asset.', details: [] } }));
        return true;
      }
      res.writeHead(200, { 'content-type': TYPES[extname(rest)] ?? 'application/octet-stream', ...dashboardHeaders(mediaOrigins(), 'asset') });
      res.end(method === 'HEAD' ? undefined : body);
      return true;
    }
    res.writeHead(200, { 'content-type': TYPES['.html']!, ...dashboardHeaders(mediaOrigins(), 'page') });
    res.end(method === 'HEAD' ? undefined : index);
    return true;
  };
}
