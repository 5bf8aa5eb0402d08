import { publicUrl } from '../config.js';
import type { Deps } from '../deps.js';
import { AppError, BadRequestError, ConflictError, type ErrorCode } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import {
  PHONE_NUMBER_STATUS,
  e164Of,
  type AvailableNumbersQuery,
  type PhoneNumber,
  type PhoneNumberBuy,
  type PhoneNumberImport,
  type PhoneNumberUpdate,
  type PriorRouting,
} from '../domain/phone-number.js';
import { log, describeError } from '../observability/log.js';
import { announce } from './webhook-events.js';
import { assertWebhookUrl } from '../domain/webhook-url.js';
import { ValidationError } from '../domain/errors.js';

/**
 * A number's `inbound_webhook_url`, checked as a webhook endpoint's URL is (https, no private or internal
 * address; resolved and checked again at each call), with the 400 naming the field.
 */
function inboundHook(deps: Pick<PhoneDeps, 'config'>, url: string | undefined): { inboundWebhookUrl: string } | Record<string, never> {
  if (url === undefined) return {};
  try {
    return { inboundWebhookUrl: assertWebhookUrl(url, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }) };
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError((error.details as { message: string }[]).map((d) => ({ field: 'inbound_webhook_url', message: d.message })));
    throw error;
  }
}
import { findAgent } from '../store/agents.js';
import { agentToRunById } from './agent-runtime.js';
import {
  deletePhoneNumber,
  findNumberOwner,
  getPhoneNumber,
  getPhoneNumberWithToken,
  numberTaken,
  putNewPhoneNumber,
  setPhoneNumberAgent,
  setInboundWebhookUrl,
} from '../store/phone-numbers.js';
import { isTelephonyError, type AvailableNumber, type NumberRouting, type ProviderNumber, type TelephonyAccount } from '../vendors/telephony/port.js';

/**
 * Phone numbers: search, buy, import (bring your own telephony), assign an agent, release. The provider is
 * reached only through the telephony port; provider failures a client can act on become 4xx errors that
 * say what to fix, the rest stay 5xx (logged with their cause).
 */

type PhoneDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'telephony' | 'webhooks'>;

/** The webhook paths a number is pointed at (the routes in lib/infra/routes.ts). */
export const WEBHOOK_PATHS = { voice: '/twilio/voice', status: '/twilio/status' } as const;

/** Our voice and status webhooks, as the provider must call them. */
export function ourRouting(config: PhoneDeps['config']): { voiceUrl: string; statusCallback: string } {
  return { voiceUrl: publicUrl(config, WEBHOOK_PATHS.voice), statusCallback: publicUrl(config, WEBHOOK_PATHS.status) };
}

class UnprocessableError extends AppError {
  constructor(code: ErrorCode, message: string, field: string) {
    super(422, code, message, [{ field, message }]);
  }
}

async function requirePlatformAccount(deps: PhoneDeps): Promise<TelephonyAccount> {
  const account = await deps.telephony.platformAccount();
  // A deployment without a platform account can still import numbers; buying needs one. Ours to fix: 5xx.
  if (!account) throw new Error('No platform telephony account: set TWILIO_ACCOUNT_SID/TWILIO_AUTH_TOKEN or TWILIO_SECRET_ARN');
  return account;
}

/** Numbers for sale through the platform's account. */
export async function searchAvailableNumbers(deps: PhoneDeps, query: AvailableNumbersQuery): Promise<{ data: AvailableNumber[] }> {
  const account = await requirePlatformAccount(deps);
  try {
    return { data: await deps.telephony.port.searchAvailable(account, query) };
  } catch (error) {
    if (isTelephonyError(error, 'not_found')) {
      throw new BadRequestError(`Numbers in ${query.country} are not offered.`, [{ field: 'query.country', message: 'no numbers offered in this country' }], 'country_not_supported');
    }
    if (isTelephonyError(error, 'invalid')) {
      throw new BadRequestError(`The search was refused: ${error.message}`, [{ message: error.message }], 'invalid_search');
    }
    throw error;
  }
}

/**
 * Buys a number into the platform's account, pointed at our webhooks, and gives it to the workspace. A
 * number already held here is refused before any money is spent; if the claim still loses a race after the
 * purchase, the number is released again.
 */
export async function buyPhoneNumber(deps: PhoneDeps, ws: string, input: PhoneNumberBuy): Promise<PhoneNumber> {
  const e164 = e164Of(input.phoneNumber);
  const hook = inboundHook(deps, input.inbound_webhook_url);
  if (await findNumberOwner(deps.db, e164)) throw numberTaken(e164);
  const account = await requirePlatformAccount(deps);
  let bought: ProviderNumber;
  try {
    bought = await deps.telephony.port.buyNumber(account, e164, ourRouting(deps.config));
  } catch (error) {
    if (isTelephonyError(error, 'unavailable')) {
      throw new ConflictError('number_unavailable', `${e164} is not available to buy; search again and pick another.`, [
        { field: 'phoneNumber', message: 'not available at the provider' },
      ]);
    }
    if (isTelephonyError(error, 'invalid')) {
      throw new BadRequestError(`The provider refused ${e164}: ${error.message}`, [{ field: 'phoneNumber', message: error.message }], 'number_refused');
    }
    throw error;
  }
  const now = new Date().toISOString();
  const number: PhoneNumber = {
    _id: newId('phoneNumber'),
    number: e164,
    status: PHONE_NUMBER_STATUS,
    workspaceId: ws,
    agentId: null,
    providerSid: bought.sid,
    telephonyAccountSid: account.accountSid,
    ...hook,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await putNewPhoneNumber(deps.db, deps.secrets, number);
  } catch (error) {
    await deps.telephony.port.releaseNumber(account, bought.sid).catch((releaseError: unknown) => {
      log('error', 'bought number could not be released after a failed claim', { number: e164, sid: bought.sid, ...describeError(releaseError) });
    });
    throw error;
  }
  return number;
}

/** A number's setting, unless it is one of our own webhooks (never restore ourselves). */
const notOurs = (value: string | null, ours: string): string | null => (value === ours ? null : value);

/**
 * Imports a number from the customer's own account: checks the credentials and that the number is in that
 * account, refuses numbers routed to an application or SIP trunk (Twilio would never call our webhook),
 * claims the number, then points its voice and status webhooks at us. What was configured before is kept
 * and restored on release. The auth token is stored sealed.
 */
export async function importPhoneNumber(deps: PhoneDeps, ws: string, input: PhoneNumberImport): Promise<PhoneNumber> {
  const e164 = e164Of(input.phoneNumber);
  const hook = inboundHook(deps, input.inbound_webhook_url);
  // Before touching the customer's account: a number held here (by any workspace) stays as it is.
  if (await findNumberOwner(deps.db, e164)) throw numberTaken(e164);
  const account: TelephonyAccount = { accountSid: input.telephonyAccountSid, authToken: input.telephonyAuthToken };
  let found: ProviderNumber | undefined;
  try {
    found = await deps.telephony.port.findNumber(account, e164);
  } catch (error) {
    if (isTelephonyError(error, 'auth')) {
      throw new UnprocessableError(
        'telephony_credentials_invalid',
        'The telephony account sid and auth token were not accepted by the provider; check both (the auth token, not an API key secret).',
        'telephonyAuthToken',
      );
    }
    throw error;
  }
  if (!found) {
    throw new UnprocessableError(
      'number_not_in_account',
      `The credentials are valid, but ${e164} is not a number of account ${input.telephonyAccountSid}.`,
      'phoneNumber',
    );
  }
  const routedElsewhere = [
    found.voiceApplicationSid ? `a voice application (VoiceApplicationSid ${found.voiceApplicationSid})` : undefined,
    found.trunkSid ? `a SIP trunk (TrunkSid ${found.trunkSid})` : undefined,
  ].filter(Boolean);
  if (routedElsewhere.length > 0) {
    throw new ConflictError(
      'number_routed_elsewhere',
      `${e164} sends its calls to ${routedElsewhere.join(' and ')}, so the provider would never call our webhook. Remove it from the number in your provider console, then import again.`,
      [{ field: 'phoneNumber', message: `routed to ${routedElsewhere.join(' and ')}` }],
    );
  }
  const ours = ourRouting(deps.config);
  const priorRouting: PriorRouting = {
    voiceUrl: notOurs(found.voiceUrl, ours.voiceUrl),
    voiceMethod: found.voiceUrl === ours.voiceUrl ? null : found.voiceMethod,
    statusCallback: notOurs(found.statusCallback, ours.statusCallback),
    statusCallbackMethod: found.statusCallback === ours.statusCallback ? null : found.statusCallbackMethod,
  };
  const now = new Date().toISOString();
  const number: PhoneNumber = {
    _id: newId('phoneNumber'),
    number: e164,
    status: PHONE_NUMBER_STATUS,
    type: 'byot',
    workspaceId: ws,
    agentId: null,
    providerSid: found.sid,
    telephonyAccountSid: input.telephonyAccountSid,
    priorRouting,
    ...hook,
    createdAt: now,
    updatedAt: now,
  };
  // Claim first: if another workspace wins the race, the customer's number is left untouched.
  await putNewPhoneNumber(deps.db, deps.secrets, number, input.telephonyAuthToken);
  try {
    await deps.telephony.port.configureNumber(account, found.sid, ours);
  } catch (error) {
    await deletePhoneNumber(deps.db, number).catch((undoError: unknown) => {
      log('error', 'imported number could not be unclaimed after a failed configuration', { numberId: number._id, ...describeError(undoError) });
    });
    throw error;
  }
  return number;
}

/** Assigns the agent that answers inbound calls (it must be one of the workspace's), or unassigns. */
export async function assignAgent(deps: PhoneDeps, ws: string, id: string, input: PhoneNumberUpdate): Promise<PhoneNumber> {
  if (input.agentId && !(await findAgent(deps.db, ws, input.agentId))) {
    throw new UnprocessableError('unknown_agent', `This workspace has no agent ${input.agentId}.`, 'agentId');
  }
  const url = input.inbound_webhook_url === null ? null : (inboundHook(deps, input.inbound_webhook_url).inboundWebhookUrl ?? undefined);
  // A pin names a version of the agent the number will have: the one sent, else the one it has.
  const agentId = input.agentId !== undefined ? input.agentId : input.agent_version !== undefined ? (await getPhoneNumber(deps.db, ws, id)).agentId : undefined;
  if (typeof input.agent_version === 'number') {
    if (!agentId) throw new ValidationError([{ field: 'agent_version', message: 'the number has no agent to pin a version of' }]);
    await agentToRunById(deps.db, ws, agentId, input.agent_version);
  }
  const now = new Date().toISOString();
  let number = agentId !== undefined ? await setPhoneNumberAgent(deps.db, ws, id, agentId, now, input.agent_version ?? null) : undefined;
  if (url !== undefined) number = await setInboundWebhookUrl(deps.db, ws, id, url, now);
  return number!;
}

/**
 * Gives a number up. A bought number is released at the provider; an imported one gets back the routing it
 * had before import, wherever it still points at us (settings the customer changed since are left alone).
 * Provider answers that mean there is nothing left to undo (number already gone, credentials revoked) do
 * not block the release; transient failures do, so the client retries.
 */
export async function releasePhoneNumber(deps: PhoneDeps, ws: string, id: string): Promise<void> {
  const { number, authToken } = await getPhoneNumberWithToken(deps.db, deps.secrets, ws, id);
  const port = deps.telephony.port;
  try {
    if (number.type === 'byot') {
      const account = { accountSid: number.telephonyAccountSid, authToken: authToken ?? '' };
      const current = await port.findNumber(account, number.number);
      if (current) {
        const ours = ourRouting(deps.config);
        const prior = number.priorRouting;
        const restore: NumberRouting = {
          ...(current.voiceUrl === ours.voiceUrl ? { voiceUrl: prior?.voiceUrl ?? null, voiceMethod: prior?.voiceMethod ?? undefined } : {}),
          ...(current.statusCallback === ours.statusCallback
            ? { statusCallback: prior?.statusCallback ?? null, statusCallbackMethod: prior?.statusCallbackMethod ?? undefined }
            : {}),
        };
        if (Object.keys(restore).length > 0) await port.configureNumber(account, current.sid, restore);
      }
    } else {
      await port.releaseNumber(await requirePlatformAccount(deps), number.providerSid);
    }
  } catch (error) {
    // Revoked customer credentials leave nothing we can undo; our own account failing to authenticate is ours to fix.
    const nothingToUndo = isTelephonyError(error, 'not_found') || (number.type === 'byot' && isTelephonyError(error, 'auth'));
    if (!nothingToUndo) throw error;
    log('warn', 'number released locally; nothing could be undone at the provider', {
      numberId: number._id,
      type: number.type ?? 'bought',
      reason: error.kind,
    });
  }
  await deletePhoneNumber(deps.db, number);
  await announce(deps, ws, 'phone_number.released', { phoneNumberId: number._id, number: number.number, type: number.type ?? 'bought' });
}
