import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { header } from './state.js';

/**
 * A cross-site route's CORS answer: the request's own Origin (the handler refuses origins its key does not
 * list, and a refusal must be readable for the widget to say why), never `*`, and no credentials.
 */
export function corsHeaders(event: APIGatewayProxyEventV2): Record<string, string> {
  const origin = header(event, 'origin');
  return origin ? { 'access-control-allow-origin': origin, vary: 'origin' } : { vary: 'origin' };
}
