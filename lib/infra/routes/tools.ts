import * as z from 'zod';
import { IdParams } from '../../domain/common.js';
import { ToolTemplateView } from '../../domain/tool-templates.js';
import { ToolCreate, ToolCreateByType, ToolCreated, ToolListItem, ToolUpdate, ToolView } from '../../domain/tool.js';
import { WorkspaceQuery, route, type RouteSpec } from '../route-spec.js';

/** The tools routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const TOOLS_ROUTES = {
  createTool: route({ method: 'POST', path: '/api/tools', entry: 'functions/tools/routes.ts', summary: 'Create a tool', tag: 'Tools', auth: true, body: ToolCreate, documentedBody: ToolCreateByType, status: 201, response: ToolCreated }),
  listTools: route({ method: 'GET', path: '/api/tools', entry: 'functions/tools/routes.ts', summary: 'List tools (no pagination)', tag: 'Tools', auth: true, query: WorkspaceQuery, status: 200, response: z.object({ data: z.array(ToolListItem) }) }),
  listToolTemplates: route({ method: 'GET', path: '/api/tools/templates', entry: 'functions/tools/routes.ts', summary: 'List integration templates (method, URL, required headers, settings, parameters)', tag: 'Tools', auth: true, query: WorkspaceQuery, status: 200, response: z.object({ data: z.array(ToolTemplateView) }) }),
  getTool: route({ method: 'GET', path: '/api/tools/{id}', entry: 'functions/tools/routes.ts', summary: 'Get a tool, header values masked', tag: 'Tools', auth: true, params: IdParams, status: 200, response: ToolView }),
  updateTool: route({ method: 'PUT', path: '/api/tools/{id}', entry: 'functions/tools/routes.ts', summary: 'Update a tool (only the fields sent change)', tag: 'Tools', auth: true, params: IdParams, body: ToolUpdate, status: 200, response: ToolView }),
  refreshTool: route({ method: 'POST', path: '/api/tools/{id}/refresh', entry: 'functions/tools/routes.ts', summary: "Discover an mcp tool's server tools again", tag: 'Tools', auth: true, params: IdParams, bodyKind: 'none', status: 200, response: ToolView }),
  deleteTool: route({ method: 'DELETE', path: '/api/tools/{id}', entry: 'functions/tools/routes.ts', summary: 'Delete a tool', tag: 'Tools', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
} as const satisfies Record<string, RouteSpec>;
