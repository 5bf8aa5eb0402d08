import * as z from 'zod';
import { route, type RouteSpec } from '../route-spec.js';

/** The docs routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const DOCS_ROUTES = {
  home: route({ method: 'GET', path: '/', entry: 'functions/docs/home.ts', summary: 'Start page: links to the dashboard, this reference and the OpenAPI document', tag: 'Docs', auth: false, status: 200, produces: 'text/html' }),
  openapi: route({ method: 'GET', path: '/api/openapi.json', entry: 'functions/docs/openapi.ts', summary: 'This API as an OpenAPI 3.1 document', tag: 'Docs', auth: false, status: 200, produces: 'application/json' }),
  docs: route({ method: 'GET', path: '/docs', entry: 'functions/docs/page.ts', summary: 'API reference page', tag: 'Docs', auth: false, status: 200, produces: 'text/html' }),
  docsAsset: route({ method: 'GET', path: '/docs/assets/{file}', entry: 'functions/docs/page.ts', summary: 'API reference page assets', tag: 'Docs', auth: false, params: z.object({ file: z.string() }), status: 200, produces: 'application/octet-stream' }),
} as const satisfies Record<string, RouteSpec>;
