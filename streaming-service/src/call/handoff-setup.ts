import { toolsOfAgent, type Agent } from '../../../lib/domain/agent.js';
import { fillAgent } from '../../../lib/domain/call-template.js';
import { contactVariables } from '../../../lib/domain/template.js';
import { Handoff } from '../../../lib/domain/handoff.js';
import type { Tool } from '../../../lib/domain/tool.js';
import type { HandoffOffer } from '../tools/registry.js';
import type { CallSetup, HandoffResolver, SessionServices } from './types.js';

/*
 * A handoff's destination as a running conversation needs it (docs/handoffs.md): read from the store when
 * the model takes the tool (so a destination deleted since is unavailable, and an edit published since is
 * what runs), its texts filled with the call's variables and those the model gathered, its own tools, and
 * its vendors built as a new call's are.
 */

/** What a destination is read with: the call loader's (admission.ts `CallLoader`), named here so neither imports the other. */
export interface DestinationLoader {
  destination?(workspaceId: string, agentId: string): Promise<{ agent: Agent; version?: number } | undefined>;
  tools(workspaceId: string): Promise<Tool[]>;
}

/** What building a destination needs of the platform: its loader and the per-agent vendors. */
export interface HandoffEnvironment {
  readonly loader: DestinationLoader;
  services(setup: CallSetup, numberId?: string): SessionServices | Promise<SessionServices>;
}

/** The tools the model is offered for `handoffs`: each named after its destination (its id when it is gone). */
export async function handoffOffers(loader: DestinationLoader, ws: string, handoffs: readonly Handoff[] | undefined): Promise<HandoffOffer[] | undefined> {
  if (!handoffs?.length || !loader.destination) return undefined;
  const found = await Promise.all(handoffs.map((h) => loader.destination!(ws, h.agent_id).catch(() => undefined)));
  // With the schema's defaults, also on a record written without them (by hand).
  return handoffs.map((h, i) => ({ handoff: Handoff.safeParse(h).data ?? h, destinationName: found[i]?.agent.name ?? h.agent_id }));
}

/** The resolver a session's services carry; each destination's services carry their own, for the next handoff. */
export function handoffResolver(env: HandoffEnvironment, from: CallSetup, numberId?: string): HandoffResolver {
  return async (agentId, gathered) => {
    const found = await env.loader.destination?.(from.workspaceId, agentId);
    if (!found) return undefined;
    const variables = { ...(from.variables ?? contactVariables(from.contact)), ...Object.fromEntries(Object.entries(gathered).map(([k, v]) => [k, String(v)])) };
    const agent: Agent = fillAgent(found.agent, variables);
    const [tools, handoffs] = await Promise.all([env.loader.tools(from.workspaceId), handoffOffers(env.loader, from.workspaceId, agent.handoffs)]);
    const { agentVersion: _origin, handoffs: _offers, ...rest } = from;
    const setup: CallSetup = {
      ...rest,
      agent,
      variables,
      tools: toolsOfAgent(agent, tools),
      ...(handoffs ? { handoffs } : {}),
      ...(found.version !== undefined ? { agentVersion: found.version } : {}),
    };
    const services = await env.services(setup, numberId);
    return { setup, services: { ...services, handOff: handoffResolver(env, setup, numberId) }, ...(found.version !== undefined ? { version: found.version } : {}) };
  };
}
