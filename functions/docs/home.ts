import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { startPage } from '../../lib/web/home/page.js';

/**
 * GET /: the start page. Not through defineRoute, like the OpenAPI document: no input, no key, no table,
 * and nothing that can fail on a request, so the middleware stack would only add bundle weight.
 */
export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const { html, headers } = startPage();
  return { statusCode: 200, headers: { ...headers, 'x-request-id': event.requestContext.requestId }, body: html };
};
