import { createHmac } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Agent } from '../domain/agent.js';
import type { AgentOverrides } from '../domain/agent-overrides.js';
import { ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { InboundAnswerLog } from '../domain/inbound-delivery.js';
import { INBOUND_WEBHOOK_BUDGET_MS, InboundWebhookAnswer, MAX_INBOUND_ANSWER_BYTES } from '../domain/inbound-webhook.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import type { VariableValue } from '../domain/template.js';
import { log } from '../observability/log.js';
import { findAgent } from '../store/agents.js';
import { putNewDelivery } from '../store/webhooks.js';
import { rejectTwiml, sayAndHangUpTwiml } from '../vendors/telephony/twilio-webhook.js';
import { agentForCall } from './call-variables.js';
import { post, RESPONSE_EXCERPT_CHARS, signatureHeaders } from './webhook-delivery.js';

/**
 * Asking a number's inbound webhook how to answer a call (docs/telephony.md, "Inbound webhook"). Every ask
 * is logged as a delivery of `call.inbound` under the number's id, with why an answer was not used.
 */

type InboundDeps = Pick<Deps, 'config' | 'db' | 'secrets'>;

/** The HKDF label of the key a number's inbound-webhook secret is derived from. */
const SECRET_PURPOSE = 'inbound-webhook/v1';

/**
 * The Standard Webhooks secret a number's inbound webhook requests are signed with: derived from the
 * platform's data key and the number, so nothing secret is stored; shown once, in the answer of the update
 * that sets the URL.
 */
export const inboundWebhookSecret = (deps: Pick<Deps, 'secrets'>, number: Pick<PhoneNumber, '_id' | 'workspaceId'>): string =>
  `whsec_${createHmac('sha256', deps.secrets.deriveKey(SECRET_PURPOSE)).update(`${number.workspaceId}/${number._id}`).digest('base64')}`;

/** How to answer: reject (the TwiML to send), or connect to `agent` with what the webhook gave. */
export type InboundRouting =
  | { readonly kind: 'reject'; readonly twiml: string }
  | {
      readonly kind: 'connect';
      readonly agent: Agent;
      readonly variables?: Readonly<Record<string, VariableValue>>;
      readonly metadata?: Readonly<Record<string, unknown>>;
      readonly agentOverrides?: AgentOverrides;
    };

/** Why an answer is not used: the fallback's reason, as the delivery log shows it. */
class Unusable extends Error {}

async function decide(deps: InboundDeps, number: PhoneNumber, fallback: Agent | undefined, status: number | undefined, text: string): Promise<InboundRouting | undefined> {
  if (status === undefined || status < 200 || status > 299) throw new Unusable(`HTTP ${status}: only a 2xx answer is used`);
  let json: unknown = {};
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw new Unusable('the answer is not JSON');
    }
  }
  const parsed = InboundWebhookAnswer.safeParse(json);
  if (!parsed.success) throw new Unusable(`invalid answer: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`);
  const answer = parsed.data;
  if (answer.reject) return { kind: 'reject', twiml: answer.reject === 'busy' ? rejectTwiml('busy') : sayAndHangUpTwiml(answer.reject.message) };
  // Another workspace's agent reads exactly as an unknown one.
  const chosen = answer.agentId && answer.agentId !== fallback?._id ? await findAgent(deps.db, number.workspaceId, answer.agentId) : fallback;
  if (!chosen) throw new Unusable(answer.agentId ? `no agent ${answer.agentId} in this workspace` : 'the number has no agent and the answer names none');
  let agent: Agent;
  try {
    agent = await agentForCall(deps, number.workspaceId, chosen, answer.agent_overrides);
  } catch (error) {
    if (error instanceof ValidationError) throw new Unusable(`invalid agent_overrides: ${error.message}`);
    throw error;
  }
  return {
    kind: 'connect',
    agent,
    ...(answer.variables && { variables: answer.variables }),
    ...(answer.metadata && { metadata: answer.metadata }),
    ...(answer.agent_overrides && { agentOverrides: answer.agent_overrides }),
  };
}

/** What the ask decided, and its delivery log entry on its way (it never rejects). */
export interface InboundAsk {
  /** Undefined: answer with the number's agent, as without a webhook. */
  readonly routing: InboundRouting | undefined;
  /** Awaited with the call's own writes, not before them: the caller waits for neither alone. */
  readonly logged: Promise<void>;
}

/**
 * POSTs `call.inbound` {from, to, numberId, callId} to the number's webhook and reads its answer within the
 * budget. No routing (the number's agent answers) on a timeout, a refused URL, a non-2xx or an invalid
 * answer, each logged with its reason.
 */
export async function askInboundWebhook(
  deps: InboundDeps,
  number: PhoneNumber,
  fallback: Agent | undefined,
  call: { readonly from: string; readonly callId: string },
  budgetMs: number = INBOUND_WEBHOOK_BUDGET_MS,
): Promise<InboundAsk> {
  const url = number.inboundWebhookUrl;
  if (!url) return { routing: undefined, logged: Promise.resolve() };
  const started = Date.now();
  const eventId = newId('event', started);
  const createdAt = new Date(started).toISOString();
  const body = JSON.stringify({ id: eventId, type: 'call.inbound', createdAt, workspaceId: number.workspaceId, data: { from: call.from, to: number.number, numberId: number._id, callId: call.callId } });
  const headers = signatureHeaders({ secret: inboundWebhookSecret(deps, number) }, eventId, body, started);
  const res = await post(url, headers, body, deps.config.TOOL_ALLOWED_HOSTS, budgetMs, undefined, MAX_INBOUND_ANSWER_BYTES, MAX_INBOUND_ANSWER_BYTES);
  let routing: InboundRouting | undefined;
  let reason: string | undefined = res.error;
  if (!reason) {
    try {
      routing = await decide(deps, number, fallback, res.status, res.excerpt ?? '');
    } catch (error) {
      if (!(error instanceof Unusable)) throw error;
      reason = error.message;
    }
  }
  const at = new Date().toISOString();
  const latencyMs = Date.now() - started;
  const answeredBy = routing ? (routing.kind === 'connect' ? routing.agent._id : undefined) : fallback?._id;
  const inbound: InboundAnswerLog = {
    callId: call.callId,
    outcome: reason ? 'fallback' : routing?.kind === 'reject' ? 'rejected' : 'routed',
    ...(answeredBy && { agentId: answeredBy }),
    ...(reason && { reason }),
  };
  if (reason) log('warn', 'inbound webhook answer not used: the number\'s agent answers', { numberId: number._id, callId: call.callId, reason, latencyMs });
  const logged = putNewDelivery(deps.db, {
    _id: newId('delivery'),
    endpointId: number._id,
    workspaceId: number.workspaceId,
    eventId,
    eventType: 'call.inbound',
    inbound,
    status: reason ? 'failed' : 'succeeded',
    attempts: [{ at, latencyMs, ...(res.status !== undefined && { status: res.status }), ...(reason && { error: `${reason}; the number's agent answered` }), ...(res.excerpt && { responseExcerpt: res.excerpt.slice(0, RESPONSE_EXCERPT_CHARS) }) }],
    createdAt,
    updatedAt: at,
  }).catch((error: unknown) => log('warn', 'inbound webhook delivery not logged', { numberId: number._id, error: String(error) }));
  return { routing, logged };
}
