import type { RouteSpec } from './route-spec.js';
import { AGENTS_ROUTES } from './routes/agents.js';
import { TOOLS_ROUTES } from './routes/tools.js';
import { CONTACTS_ROUTES } from './routes/contacts.js';
import { HISTORY_ROUTES } from './routes/history.js';
import { CALLS_ROUTES } from './routes/calls.js';
import { WIDGET_ROUTES } from './routes/widget.js';
import { PHONE_NUMBERS_ROUTES } from './routes/phone-numbers.js';
import { CAMPAIGNS_ROUTES } from './routes/campaigns.js';
import { DNC_ROUTES } from './routes/dnc.js';
import { WEBHOOKS_ROUTES } from './routes/webhooks.js';
import { PROVIDER_KEYS_ROUTES } from './routes/provider-keys.js';
import { TWILIO_ROUTES } from './routes/twilio.js';
import { AUTH_ROUTES } from './routes/auth.js';
import { DASHBOARD_ROUTES } from './routes/dashboard.js';
import { DOCS_ROUTES } from './routes/docs.js';
import { KNOWLEDGE_ROUTES } from './routes/knowledge.js';
import { AGENT_TESTS_ROUTES } from './routes/agent-tests.js';

export type { RouteSpec } from './route-spec.js';

/**
 * The one route table. The CDK stack makes one Lambda per entry from `entry`; the local server dispatches
 * to the very same module; the OpenAPI document is generated from the schemas here. They cannot disagree.
 *
 * The routes are written in groups (lib/infra/routes/*.ts), one per domain, and assembled here in order (the
 * local server takes the first match, so a static segment such as `available` must precede `{id}`). A
 * handler imports its own group, never this table: esbuild cannot drop the unused properties of an object,
 * so importing the table put every domain's schemas, phone metadata and SSRF guard into every Lambda bundle
 * (docs/benchmarks.md, "Cold start"). A new route goes into its domain's group; a new group is added here.
 */
export const ROUTES = {
  ...AGENTS_ROUTES,
  ...TOOLS_ROUTES,
  ...CONTACTS_ROUTES,
  ...HISTORY_ROUTES,
  ...CALLS_ROUTES,
  ...WIDGET_ROUTES,
  ...PHONE_NUMBERS_ROUTES,
  ...CAMPAIGNS_ROUTES,
  ...DNC_ROUTES,
  ...WEBHOOKS_ROUTES,
  ...PROVIDER_KEYS_ROUTES,
  ...TWILIO_ROUTES,
  ...AUTH_ROUTES,
  ...KNOWLEDGE_ROUTES,
  ...AGENT_TESTS_ROUTES,
  ...DASHBOARD_ROUTES,
  ...DOCS_ROUTES,
} as const satisfies Record<string, RouteSpec>;

export type OperationId = keyof typeof ROUTES;
