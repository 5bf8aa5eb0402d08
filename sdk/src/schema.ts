// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

import type { components } from './schema/components.js';
import type * as Agents from './schema/agents.js';
import type * as Tools from './schema/tools.js';
import type * as Contacts from './schema/contacts.js';
import type * as History from './schema/history.js';
import type * as Calls from './schema/calls.js';
import type * as Widget from './schema/widget.js';
import type * as PhoneNumbers from './schema/phone-numbers.js';
import type * as Campaigns from './schema/campaigns.js';
import type * as DoNotCall from './schema/do-not-call.js';
import type * as Events from './schema/events.js';
import type * as ProviderKeys from './schema/provider-keys.js';
import type * as Webhooks from './schema/webhooks.js';
import type * as Dashboard from './schema/dashboard.js';
import type * as Knowledge from './schema/knowledge.js';
import type * as TestRuns from './schema/test-runs.js';
import type * as AgentTests from './schema/agent-tests.js';
import type * as Credits from './schema/credits.js';
import type * as Docs from './schema/docs.js';

export type { components };
export interface paths extends Agents.paths, Tools.paths, Contacts.paths, History.paths, Calls.paths, Widget.paths, PhoneNumbers.paths, Campaigns.paths, DoNotCall.paths, Events.paths, ProviderKeys.paths, Webhooks.paths, Dashboard.paths, Knowledge.paths, TestRuns.paths, AgentTests.paths, Credits.paths, Docs.paths {}
export interface operations extends Agents.operations, Tools.operations, Contacts.operations, History.operations, Calls.operations, Widget.operations, PhoneNumbers.operations, Campaigns.operations, DoNotCall.operations, Events.operations, ProviderKeys.operations, Webhooks.operations, Dashboard.operations, Knowledge.operations, TestRuns.operations, AgentTests.operations, Credits.operations, Docs.operations {}

export type webhooks = Record<string, never>;
export type $defs = Record<string, never>;
