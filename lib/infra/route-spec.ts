import * as z from 'zod';
import { PageQuery } from '../domain/common.js';

/**
 * The shape of one route of the route table (lib/infra/routes.ts), and the helpers its groups share. Kept
 * apart from the table so that a handler, which imports only its own group (lib/infra/routes/*.ts), does
 * not pull every domain's schemas into its Lambda bundle.
 */
export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway path syntax: `{id}` for a path parameter. */
  readonly path: string;
  /** The handler module, relative to the project root; it exports `handler`. */
  readonly entry: string;
  readonly summary: string;
  readonly tag: string;
  /** false for public routes (docs, webhooks verified by their own signature). */
  readonly auth: boolean;
  /** How the body is read: JSON (default), or handed over raw (multipart, form-encoded webhooks). */
  readonly bodyKind?: 'json' | 'raw' | 'none';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /**
   * The body as the OpenAPI document shows it, when it says more than `body` can while validating with its
   * own messages: a union by type whose members state what each type needs (the tool create). Every value
   * it accepts, `body` accepts too (test/unit/sdk.test.ts).
   */
  readonly documentedBody?: z.ZodType;
  readonly status: number;
  /** The response schema; it also projects the result, so no field outside it can leak. */
  readonly response?: z.ZodType;
  /** For non-JSON responses, the content type the OpenAPI document names. */
  readonly produces?: string;
  /** For raw request bodies, the content type the OpenAPI document names (for example multipart/form-data). */
  readonly consumes?: string;
  /**
   * For raw request bodies, the fields of the form, shown by the OpenAPI document. The middleware does not
   * read raw bodies, so the route's handler parses and checks them itself.
   */
  readonly form?: z.ZodObject;
  /**
   * Error statuses the route's domain can answer beyond those the middleware stack implies (400, 401, 403,
   * 404, 413 follow from auth, params, query and body), for example 402 or 409; the OpenAPI document lists them.
   */
  readonly errors?: readonly number[];
  /** Public routes counted per source IP under this rate-limit policy (docs/api.md, "Rate limits"). */
  readonly ipLimit?: 'webhook' | 'meeting' | 'meeting-join' | 'widget' | 'account' | 'refresh';
  /**
   * Dashboard routes (docs/dashboard.md): `user` needs a signed-in user's session key (an API key gets 403
   * `user_session_required`), `owner` also the owner role (a member gets 403 `owner_required`).
   */
  readonly access?: 'user' | 'owner';
  /**
   * Called only by the dashboard's own page (the /auth routes): before anything else, the request must carry
   * `x-requested-with: dashboard`, an `Origin` (when sent) of this host or the dashboard, and a JSON body
   * type, or it is 403 `csrf_refused` / 415 `unsupported_media_type` (lib/http/session-cookie.ts).
   */
  readonly csrf?: boolean;
  /**
   * Called from other sites' pages (the widget): every answer, errors included, carries
   * `Access-Control-Allow-Origin` naming the request's `Origin`, so the page can read why it was refused.
   * The handler checks that origin against the widget key before doing anything (docs/widget.md).
   */
  readonly cors?: boolean;
}

/** The optional workspace selector every workspace-scoped route accepts (docs/api.md). */
export const WorkspaceQuery = z.object({ workspaceId: z.string().min(1).max(64).optional() });
/** The query of a paged list: the workspace selector, page and limit, and the list's own filters. */
export const listQuery = <S extends z.ZodRawShape>(extra: z.ZodObject<S>) =>
  WorkspaceQuery.extend(PageQuery.shape).extend(extra.shape);

/** Keeps a route's literal types (its entry, its schemas) while checking it against {@link RouteSpec}. */
export const route = <const T extends RouteSpec>(spec: T): T => spec;
