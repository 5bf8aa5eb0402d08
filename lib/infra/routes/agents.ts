import * as z from 'zod';
import { AgentCreate, AgentCreated, AgentListItem, AgentUpdate, AgentView } from '../../domain/agent.js';
import { AgentDiff, AgentVersionListItem, AgentVersionView, DiffQuery, PublishBody, RestoreBody, VersionParams } from '../../domain/agent-version.js';
import { IdParams, pageEnvelope } from '../../domain/common.js';
import { VoicesQuery, VoicesView } from '../../domain/voices.js';
import { listQuery, route, WorkspaceQuery, type RouteSpec } from '../route-spec.js';

/** The agents routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const AGENTS_ROUTES = {
  createAgent: route({ method: 'POST', path: '/api/agents', entry: 'functions/agents/routes.ts', summary: 'Create an agent', tag: 'Agents', auth: true, body: AgentCreate, status: 201, response: AgentCreated }),
  listAgents: route({ method: 'GET', path: '/api/agents', entry: 'functions/agents/routes.ts', summary: 'List agents, newest first', tag: 'Agents', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(AgentListItem) }),
  getAgent: route({ method: 'GET', path: '/api/agents/{id}', entry: 'functions/agents/routes.ts', summary: 'Get an agent', tag: 'Agents', auth: true, params: IdParams, status: 200, response: AgentView }),
  updateAgent: route({ method: 'PATCH', path: '/api/agents/{id}', entry: 'functions/agents/routes.ts', summary: 'Update an agent (only the fields sent)', tag: 'Agents', auth: true, params: IdParams, body: AgentUpdate, status: 200, response: AgentView }),
  publishAgent: route({ method: 'POST', path: '/api/agents/{id}/publish', entry: 'functions/agents/routes.ts', summary: "Publish the agent's draft as its next version (calls then run it)", tag: 'Agents', auth: true, params: IdParams, body: PublishBody, status: 201, response: AgentVersionView }),
  listAgentVersions: route({ method: 'GET', path: '/api/agents/{id}/versions', entry: 'functions/agents/routes.ts', summary: "List the agent's published versions, newest first", tag: 'Agents', auth: true, params: IdParams, query: listQuery(z.object({})), status: 200, response: pageEnvelope(AgentVersionListItem) }),
  getAgentVersion: route({ method: 'GET', path: '/api/agents/{id}/versions/{version}', entry: 'functions/agents/routes.ts', summary: 'Get one published version of an agent', tag: 'Agents', auth: true, params: VersionParams, status: 200, response: AgentVersionView }),
  restoreAgentVersion: route({ method: 'POST', path: '/api/agents/{id}/versions/{version}/restore', entry: 'functions/agents/routes.ts', summary: 'Make a published version the draft again (and publish it, with publish: true)', tag: 'Agents', auth: true, params: VersionParams, body: RestoreBody, status: 200, response: AgentView }),
  diffAgent: route({ method: 'GET', path: '/api/agents/{id}/diff', entry: 'functions/agents/routes.ts', summary: 'The fields that differ between two versions, or a version and the draft', tag: 'Agents', auth: true, params: IdParams, query: WorkspaceQuery.extend(DiffQuery.shape), status: 200, response: AgentDiff }),
  listVoices: route({ method: 'GET', path: '/api/voices', entry: 'functions/agents/routes.ts', summary: "The voices an agent may name at a speech vendor: the vendor's own list for the workspace's key (else the platform's), cached ten minutes; 503 when it cannot be read (docs/api.md, \"Voices and models\")", tag: 'Agents', auth: true, query: WorkspaceQuery.extend(VoicesQuery.shape), status: 200, response: VoicesView }),
  deleteAgent: route({ method: 'DELETE', path: '/api/agents/{id}', entry: 'functions/agents/routes.ts', summary: 'Delete an agent', tag: 'Agents', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
} as const satisfies Record<string, RouteSpec>;
