import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { WebhookRequest } from '../services/twilio-webhooks.js';

/** The parts of a gateway event a Twilio webhook is verified and parsed from. */
export function webhookRequest(event: APIGatewayProxyEventV2): WebhookRequest {
  const raw = event.body ?? '';
  return {
    path: event.rawPath,
    rawQuery: event.rawQueryString,
    signature: event.headers?.['x-twilio-signature'],
    // API Gateway may base64-encode form bodies; the signature covers the decoded parameters.
    body: event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw,
  };
}
