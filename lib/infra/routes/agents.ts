import * as z from 'zod';
import { AgentCreate, AgentCreated, AgentListItem, AgentUpdate, AgentView } from '../../domain/agent.js';
import { IdParams, pageEnvelope } from '../../domain/common.js';
import { VoicesQuery, VoicesView } from '../../domain/voices.js';
import { listQuery, route, WorkspaceQuery, type RouteSpec } from '../route-spec.js';

/** The agents routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const AGENTS_ROUTES = {
  createAgent: route({ method: 'POST', path: '/api/agents', entry: 'functions/agents/routes.ts', summary: 'Create an agent', tag: 'Agents', auth: true, body: AgentCreate, status: 201, response: AgentCreated }),
  listAgents: route({ method: 'GET', path: '/api/agents', entry: 'functions/agents/routes.ts', summary: 'List agents, newest first', tag: 'Agents', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(AgentListItem) }),
  getAgent: route({ method: 'GET', path: '/api/agents/{id}', entry: 'functions/agents/routes.ts', summary: 'Get an agent', tag: 'Agents', auth: true, params: IdParams, status: 200, response: AgentView }),
  updateAgent: route({ method: 'PATCH', path: '/api/agents/{id}', entry: 'functions/agents/routes.ts', summary: 'Update an agent (only the fields sent)', tag: 'Agents', auth: true, params: IdParams, body: AgentUpdate, status: 200, response: AgentView }),
  listVoices: route({ method: 'GET', path: '/api/voices', entry: 'functions/agents/routes.ts', summary: "The voices an agent may name at a speech vendor: the vendor's own list for the workspace's key (else the platform's), cached ten minutes; 503 when it cannot be read (docs/api.md, \"Voices and models\")", tag: 'Agents', auth: true, query: WorkspaceQuery.extend(VoicesQuery.shape), status: 200, response: VoicesView }),
  deleteAgent: route({ method: 'DELETE', path: '/api/agents/{id}', entry: 'functions/agents/routes.ts', summary: 'Delete an agent', tag: 'Agents', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
} as const satisfies Record<string, RouteSpec>;
