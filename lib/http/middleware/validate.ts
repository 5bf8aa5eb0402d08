import type * as z from 'zod';
import { ValidationError } from '../../domain/errors.js';
import type { RouteSpec } from '../../infra/routes.js';
import { stateOf, type RouteMiddleware } from './state.js';

function issuesToDetails(error: z.ZodError, where: string) {
  return error.issues.map((i) => {
    const path = i.path.join('.');
    const field = path ? (where === 'body' ? path : `${where}.${path}`) : where;
    const unknown = i.code === 'unrecognized_keys' ? { keys: i.keys } : {};
    return { field, message: i.message, ...unknown };
  });
}

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const out = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!out.success) {
    if (where === 'body' && value === undefined) {
      throw new ValidationError([{ field: 'body', message: 'a JSON body is required' }]);
    }
    throw new ValidationError(issuesToDetails(out.error, where));
  }
  return out.data;
}

/** The route's zod schemas applied to body, query and path; a failure names each field. */
export const validate = (route: RouteSpec): RouteMiddleware => ({
  before: async (request) => {
    const { event } = request;
    const state = stateOf(event);
    state.input = {
      body: parsePart(route.body, state.parsedBody, 'body'),
      query: parsePart(route.query, event.queryStringParameters, 'query'),
      params: parsePart(route.params, event.pathParameters, 'path'),
    };
  },
});
