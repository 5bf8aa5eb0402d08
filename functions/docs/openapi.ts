import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { buildOpenApiDocument } from '../../lib/http/openapi.js';

/** The document is a pure function of the code, so one build per cold start serves every request. */
let body: string | undefined;

/**
 * Not through defineRoute: the route takes no input, no key and no table, and the middleware stack would
 * bundle the store, its SDK clients and the secrets client for nothing (the bundle passed its 500 KB budget).
 * Nothing here can fail on a request.
 */
export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  body ??= JSON.stringify(buildOpenApiDocument());
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      // Short: a deploy changes the document, and clients (the docs page) should see it soon after.
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
      'x-request-id': event.requestContext.requestId,
    },
    body,
  };
};
