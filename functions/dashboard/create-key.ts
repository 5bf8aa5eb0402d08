import { defineRoute } from '../../lib/http/handler.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { issueApiKey } from '../../lib/services/api-keys.js';

export const handler = defineRoute(DASHBOARD_ROUTES.createApiKey, async ({ deps, workspaceId, body }) => {
  const widget = body.scope === 'widget' ? { agentIds: body.agentIds!, origins: body.origins! } : undefined;
  const created = await issueApiKey(deps.db, workspaceId, body.name, widget);
  return { key: created.key, value: created.apiKey };
});
