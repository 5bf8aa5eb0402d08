import { toPhoneNumberView } from '../../lib/domain/phone-number.js';
import { defineRoute } from '../../lib/http/handler.js';
import { PHONE_NUMBERS_ROUTES } from '../../lib/infra/routes/phone-numbers.js';
import { inboundWebhookSecret } from '../../lib/services/inbound-webhook.js';
import { assignAgent } from '../../lib/services/phone-numbers.js';

/** PATCH /api/phone-numbers/{id}; setting an inbound webhook shows the secret its requests are signed with. */
export const handler = defineRoute(PHONE_NUMBERS_ROUTES.updatePhoneNumber, async ({ deps, workspaceId, params, body }) => {
  const number = await assignAgent(deps, workspaceId, params.id, body);
  return { ...toPhoneNumberView(number), ...(body.inbound_webhook_url && { inbound_webhook_secret: inboundWebhookSecret(deps, number) }) };
});
