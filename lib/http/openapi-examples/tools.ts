import { MASK } from '../../domain/tool.js';
import { listTemplates } from '../../domain/tool-templates.js';
import type { OperationId } from '../../infra/routes.js';
import { CREATED, EXAMPLE_IDS, UPDATED, WS, type OperationExamples } from './shared.js';

const toolParameters = [{ name: 'order_id', description: 'The order number the caller reads out, e.g. 10023', required: true }];
const toolCreate = {
  name: 'check_order_status',
  type: 'http',
  description: 'Looks up the delivery status of an order by its number.',
  config: {
    method: 'GET',
    url: 'https://api.example.com/orders/{order_id}/status',
    headers: { Authorization: 'Bearer sk_test_51Hc2xV0a9Q7' },
  },
  parameters: toolParameters,
};
const toolCreated = {
  _id: EXAMPLE_IDS.tool,
  name: toolCreate.name,
  type: toolCreate.type,
  description: toolCreate.description,
  workspaceId: WS,
  createdAt: CREATED,
  config: { method: 'GET', url: toolCreate.config.url },
};
const toolListItem = { _id: EXAMPLE_IDS.tool, name: toolCreate.name, type: toolCreate.type, description: toolCreate.description, workspaceId: WS, createdAt: CREATED };
const toolView = {
  ...toolListItem,
  config: { method: 'GET', url: toolCreate.config.url, headers: { Authorization: MASK } },
  parameters: toolParameters,
  updatedAt: UPDATED,
};

const mcpCreate = {
  name: 'Weather',
  type: 'mcp',
  description: 'Weather forecasts from our MCP server.',
  config: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer mcp_live_8d2f41' }, allowed_tools: ['get_forecast'] },
};
/** An mcp tool as GET and refresh show it: the tools its server listed, header values masked. */
const mcpView = {
  _id: EXAMPLE_IDS.tool,
  name: mcpCreate.name,
  type: 'mcp',
  description: mcpCreate.description,
  workspaceId: WS,
  createdAt: CREATED,
  config: { url: mcpCreate.config.url, headers: { Authorization: MASK }, allowed_tools: ['get_forecast'] },
  parameters: [],
  mcp: {
    transport: 'streamable_http',
    tools: [
      {
        name: 'get_forecast',
        description: 'The weather forecast for a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] },
      },
      { name: 'get_alerts', description: 'Severe weather alerts for a region.', inputSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] } },
    ],
    refreshedAt: UPDATED,
  },
  updatedAt: UPDATED,
};

/** One create body per tool type, shown on that type's component of the documented union. */
export const TOOL_CREATE_EXAMPLES: Record<'http' | 'integration' | 'transfer' | 'mcp', Record<string, unknown>> = {
  mcp: mcpCreate,
  http: toolCreate,
  integration: {
    name: 'book_demo',
    type: 'integration',
    description: 'Books a 30-minute demo in our Cal.com calendar.',
    templateId: 'calcom.book_meeting',
    config: { headers: { Authorization: 'Bearer cal_live_4f1c9a' }, settings: { event_type_id: 123456 } },
  },
  transfer: {
    name: 'transfer_to_sales',
    type: 'transfer',
    description: 'Hands the caller over to the sales team when they ask for a quote.',
    config: { url: 'tel:+14155550123' },
  },
};

export const TOOL_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createTool: { request: toolCreate, response: toolCreated },
  listTools: { response: { data: [toolListItem] } },
  // The catalogue itself is the example: what the page shows is what the route answers.
  listToolTemplates: { response: { data: listTemplates().slice(0, 2) } },
  getTool: { params: { id: EXAMPLE_IDS.tool }, response: toolView },
  updateTool: {
    params: { id: EXAMPLE_IDS.tool },
    // The masked header sent back keeps the stored secret; only the description changes.
    request: { description: 'Looks up the delivery status and expected date of an order.', config: { headers: { Authorization: MASK } } },
    response: { ...toolView, description: 'Looks up the delivery status and expected date of an order.' },
  },
  refreshTool: { params: { id: EXAMPLE_IDS.tool }, response: mcpView },
  deleteTool: { params: { id: EXAMPLE_IDS.tool } },
};
