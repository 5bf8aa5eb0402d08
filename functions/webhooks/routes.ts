import { routeSwitch } from '../../lib/http/route-group.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { handler as createRoute } from './create.js';
import { handler as deleteRoute } from './delete.js';
import { handler as deliveriesRoute } from './deliveries.js';
import { handler as getRoute } from './get.js';
import { handler as getSettingsRoute } from './get-settings.js';
import { handler as listRoute } from './list.js';
import { handler as replayRoute } from './replay.js';
import { handler as rotateSecretRoute } from './rotate-secret.js';
import { handler as testRoute } from './test.js';
import { handler as updateRoute } from './update.js';
import { handler as updateSettingsRoute } from './update-settings.js';

/** The webhook-endpoint routes, one function (test and replay send deliveries, so it may). Each route's handler is its own module beside this one. */
export const handler = routeSwitch(WEBHOOKS_ROUTES, {
  createWebhookEndpoint: createRoute,
  listWebhookEndpoints: listRoute,
  getWebhookSettings: getSettingsRoute,
  updateWebhookSettings: updateSettingsRoute,
  getWebhookEndpoint: getRoute,
  updateWebhookEndpoint: updateRoute,
  deleteWebhookEndpoint: deleteRoute,
  rotateWebhookSecret: rotateSecretRoute,
  sendWebhookTest: testRoute,
  replayWebhookEvents: replayRoute,
  listWebhookDeliveries: deliveriesRoute,
});
