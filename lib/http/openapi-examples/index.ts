import type { OperationId } from '../../infra/routes.js';
import { ACCOUNT_EXAMPLES } from './account.js';
import { AGENT_EXAMPLES } from './agents.js';
import { CALL_EXAMPLES } from './calls.js';
import { CAMPAIGN_EXAMPLES } from './campaigns.js';
import { CONTACT_EXAMPLES } from './contacts.js';
import { PHONE_NUMBER_EXAMPLES } from './phone-numbers.js';
import { PROVIDER_KEY_EXAMPLES } from './provider-keys.js';
import type { OperationExamples } from './shared.js';
import { TOOL_EXAMPLES } from './tools.js';
import { WEBHOOK_EXAMPLES } from './webhooks.js';
import { KNOWLEDGE_EXAMPLES } from './knowledge.js';
import { AGENT_TEST_EXAMPLES } from './agent-tests.js';

/**
 * Examples for the OpenAPI document, per operation: what the reference page pre-fills in each try-out and
 * shows as each answer. Kept here, not in the domain schemas, so the domain stays free of documentation;
 * test/unit/openapi.test.ts parses every request example with its route's body schema and every response
 * example with its response schema, and test/connected/docs.examples.test.ts sends each request example to a
 * running platform, so an example that no longer works fails a test.
 *
 * The values are realistic on purpose: E.164 numbers (the +1 415 555-01xx numbers are the fictional range
 * the local Twilio stand-in sells), ISO 8601 UTC timestamps, ids with their entity's prefix (lib/domain/ids.ts),
 * providers and voices that exist.
 *
 * One module per domain (agents.ts, tools.ts, contacts.ts, calls.ts, webhooks.ts, provider-keys.ts,
 * phone-numbers.ts, account.ts, campaigns.ts, knowledge.ts, agent-tests.ts); shared.ts holds the ids, timestamps and numbers they share.
 */

export { EXAMPLE_IDS, type OperationExamples } from './shared.js';
export { CAMPAIGN_EXAMPLES } from './campaigns.js';
export { MEETING_PAGE_EXAMPLES } from './calls.js';
export { TOOL_CREATE_EXAMPLES } from './tools.js';

export const OPERATION_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  ...AGENT_EXAMPLES,
  ...TOOL_EXAMPLES,
  ...CONTACT_EXAMPLES,
  ...CALL_EXAMPLES,
  ...WEBHOOK_EXAMPLES,
  ...PROVIDER_KEY_EXAMPLES,
  ...PHONE_NUMBER_EXAMPLES,
  ...ACCOUNT_EXAMPLES,
  ...CAMPAIGN_EXAMPLES,
  ...KNOWLEDGE_EXAMPLES,
  ...AGENT_TEST_EXAMPLES,
};
