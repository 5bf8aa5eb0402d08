import { twilioSignature } from '../../../vendors/telephony/twilio-webhook.js';

/** What our endpoint answered to a webhook. */
export interface WebhookAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

/**
 * Posts a form to one of our webhooks exactly as Twilio signs it (`X-Twilio-Signature`: the full URL plus
 * the sorted parameters, HMAC-SHA1 with the account's auth token).
 */
export async function postSigned(authToken: string, url: string, form: Record<string, string>): Promise<WebhookAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(authToken, url, form),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}
