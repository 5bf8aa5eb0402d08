import { defineRoute } from '../../lib/http/handler.js';
import { PROVIDER_KEYS_ROUTES } from '../../lib/infra/routes/provider-keys.js';
import { getAgent } from '../../lib/store/agents.js';
import { standInsOf } from '../../lib/vendors/stand-ins.js';

/**
 * GET /api/stand-ins: the simulated vendors, from the configuration alone (lib/vendors/stand-ins.ts). With
 * `agentId`, that agent's (404 when it is not the workspace's); without, every vendor; on `channel`'s capabilities
 * (a browser call has no telephony, a chat only the model).
 */
export const handler = defineRoute(PROVIDER_KEYS_ROUTES.listStandIns, async ({ deps, workspaceId, query }) => {
  const agent = query.agentId === undefined ? undefined : await getAgent(deps.db, workspaceId, query.agentId);
  const notice = standInsOf(deps.config, agent, { channel: query.channel ?? 'phone' });
  return { simulated: notice !== undefined, ...(notice && { notice }) };
});
