import type { Deps } from '../deps.js';
import type { Agent } from '../domain/agent.js';
import { UnauthorizedError } from '../domain/errors.js';
import { agentNotAllowed, fullKeyInPage, originNotAllowed, type WidgetSessionRequest } from '../domain/widget.js';
import { leased, widgetVisitor, type WidgetLeaseHolder } from './widget-leases.js';
import { RateLimitedError, ratePolicies, takeRate } from './rate-limits.js';
import { agentToRunById } from './agent-runtime.js';
import { findApiKeyByHash, hashApiKey } from '../store/workspaces.js';
import { assertCanAffordCall } from './credits.js';
import { issueSession, newWebCall, putNewWebCall, type MeetingSession } from './meetings.js';
import { standInsOf } from '../vendors/stand-ins.js';

/**
 * The embeddable widget's sessions (docs/widget.md). Every widget request presents a widget key, the agent
 * and the page's `Origin`; a voice session is a call on the browser transport exactly like a meeting (the
 * page's first `/web-stream` socket claims it and reserves its credits), handed out as the same session
 * shape the meeting join returns.
 */

/** A widget request that passed the key, origin, agent and per-key rate checks. */
export interface WidgetGrant extends WidgetLeaseHolder {
  readonly workspaceId: string;
  /** The agent's latest published version, or its record when never published (docs/agent-versions.md). */
  readonly agent: Agent;
  readonly agentVersion?: number | undefined;
  readonly origin: string;
}

/**
 * Checks a widget request: a known, unrevoked key (401), of widget scope (a full key: 403
 * `full_key_in_page`), used from one of its origins (403 `origin_not_allowed`) for one of its agents (403
 * `agent_not_allowed`), within the key's session budget (429), for an agent that exists (404).
 */
export async function authorizeWidget(
  deps: Pick<Deps, 'db' | 'config'>,
  request: WidgetSessionRequest,
  origin: string | undefined,
  sourceIp: string,
): Promise<WidgetGrant> {
  const hash = hashApiKey(request.apiKey);
  const found = await findApiKeyByHash(deps.db, hash);
  if (!found || found.revoked) throw new UnauthorizedError(found?.revoked ? 'This widget key has been revoked.' : 'This widget key is not valid.');
  if (!found.widget) throw fullKeyInPage();
  // No Origin at all (a script outside any browser page) is refused like a foreign one.
  if (origin === undefined || !found.widget.origins.includes(origin)) throw originNotAllowed();
  if (!found.widget.agentIds.includes(request.agentId)) throw agentNotAllowed();
  const rate = await takeRate(deps.db, ratePolicies(deps.config)['widget-key'], hash);
  if (!rate.allowed) throw new RateLimitedError(rate);
  const run = await agentToRunById(deps.db, found.workspaceId, request.agentId);
  return { workspaceId: found.workspaceId, keyHash: hash, visitor: widgetVisitor(hash, sourceIp), agent: run.agent, agentVersion: run.version, origin };
}

/**
 * A widget voice call: a credit check (402 when the workspace cannot cover one call's reservation), a
 * `voice` call with its `not_joined` history record, and the web session the panel opens `/web-stream` with.
 */
export async function startWidgetCall(
  deps: Pick<Deps, 'db' | 'config' | 'secrets'>,
  grant: WidgetGrant,
  nowMs: number = Date.now(),
): Promise<MeetingSession> {
  await assertCanAffordCall(deps, grant.workspaceId);
  // A widget visitor is anonymous: no contact, and the page's origin says where the call came from.
  const call = await leased(deps, grant, newWebCall(deps, { workspaceId: grant.workspaceId, agentId: grant.agent._id, agentType: 'voice', to: '', contactName: `Web visitor (${grant.origin})`, ...(grant.agentVersion !== undefined ? { agentVersion: grant.agentVersion } : {}) }, nowMs), nowMs);
  await putNewWebCall(deps, call);
  return issueSession(deps, call, grant.agent.name || 'your agent', nowMs, standInsOf(deps.config, grant.agent, { channel: 'web' }));
}
