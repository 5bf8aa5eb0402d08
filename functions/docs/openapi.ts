import { defineRoute } from '../../lib/http/handler.js';
import { buildOpenApiDocument } from '../../lib/http/openapi.js';
import { DOCS_ROUTES } from '../../lib/infra/routes/docs.js';

/** The document is a pure function of the code, so one build per cold start serves every request. */
let body: string | undefined;

export const handler = defineRoute(DOCS_ROUTES.openapi, async () => {
  body ??= JSON.stringify(buildOpenApiDocument());
  return {
    raw: true,
    contentType: 'application/json; charset=utf-8',
    body,
    // Short: a deploy changes the document, and clients (the docs page) should see it soon after.
    headers: { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' },
  };
});
