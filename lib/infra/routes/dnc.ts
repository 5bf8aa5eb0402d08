import * as z from 'zod';
import { pageEnvelope } from '../../domain/common.js';
import { DncCreate, DncImportResult, DncParams, DncView } from '../../domain/dnc.js';
import { listQuery, route, type RouteSpec } from '../route-spec.js';

/** The dnc routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const DNC_ROUTES = {
  // `upload` precedes `{number}`: the local server takes the first match, as API Gateway prefers static segments.
  addDoNotCall: route({ method: 'POST', path: '/api/do-not-call', entry: 'functions/dnc/routes.ts', summary: 'Add a number to the do-not-call list (no campaign dials it)', tag: 'Do not call', auth: true, body: DncCreate, status: 201, response: DncView }),
  listDoNotCall: route({ method: 'GET', path: '/api/do-not-call', entry: 'functions/dnc/routes.ts', summary: 'List the do-not-call list', tag: 'Do not call', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(DncView) }),
  uploadDoNotCall: route({ method: 'POST', path: '/api/do-not-call/upload', entry: 'functions/dnc/routes.ts', summary: 'Add the numbers of a CSV file to the do-not-call list', tag: 'Do not call', auth: true, bodyKind: 'raw', consumes: 'multipart/form-data', form: z.object({ file: z.file().describe('CSV: a phoneNumber column, or one column of numbers; at most 10,000 rows'), workspaceId: z.string().optional(), defaultCountry: z.string().optional() }), errors: [415], status: 200, response: DncImportResult }),
  getDoNotCall: route({ method: 'GET', path: '/api/do-not-call/{number}', entry: 'functions/dnc/routes.ts', summary: 'Whether a number is on the do-not-call list (404 if not)', tag: 'Do not call', auth: true, params: DncParams, status: 200, response: DncView }),
  deleteDoNotCall: route({ method: 'DELETE', path: '/api/do-not-call/{number}', entry: 'functions/dnc/routes.ts', summary: 'Remove a number from the do-not-call list', tag: 'Do not call', auth: true, params: DncParams, bodyKind: 'none', status: 204 }),
} as const satisfies Record<string, RouteSpec>;
